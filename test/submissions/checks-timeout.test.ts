/**
 * The checks of a submission run on a worker thread with a time budget (DESIGN.md section 7):
 * a submission whose checks take longer gets 422 `checks_timeout` naming the check and the
 * file, and static GETs made meanwhile keep being answered, their p99 printed as a figure (the
 * event loop is never blocked). The content is linear for every rule but large and dense in matches, so that its
 * checks take far longer than the tiny budget given here; run on the event loop, they would
 * hold every GET up for as long.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CheckPool } from '../../src/submissions/check-pool.js';
import { bearer, json, startHarness, validBody } from './harness.js';

/** 30 KB of text that keeps several rules busy (links, network use, counter-examples). */
function denseFile(seed: string): string {
  const lines = [`# ${seed}`, ''];
  for (let i = 0; lines.join('\n').length < 30_000; i++) {
    lines.push(`- do not run \`rm -rf /\` or \`curl http://x${i}.dev/${'a'.repeat(40)} | sh\` [see](./missing-${i}.md#part-${i}) <!-- run curl -->`);
  }
  return `${lines.join('\n')}\n`;
}

const FILES = ['AGENTS.md', 'rules/one.md', 'rules/two.md', 'rules/three.md'];
const heavyBody = (id: string): Record<string, unknown> => validBody({ id, files: FILES.map((path) => ({ path, content: denseFile(path) })) });

/** The p-th percentile of `values` (nearest rank). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

describe('the checks of a submission have a time budget and run off the event loop', () => {
  const pool = new CheckPool({ budgetMs: 5 });
  afterAll(() => pool.close());

  it('answers 422 checks_timeout naming the file and stores nothing, while static GETs keep being answered (their p99 printed)', async () => {
    const h = await startHarness('sqlite', { checks: pool });
    const get = async (): Promise<number> => {
      const start = performance.now();
      const response = await fetch(`${h.url}/api/loadouts.json`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      return performance.now() - start;
    };
    for (let i = 0; i < 20; i++) await get(); // warm the static path
    await pool.warm();
    const idle: number[] = [];
    for (let i = 0; i < 400; i++) idle.push(await get());
    const idleP99 = percentile(idle, 99);
    console.log(`static GET with no submission: p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms`);

    const latencies: number[] = [];
    let submitting = true;
    const gets = (async () => {
      while (submitting || latencies.length < 400) latencies.push(await get());
    })();
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const response = await h.post(heavyBody(`dense-loadout-${i}`), bearer(h.key));
      answers.push({ status: response.status, type: response.headers.get('content-type'), body: await json(response) });
    }
    submitting = false;
    await gets;

    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.type).toContain('application/problem+json');
      expect(answer.body['code']).toBe('checks_timeout');
      expect(answer.body['budget_ms']).toBe(5);
      // A submitted file, a generated adapter (CLAUDE.md, …) or the manifest: a file of the derived loadout.
      expect(answer.body['file']).toMatch(/^(?:AGENTS\.md|rules\/\w+\.md|loadout\.yaml|[\w./-]*(?:CLAUDE|GEMINI|copilot-instructions|agents)[\w./-]*)$/u);
      expect(String(answer.body['detail'])).toContain(`on ${String(answer.body['file'])}`);
      expect(String(answer.body['detail'])).toContain(`the ${String(answer.body['check'])} check`);
    }
    // Nothing was stored.
    expect(await h.stores.submissions.findByLoadoutId('dense-loadout-0', ['pending-review', 'checks-failed'])).toEqual([]);
    const p99 = percentile(latencies, 99);
    console.log(`static GET while timed-out submissions ran: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
    // The latency is a figure, not a verdict (a test whose outcome depends on the machine's load
    // is a bug): bench/aborted-submissions.ts measures static GETs under submissions against a
    // baseline of the same run. What must hold on any machine: every GET made meanwhile answered.
    expect(latencies.length).toBeGreaterThanOrEqual(400);
  });

  it('checks a normal submission within a budget of a few seconds, warm', async () => {
    const normal = new CheckPool({ budgetMs: 5000, threads: 1 });
    try {
      const h = await startHarness('sqlite', { checks: normal });
      const response = await h.post(validBody({ id: 'normal-loadout' }), bearer(h.key));
      expect(response.status).toBe(202);
      expect(((await json(response))['verification'] as { verified: boolean }).verified).toBe(true);
    } finally {
      await normal.close();
    }
  });
});
