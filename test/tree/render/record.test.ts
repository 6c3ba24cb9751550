/**
 * The record's `security` block follows the safety check (spec "Security": `verdict` is `clean`
 * or `flagged`; docs/authoring.md "What the checks look for": a finding sets `flagged`).
 * `loadout build` refuses a loadout with a failing check (DESIGN.md section 4), so the static
 * catalogue only ever holds clean records; the verdict is decided here, from the run, for any
 * record built from one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Capabilities } from '../../../src/tree-format/capabilities.js';
import { describe, expect, it } from 'vitest';
import { buildRecord, layoutForAgents } from '../../../src/tree/render/record.js';
import { PUBLISHED_AGENTS, type Agent } from '../../../src/catalogue/vocabulary.js';
import type { InstalledFiles } from '../../../src/layout/installed-files.js';
import { readLoadoutSource } from '../../../src/catalogue/source.js';
import { runChecks } from '../../../src/verify/run.js';
import { rawUrl } from '../../../src/tree-format/index.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';
import { decodeUtf8 } from '../../../src/catalogue/source.js';
import type { Manifest } from '../../../src/catalogue/manifest.js';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import type { CheckRun } from '../../../src/verify/run.js';
import { summariseVerification } from '../../../src/verify/verification.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/checks/safety', import.meta.url));

async function recordOf(fixture: string): Promise<ReturnType<typeof buildRecord>> {
  const [run] = (await checkCatalogue({ root: join(FIXTURES, fixture) }, [])) as [CheckRun];
  const texts = new Map([...run.source.files].map(([path, bytes]) => [path, decodeUtf8(bytes) ?? '']));
  const verification = summariseVerification(run.results, { checkedAt: new Date('2026-11-22T00:00:00Z'), commit: 'working-tree', contentCurrent: true });
  return buildRecord({ baseUrl: 'http://localhost:8787', manifest: run.manifest as Manifest, texts, verification, published: undefined, updated: undefined, capabilities: run.capabilities as Capabilities });
}

describe('security verdict', () => {
  it('is flagged when the safety check finds something', async () => {
    const record = await recordOf('fail-curl-pipe-sh');
    expect(record.security).toMatchObject({ scanned: true, verdict: 'flagged' });
    expect(record.verification.status).toBe('failed');
  });

  it('is clean when the safety check passes', async () => {
    const record = await recordOf('pass-declared-network-and-script');
    expect(record.security).toMatchObject({ scanned: true, verdict: 'clean' });
  });
});

describe("the record's layouts", () => {
  it("are the build's checks' own when made with the catalogue's addresses, and equal what the record would make", async () => {
    const root = makeTempDir();
    const rule = '---\ndescription: Style\nglobs: ["src/**/*.ts"]\n---\n\nSee [the guide](../skills/add-test/references/checklist.md).\n';
    writeLoadout(root, {
      id: 'kit',
      title: 'Kit',
      files: [
        ...baseFiles('Kit', '# Kit\n\nRead [the style rule](rules/style.md), [the checklist](skills/add-test/references/checklist.md) and [the Gemini adapter](GEMINI.md).\n'),
        { path: 'rules/style.md', role: 'rules', description: 'Style', content: rule },
        { path: 'skills/add-test/SKILL.md', role: 'skill', skill: 'add-test', content: '---\nname: add-test\ndescription: Adds a test.\n---\n\nSee [the checklist](references/checklist.md).\n' },
        { path: 'skills/add-test/references/checklist.md', role: 'reference', skill: 'add-test', content: '# Checklist\n' },
      ],
    });
    const base = 'https://catalogue.example/long/base';
    const installs = new Map<Agent, InstalledFiles>();
    const source = await readLoadoutSource(join(root, 'loadouts'), 'kit');
    const run = await runChecks(source, { rawUrl: (id, version, path) => rawUrl(base, id, version, path), installs });
    expect(run.results.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.summary} ${JSON.stringify(r.details)}`)).toEqual([]);
    expect([...installs.keys()].sort()).toEqual([...PUBLISHED_AGENTS].sort());
    const manifest = run.manifest as Manifest;
    const texts = new Map([...source.files].map(([path, bytes]) => [path, decodeUtf8(bytes) ?? '']));
    const taken = layoutForAgents(base, manifest, texts, installs);
    const made = layoutForAgents(base, manifest, texts);
    for (const agent of PUBLISHED_AGENTS) {
      expect(taken[agent]).toBe(installs.get(agent));
      expect(taken[agent].plan).toEqual(made[agent].plan);
      expect(taken[agent].unresolved).toEqual(made[agent].unresolved);
      for (const { entry } of made[agent].plan.files) expect(taken[agent].text(entry.path), `${agent} ${entry.path}`).toBe(made[agent].text(entry.path));
    }
    // The links that leave what an agent installs point at this catalogue's raw addresses.
    expect(PUBLISHED_AGENTS.some((agent) => made[agent].plan.files.some(({ entry }) => (taken[agent].text(entry.path) ?? '').includes(`${base}/raw/kit/`)))).toBe(true);
  });
});
