/**
 * Search finds bundles (issue 56, point 2; src/search/bundles.ts, engine.ts): `GET
 * /api/v1/search` of a served catalogue built from a real git repository lists the bundles that
 * match beside the loadouts, each marked `kind: "bundle"` with its loadouts, ranges and resolved
 * versions, while the loadouts' results keep the spec's fields; a loadout's filter lists no
 * bundle, `agent` keeps the bundles with a loadout for it; a catalogue without bundles answers as
 * before; `loadout search` prints them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundleSearch } from '../../src/search/bundles.js';
import { compileSettings, SEARCH_SETTINGS } from '../../src/search/settings.js';
import type { BundleListEntry } from '../../src/tree-format/bundle.js';
import { runCli } from '../helpers/cli.js';
import { startBundleServer, type BundleServer } from '../helpers/bundle-server.js';
import { buildFixtureCatalogue, type FixtureCatalogue } from './fixture.js';

let server: BundleServer;
beforeAll(async () => {
  server = await startBundleServer('loadout-bundle-search-');
}, 120_000);
afterAll(async () => server?.close());

interface Response {
  total: number;
  results: Record<string, unknown>[];
  bundles?: { kind: string; id: string; score: number; loadouts: { id: string; range: string; resolved: string }[] }[];
}
const search = async (query: string): Promise<Response> => {
  const response = await fetch(`${server.url}/api/v1/search?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Response;
};

/** The result fields of a loadout (DESIGN.md section 5, with always_tokens), in order. */
const LOADOUT_FIELDS = ['id', 'title', 'summary', 'version', 'score', 'categories', 'stacks', 'compatibility', 'counts', 'always_tokens', 'capabilities', 'verified', 'featured', 'deprecated', 'updated', 'url', 'api_url'];

describe('GET /api/v1/search over a catalogue with bundles', () => {
  it('lists the bundles that match, marked as bundles, with their loadouts resolved; the loadouts\' results keep their fields', async () => {
    const body = await search('q=web+team');
    // Any word matches, as for loadouts: the bundle that has both ranks first.
    expect(body.bundles?.map((b) => [b.kind, b.id])).toEqual([
      ['bundle', 'web-team-stack'],
      ['bundle', 'data-team-stack'],
    ]);
    expect(body.bundles?.[0]?.score).toBeGreaterThan(body.bundles?.[1]?.score ?? Infinity);
    expect(body.bundles?.[0]).toMatchObject({ title: 'Web Team Stack', version: '1.1.0', url: `${server.url}/bundles/web-team-stack/`, api_url: `${server.url}/api/bundles/web-team-stack.json` });
    expect(body.bundles?.[0]?.loadouts).toEqual([
      { id: 'nextjs-app-router', range: '^1.1', resolved: '1.1.0' },
      { id: 'secure-code-review', range: '^1', resolved: '1.0.0' },
      { id: 'github-actions-ci', range: '~1.0.0', resolved: '1.0.0' },
    ]);
    for (const result of body.results) expect(Object.keys(result)).toEqual(LOADOUT_FIELDS);
  });

  it('finds a bundle by a loadout it brings, by its id as typed, and by a word of its description', async () => {
    expect((await search('q=dbt')).bundles?.map((b) => b.id)).toEqual(['data-team-stack']);
    expect((await search('q=data-team')).bundles?.map((b) => b.id)).toEqual(['data-team-stack', 'web-team-stack']);
    expect((await search('q=secure+code')).bundles?.map((b) => b.id)).toEqual(['web-team-stack']);
    // A prefix, as the user types.
    expect((await search('q=fasta')).bundles?.map((b) => b.id)).toEqual(['data-team-stack']);
    expect((await search('q=godot')).bundles).toEqual([]);
    // An empty query lists every bundle.
    expect((await search('')).bundles?.map((b) => b.id)).toEqual(['data-team-stack', 'web-team-stack']);
  });

  it('lists no bundle under a loadout\'s filter, and keeps the bundles with a loadout for the agent asked for', async () => {
    expect((await search('q=team&category=data')).bundles).toEqual([]);
    expect((await search('q=team&verified=true')).bundles).toEqual([]);
    expect((await search('q=team&agent=codex')).bundles?.map((b) => b.id)).toEqual(['data-team-stack', 'web-team-stack']);
    expect((await search('q=team&agent=claude-code')).bundles?.map((b) => b.id)).toEqual(['data-team-stack', 'web-team-stack']);
  });

  it('prints the bundles found in the terminal after the loadouts', async () => {
    const result = await runCli(['search', 'web', 'team', '--out', server.fixture.dist], server.fixture.root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('bundle web-team-stack 1.1.0  Web Team Stack: nextjs-app-router ^1.1, secure-code-review ^1, github-actions-ci ~1.0.0\n');
  });
});

describe('a catalogue without bundles', () => {
  let plain: FixtureCatalogue;
  beforeAll(async () => {
    plain = await buildFixtureCatalogue();
  }, 120_000);
  afterAll(() => plain?.remove());

  it('answers without a bundles field', async () => {
    const result = await runCli(['search', 'next', '--json', '--out', plain.dist], plain.root);
    expect(Object.keys(JSON.parse(result.stdout) as object)).toEqual(['query', 'total', 'limit', 'offset', 'results']);
  });
});

describe('the bundles\' matcher', () => {
  const entry = (id: string, title: string, members: string[]): BundleListEntry => ({ id, title, summary: `${title} summary text.`, description: 'Words.', version: '1.0.0', license: 'MIT', author: { name: 'A' }, updated: null, url: '', api_url: '', loadouts: members.map((m) => ({ id: m, range: '*', agents: null, resolved: '1.0.0', title: m })) });
  const query = { q: '', tags: [], limit: 20, offset: 0 };

  it('ranks a match in the title above one in a loadout, and bundles of equal score by id', () => {
    const find = createBundleSearch([entry('b-stack', 'Other', ['react-app']), entry('a-stack', 'React Team', []), entry('c-stack', 'Other', ['react-app'])], compileSettings(SEARCH_SETTINGS));
    expect(find({ ...query, q: 'react' }).map((b) => b.id)).toEqual(['a-stack', 'b-stack', 'c-stack']);
    expect(find({ ...query, q: 'the' })).toEqual([]);
  });
});
