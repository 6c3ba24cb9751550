/**
 * The changelog and the context cost that `loadout build` publishes (DESIGN.md section 8): each
 * version in versions.json lists the subjects of the commits that made it, and each version and
 * the record carry the context cost per agent; the changelog is an input of the loadout's cache
 * key, so builds stay incremental and right.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/tree/build.js';
import { loadoutKey } from '../../../src/tree/incremental/cache.js';
import type { LoadoutHistory } from '../../../src/tree/history/history.js';
import type { VersionsDocument } from '../../../src/tree/render/loadout-output.js';
import type { PublishedRecord } from '../../../src/tree-format/index.js';
import type { LoadoutSource } from '../../../src/catalogue/source.js';
import { measureContextForAgents } from '../../../src/layout/context-cost.js';
import { publishedRecordErrors } from '../../helpers/published-schema.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { commitAll } from '../../helpers/temp.js';
import { buildLifecycleCatalogue, V1, V2, type LifecycleCatalogue } from '../../install/lifecycle-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-changelog-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const entries = (files: typeof V1): { entries: Parameters<typeof measureContextForAgents>[0]; text: (p: string) => string | undefined } => ({
  entries: files.map((f) => ({ path: f.path, role: f.role as never, description: 'd', ...(f.agent === undefined ? {} : { agent: f.agent as never }), ...(f.skill === undefined ? {} : { skill: f.skill }) })),
  text: (p) => files.find((f) => f.path === p)?.content,
});

describe('versions.json changes and context', () => {
  it('lists, per version, the subjects of the commits that made it, newest first', () => {
    const doc = readJson<VersionsDocument>(join(catalogue.dist, 'api/loadouts/kit/versions.json'));
    expect(doc.versions.map((v) => [v.version, v.changes])).toEqual([
      ['1.0.0', ['Clarify the checklist', 'kit 1.0.0']],
      ['1.1.0', ['Add the search server', 'kit 1.1.0']],
    ]);
  });

  it('gives each version and the record the context cost per agent of that version\'s files', () => {
    const doc = readJson<VersionsDocument>(join(catalogue.dist, 'api/loadouts/kit/versions.json'));
    const record = readJson<PublishedRecord>(join(catalogue.dist, 'api/loadouts/kit.json'));
    const v1 = entries(V1);
    const v2 = entries(V2);
    expect(doc.versions[0]?.context).toEqual(measureContextForAgents(v1.entries, v1.text));
    expect(doc.versions[1]?.context).toEqual(measureContextForAgents(v2.entries, v2.text));
    expect(record.context).toEqual(doc.versions[1]?.context);
    // 1.1.0 drops the rule that always applies: Claude Code starts every session with less.
    expect(record.context['claude-code'].always.tokens).toBeLessThan(doc.versions[0]?.context['claude-code'].always.tokens ?? 0);
    expect(publishedRecordErrors(record)).toEqual([]);
  });

  it('a commit that touches only another loadout changes neither the changelog nor the build of this one', async () => {
    writeLoadout(catalogue.root, { id: 'other', version: '1.0.0' });
    commitAll(catalogue.root, 'Add other');
    const result = await buildCatalogue({ root: catalogue.root, out: catalogue.dist, baseUrl: 'http://catalogue.test' });
    expect(result.reused).toEqual(['kit']);
    const other = readJson<VersionsDocument>(join(catalogue.dist, 'api/loadouts/other/versions.json'));
    expect(other.versions.map((v) => v.changes)).toEqual([['Add other']]);
  });
});

describe('the cache key', () => {
  const source: LoadoutSource = { id: 'kit', displayDir: 'loadouts/kit', manifestText: 'id: kit\n', files: new Map([['AGENTS.md', new TextEncoder().encode('# Kit\n')]]), irregular: [] };
  const history = (changes: string[], current: string[]): LoadoutHistory => ({
    versions: [{ version: '1.0.0', commit: 'a'.repeat(40), date: '2026-01-10', changes, load: async () => undefined }],
    published: '2026-01-10',
    updated: '2026-02-20',
    lastCommit: 'b'.repeat(40),
    currentSince: '2026-02-20',
    currentChanges: current,
    skipped: [],
  });

  it('changes when a version\'s changes change, and only then', () => {
    const key = loadoutKey(source, history(['kit 1.0.0'], ['kit 1.1.0']), 'c');
    expect(loadoutKey(source, history(['kit 1.0.0'], ['kit 1.1.0']), 'c')).toBe(key);
    expect(loadoutKey(source, history(['kit 1.0.0, reworded'], ['kit 1.1.0']), 'c')).not.toBe(key);
    expect(loadoutKey(source, history(['kit 1.0.0'], ['kit 1.1.0', 'a later fix']), 'c')).not.toBe(key);
  });
});
