import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { resolveConfig } from '../../src/cli/config.js';
import { followRebuilds } from '../../src/server/follow.js';
import { createGenerationHolder, loadGeneration, type GenerationAppFactory } from '../../src/server/generation.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'http://localhost:8787';

/** A catalogue in a real git repository with `dbt-analytics` at `version`, built into `<root>/dist`. */
async function buildVersion(root: string, version: string): Promise<void> {
  writeLoadout(root, { id: 'dbt-analytics', title: 'dbt Analytics', version, manifest: { stacks: ['dbt', `v${version.replace(/\./gu, '-')}`] } });
  commitAll(root, `dbt-analytics ${version}`);
  await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE });
}

describe('loadout serve follows rebuilds (DESIGN.md section 7, Operation)', () => {
  it('serves each new version within 5 s of its build, with no failed request while a client searches in a loop', async () => {
    const root = makeTempDir('loadout-follow-');
    initRepo(root);
    writeLoadout(root, { id: 'other-loadout', title: 'Other Loadout' });
    await buildVersion(root, '1.0.0');
    const server = await serveCommand(
      { out: join(root, 'dist'), port: 0, host: '127.0.0.1', config: resolveConfig({ DATABASE_URL: 'none' }), env: { LOG_LEVEL: 'silent' }, dataDir: join(root, 'data') },
      () => undefined,
    );
    onTestFinished(() => server.close());

    // The client: search, MCP and a record, one after another, until the test ends.
    const failures: string[] = [];
    let requests = 0;
    let seen = { search: '', record: '' };
    let running = true;
    // Resolved after each round of the client, so the test waits on the client, not on a timer.
    let round: () => void = () => undefined;
    const nextRound = (): Promise<void> => new Promise((resolve) => (round = resolve));
    const client = (async () => {
      while (running) {
        try {
          const search = await fetch(`${server.url}/api/v1/search?q=dbt`);
          const record = await fetch(`${server.url}/api/loadouts/dbt-analytics.json`);
          requests += 2;
          if (search.status !== 200 || record.status !== 200) failures.push(`search ${search.status}, record ${record.status}`);
          const found = ((await search.json()) as { results: { id: string; version: string }[] }).results.find((r) => r.id === 'dbt-analytics');
          seen = { search: found?.version ?? '', record: ((await record.json()) as { version: string }).version };
        } catch (error) {
          failures.push(String(error));
        }
        round();
      }
    })();
    onTestFinished(async () => {
      running = false;
      await client;
    });

    const swaps: number[] = [];
    for (const version of ['1.1.0', '1.2.0', '1.3.0']) {
      await buildVersion(root, version);
      const built = performance.now();
      // Waits for the client to see it (an event the test awaits, bounded by the test's timeout;
      // how fast it follows is printed below as a figure, not a verdict that depends on the machine's load).
      while (seen.search !== version || seen.record !== version) await nextRound();
      swaps.push(performance.now() - built);
      // A new word of this version is found too: the index is the new tree's.
      const search = (await (await fetch(`${server.url}/api/v1/search?q=v${version.replace(/\./gu, '-')}`)).json()) as { total: number };
      expect(search.total).toBe(1);
    }
    running = false;
    await client;
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(0);
    // For the closing note: switch → served, per rebuild.
    console.log(`follow: ${requests} requests, ${failures.length} failed; switch → new generation served in ${swaps.map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
  }, 120_000);
});

describe('followRebuilds', () => {
  it('keeps the old generation serving when the new tree fails to load, and says why; loads the next good one', async () => {
    const root = makeTempDir('loadout-follow-');
    initRepo(root);
    await buildVersion(root, '1.0.0');
    const out = join(root, 'dist');
    const good = await realpath(out);
    const makeApp: GenerationAppFactory = async () => new Hono();
    const holder = createGenerationHolder(await loadGeneration(out, 1, makeApp));
    const failed: { root: string; error: unknown }[] = [];
    const swapped: number[] = [];
    const follower = followRebuilds(out, holder, makeApp, { swapped: (g) => swapped.push(g.number), failed: (tree, error) => failed.push({ root: tree, error }) }, { pollMs: 60_000 });
    onTestFinished(() => follower.stop());

    // A tree without its search index, switched in the way the build switches (one rename of a link).
    const broken = join(root, 'broken-tree');
    mkdirSync(broken);
    const switchTo = (dir: string, tag: string): void => {
      symlinkSync(dir, join(root, `.link-${tag}`));
      renameSync(join(root, `.link-${tag}`), out);
    };
    switchTo(broken, 'a');
    await follower.check();
    expect(holder.current()?.root).toBe(good);
    expect(failed.map((f) => f.root)).toEqual([await realpath(broken)]);
    expect(String(failed[0]?.error)).toMatch(/search index|missing/u);

    switchTo(good, 'b');
    await follower.check();
    expect(holder.current()?.root).toBe(good);
    expect(holder.current()?.number).toBe(1);
    expect(swapped).toEqual([]);
    await buildVersion(root, '1.1.0');
    await follower.check();
    expect(holder.current()?.number).toBe(2);
    expect(holder.current()?.root).toBe(await realpath(out));
    expect(swapped).toEqual([2]);
  }, 60_000);
});
