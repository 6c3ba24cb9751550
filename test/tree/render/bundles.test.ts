/**
 * Bundles in the built tree (issue 56, point 2; src/tree/render/bundles.ts,
 * src/tree/bundles/build-bundles.ts), from a real git repository in which the members have
 * several versions and a bundle two (test/helpers/bundle-catalogue.ts): the record with its
 * loadouts resolved in the versions git holds, its versions from history, the combined context
 * cost and capability list; the list and the schema; the plugin of dependencies only in the four
 * marketplaces, against the vendors' schemas; each loadout's page listing its bundles; a rebuild
 * that follows a changed or removed bundle; and a bundle with a finding refusing the build.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/tree/build.js';
import type { BundleList, BundleRecord } from '../../../src/tree-format/bundle.js';
import type { VersionsDocument } from '../../../src/tree-format/versions.js';
import { PUBLISHED_AGENTS } from '../../../src/catalogue/vocabulary.js';
import { BUNDLE_SPECS, bundleManifest, buildBundleCatalogue, writeBundle } from '../../helpers/bundle-catalogue.js';
import { pluginSchemaErrors } from '../../helpers/plugin-schemas.js';
import { buildSpecCatalogue, type SpecCatalogue } from '../../helpers/spec-catalogue.js';
import { commitAll, git } from '../../helpers/temp.js';
import { readSigningKey, trustPublishedKey } from '../../../src/tree-format/signing/keys.js';
import { verifySnapshot } from '../../../src/tree-format/signing/verify.js';
import { SNAPSHOT_PATH } from '../../../src/tree-format/signing/snapshot.js';

const BASE = 'https://catalogue.test';
const readJson = <T = Record<string, unknown>>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let fixture: SpecCatalogue;
let dist: string;
beforeAll(async () => {
  fixture = await buildBundleCatalogue(BASE, 'loadout-bundles-render-');
  dist = fixture.dist;
}, 120_000);
afterAll(() => fixture?.remove());

describe('a bundle\'s record', () => {
  it('resolves each loadout to the newest version git holds in its range, and says where the latest lies outside it', () => {
    const web = readJson<BundleRecord>(join(dist, 'api/bundles/web-team-stack.json'));
    expect(web).toMatchObject({ id: 'web-team-stack', type: 'bundle', version: '1.1.0', license: 'MIT', url: `${BASE}/bundles/web-team-stack/`, api_url: `${BASE}/api/bundles/web-team-stack.json`, published: '2026-03-01', updated: '2026-04-01' });
    expect(web.loadouts.map((m) => [m.id, m.range, m.resolved, m.latest, m.satisfying])).toEqual([
      ['nextjs-app-router', '^1.1', '1.1.0', '1.1.0', ['1.1.0']],
      // secure-code-review 2.0.0 came after the bundle took it at ^1: 1.0.0, from history, is the newest in range.
      ['secure-code-review', '^1', '1.0.0', '2.0.0', ['1.0.0']],
      ['github-actions-ci', '~1.0.0', '1.0.0', '1.0.0', ['1.0.0']],
    ]);
    expect(web.loadouts[0]).toMatchObject({ title: 'Next.js App Router', agents: null, url: `${BASE}/loadouts/nextjs-app-router/`, api_url: `${BASE}/api/loadouts/nextjs-app-router.json`, versions_url: `${BASE}/api/loadouts/nextjs-app-router/versions.json` });
  });

  it('publishes every version of the bundle from git history, each with the loadouts and ranges its file named', () => {
    const web = readJson<BundleRecord>(join(dist, 'api/bundles/web-team-stack.json'));
    const first = git(fixture.root, ['log', '--format=%H', '--grep', 'web-team-stack and data-team-stack 1.0.0']).trim();
    const second = git(fixture.root, ['log', '--format=%H', '--grep', 'web-team-stack 1.1.0']).trim();
    expect(web.versions).toEqual([
      { version: '1.0.0', date: '2026-03-01', commit: first, latest: false, loadouts: [{ id: 'nextjs-app-router', range: '^1.0', agents: null }, { id: 'secure-code-review', range: '^1', agents: null }] },
      { version: '1.1.0', date: '2026-04-01', commit: second, latest: true, loadouts: [{ id: 'nextjs-app-router', range: '^1.1', agents: null }, { id: 'secure-code-review', range: '^1', agents: null }, { id: 'github-actions-ci', range: '~1.0.0', agents: null }] },
    ]);
  });

  it('adds up the context cost of the resolved versions per agent, each loadout for the agents it is for', () => {
    const data = readJson<BundleRecord>(join(dist, 'api/bundles/data-team-stack.json'));
    const costOf = (id: string, version: string): VersionsDocument['versions'][number]['context'] => {
      const entry = readJson<VersionsDocument>(join(dist, 'api/loadouts', id, 'versions.json')).versions.find((v) => v.version === version);
      if (entry === undefined) throw new Error(`no ${id} ${version}`);
      return entry.context;
    };
    const dbt = costOf('dbt-analytics', '1.0.0');
    const fastapi = costOf('fastapi-service', '1.0.0');
    for (const agent of PUBLISHED_AGENTS) {
      const forFastapi = agent === 'codex' || agent === 'cursor';
      expect(data.context[agent].always.tokens, agent).toBe(dbt[agent].always.tokens + (forFastapi ? fastapi[agent].always.tokens : 0));
      expect(data.context[agent].on_demand.bytes, agent).toBe(dbt[agent].on_demand.bytes + (forFastapi ? fastapi[agent].on_demand.bytes : 0));
    }
    expect(data.loadouts[1]?.agents).toEqual(['codex', 'cursor']);
    expect(data.loadouts[1]?.context['claude-code']).toEqual({ always: { bytes: 0, tokens: 0 }, on_demand: { bytes: 0, tokens: 0 } });
  });

  it('carries the union of the members\' capability lists, each item\'s files under its loadout', () => {
    const data = readJson<BundleRecord>(join(dist, 'api/bundles/data-team-stack.json'));
    const dbt = readJson<VersionsDocument>(join(dist, 'api/loadouts/dbt-analytics/versions.json')).versions[0]?.capabilities;
    expect(dbt?.mcp_servers.map((s) => s.name)).toEqual(['postgres']);
    expect(data.capabilities.runs).toBe('something');
    expect(data.capabilities.mcp_servers.map((s) => [s.name, s.file])).toEqual([['postgres', 'dbt-analytics/mcp/servers.json']]);
    expect(data.capabilities.env.map((e) => [e.name, e.used_by])).toEqual([['POSTGRES_URL', ['mcp:postgres']]]);
    expect(data.capabilities.agents['claude-code'].runs).toBe('something');
    expect(data.loadouts[0]?.capabilities).toEqual({ runs: dbt?.runs, digest: dbt?.digest });
    // The web team's loadouts start no server and bring no hook: it runs nothing.
    expect(readJson<BundleRecord>(join(dist, 'api/bundles/web-team-stack.json')).capabilities.runs).toBe('nothing');
  });
});

describe('the bundles\' list, schema and plugins', () => {
  it('lists every bundle in api/bundles.json, publishes the bundle schema beside the authoring schema, and names the addresses', () => {
    const list = readJson<BundleList>(join(dist, 'api/bundles.json'));
    expect(list.total).toBe(2);
    expect(list.bundles.map((b) => [b.id, b.version, b.loadouts.map((m) => `${m.id} ${m.range} ${m.resolved}`)])).toEqual([
      ['data-team-stack', '1.0.0', ['dbt-analytics ^1.0 1.0.0', 'fastapi-service ^1 1.0.0']],
      ['web-team-stack', '1.1.0', ['nextjs-app-router ^1.1 1.1.0', 'secure-code-review ^1 1.0.0', 'github-actions-ci ~1.0.0 1.0.0']],
    ]);
    expect(readJson(join(dist, 'api/bundle.schema.json'))).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `${BASE}/api/bundle.schema.json`, additionalProperties: false });
    expect(readJson<{ endpoints: Record<string, string> }>(join(dist, 'api/v1/index.json')).endpoints).toHaveProperty(['GET /api/bundles/{bundle_id}.json']);
  });

  it('writes each bundle as a plugin of dependencies only, with the bundle\'s ranges, whose manifests pass the vendors\' schemas', () => {
    const claude = readJson<{ name: string; version: string; dependencies: unknown }>(join(dist, 'plugins/web-team-stack/.claude-plugin/plugin.json'));
    expect(pluginSchemaErrors('claudePlugin', claude)).toEqual([]);
    expect(claude).toMatchObject({ name: 'web-team-stack', version: '1.1.0' });
    expect(claude.dependencies).toEqual([
      { name: 'nextjs-app-router', version: '^1.1' },
      { name: 'secure-code-review', version: '^1' },
      { name: 'github-actions-ci', version: '~1.0.0' },
    ]);
    // A loadout that is not for Claude Code is no dependency of its plugin.
    expect(readJson<{ dependencies: unknown }>(join(dist, 'plugins/data-team-stack/.claude-plugin/plugin.json')).dependencies).toEqual([{ name: 'dbt-analytics', version: '^1.0' }]);
    const agentPlugin = readJson<{ description: string }>(join(dist, 'plugins/web-team-stack/plugin.json'));
    expect(pluginSchemaErrors('agentPlugin', agentPlugin)).toEqual([]);
    expect(agentPlugin.description).toContain('nextjs-app-router ^1.1, secure-code-review ^1, github-actions-ci ~1.0.0');
    const readme = readFileSync(join(dist, 'plugins/web-team-stack/README.md'), 'utf8');
    expect(readme).toContain('claude plugin install web-team-stack@loadout-catalogue');
    expect(readme).toContain('codex plugin add secure-code-review@loadout-catalogue');
    expect(readme).toContain('secure-code-review 2.0.0 is outside `^1`');
    // The folder holds the manifests and the README, no file of the members.
    expect(existsSync(join(dist, 'plugins/web-team-stack/skills'))).toBe(false);
  });

  it('lists the bundles in the four marketplaces, valid against the vendors\' schemas, the URL one by a zip pinned by its sha256', async () => {
    const folder = readJson<{ plugins: { name: string; source: unknown; keywords: string[] }[] }>(join(dist, 'plugins/.claude-plugin/marketplace.json'));
    expect(pluginSchemaErrors('claudeMarketplace', folder)).toEqual([]);
    expect(folder.plugins.map((p) => p.name)).toEqual([...BUNDLE_SPECS.map((s) => s.id).sort(), 'data-team-stack', 'web-team-stack']);
    expect(folder.plugins.find((p) => p.name === 'web-team-stack')).toMatchObject({ source: './web-team-stack', keywords: ['bundle', 'nextjs-app-router', 'secure-code-review', 'github-actions-ci'] });
    const cursor = readJson<{ plugins: { name: string; description: string }[] }>(join(dist, 'plugins/.cursor-plugin/marketplace.json'));
    expect(pluginSchemaErrors('cursorMarketplace', cursor)).toEqual([]);
    expect(cursor.plugins.find((p) => p.name === 'data-team-stack')?.description).toContain('dbt-analytics ^1.0, fastapi-service ^1');
    const codex = readJson<{ plugins: { name: string; source: { path: string } }[] }>(join(dist, 'plugins/.agents/plugins/claude-marketplace.json'));
    for (const p of codex.plugins) expect(existsSync(join(dist, 'plugins', p.source.path, 'plugin.json')), p.name).toBe(true);
    const url = readJson<{ plugins: { name: string; source: { source: string; url: string; sha256: string } }[] }>(join(dist, 'plugins/claude-marketplace.json'));
    const entry = url.plugins.find((p) => p.name === 'web-team-stack');
    expect(entry?.source.url).toBe(`${BASE}/bundles/web-team-stack/plugin-1.1.0.zip`);
    const zip = readFileSync(join(dist, 'bundles/web-team-stack/plugin-1.1.0.zip'));
    expect(entry?.source.sha256).toBe(sha256(zip));
    const record = readJson<BundleRecord>(join(dist, 'api/bundles/web-team-stack.json'));
    expect(record.plugin).toMatchObject({ name: 'web-team-stack', marketplace: 'loadout-catalogue', install: 'claude plugin install web-team-stack@loadout-catalogue', sha256: sha256(zip) });
    const inZip = await JSZip.loadAsync(zip);
    expect(Object.keys(inZip.files).sort()).toEqual(['.claude-plugin/plugin.json', 'README.md', 'plugin.json']);
    expect(await inZip.file('.claude-plugin/plugin.json')?.async('string')).toBe(readFileSync(join(dist, 'plugins/web-team-stack/.claude-plugin/plugin.json'), 'utf8'));
  });

  it('lists on each loadout\'s page the bundles it is in, and nothing on the page of a loadout in none', () => {
    const page = readFileSync(join(dist, 'loadouts/github-actions-ci/index.html'), 'utf8');
    expect(page).toContain('<h2 id="bundles">In bundles</h2>');
    expect(page).toContain('<a href="../../bundles/web-team-stack/">Web Team Stack</a>');
    expect(page).toContain('<code>~1.0.0</code>');
    expect(readFileSync(join(dist, 'loadouts/dbt-analytics/index.html'), 'utf8')).toContain('../../bundles/data-team-stack/');
    expect(readFileSync(join(dist, 'loadouts/godot-gdscript/index.html'), 'utf8')).not.toContain('id="bundles"');
  });
});

describe('rebuilds follow the bundles', () => {
  it('builds again the loadouts a changed bundle names, and only those; drops a removed bundle\'s documents and plugin', async () => {
    const built = await buildSpecCatalogue(BUNDLE_SPECS, { prefix: 'loadout-bundles-rebuild-', baseUrl: BASE, beforeBuild: (root) => {
      writeBundle(root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.0.0', [['nextjs-app-router', '^1'], ['secure-code-review', '^1']]));
      commitAll(root, 'web-team-stack', '2026-03-01T10:00:00Z');
    } });
    try {
      const out = built.dist;
      const again = await buildCatalogue({ root: built.root, out, baseUrl: BASE });
      expect(again.read).toEqual([]);
      // The bundle gets a new title and a third loadout: its loadouts' pages are built again, no other.
      writeBundle(built.root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Platform Stack', '1.1.0', [['nextjs-app-router', '^1'], ['secure-code-review', '^1'], ['godot-gdscript', '*']]));
      const changed = await buildCatalogue({ root: built.root, out, baseUrl: BASE });
      expect(changed.written).toBe(true);
      expect(changed.read).toEqual(['godot-gdscript', 'nextjs-app-router', 'secure-code-review']);
      expect(readFileSync(join(out, 'loadouts/nextjs-app-router/index.html'), 'utf8')).toContain('Web Platform Stack');
      expect(readFileSync(join(out, 'loadouts/godot-gdscript/index.html'), 'utf8')).toContain('../../bundles/web-team-stack/');
      expect(readJson<{ plugins: { name: string; description: string }[] }>(join(out, 'plugins/.cursor-plugin/marketplace.json')).plugins.find((p) => p.name === 'web-team-stack')?.description).toContain('godot-gdscript *');
      expect(readJson<BundleRecord>(join(out, 'api/bundles/web-team-stack.json')).version).toBe('1.1.0');
      // The bundle goes: its pages, record and plugin go, and the pages of its loadouts lose it.
      rmSync(join(built.root, 'bundles/web-team-stack'), { recursive: true });
      const removed = await buildCatalogue({ root: built.root, out, baseUrl: BASE });
      expect(removed.read).toEqual(['godot-gdscript', 'nextjs-app-router', 'secure-code-review']);
      for (const path of ['api/bundles/web-team-stack.json', 'bundles/web-team-stack', 'plugins/web-team-stack']) expect(existsSync(join(out, path)), path).toBe(false);
      expect(readFileSync(join(out, 'loadouts/nextjs-app-router/index.html'), 'utf8')).not.toContain('id="bundles"');
      expect(readJson<BundleList>(join(out, 'api/bundles.json'))).toEqual({ total: 0, bundles: [] });
      expect(readJson<{ plugins: { name: string }[] }>(join(out, 'plugins/.claude-plugin/marketplace.json')).plugins.map((p) => p.name)).not.toContain('web-team-stack');
    } finally {
      built.remove();
    }
  }, 120_000);

  it('signs the bundles\' list, each record and each plugin zip in the snapshot of a signing build', async () => {
    const out = join(fixture.root, 'signed');
    const key = readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect((await buildCatalogue({ root: fixture.root, out, baseUrl: BASE, signing: { key, expiresInDays: 30 } })).written).toBe(true);
    const trusted = trustPublishedKey(key.published);
    if ('problem' in trusted) throw new Error(trusted.problem);
    const verified = verifySnapshot(readJson(join(out, SNAPSHOT_PATH)), [trusted], { now: new Date() });
    if (!verified.ok) throw new Error(verified.failure.message);
    for (const path of ['api/bundles.json', 'api/bundles/web-team-stack.json', 'api/bundles/data-team-stack.json', 'bundles/web-team-stack/plugin-1.1.0.zip', 'bundles/data-team-stack/plugin-1.0.0.zip']) {
      const bytes = readFileSync(join(out, path));
      expect(verified.snapshot.documents[path], path).toEqual({ sha256: sha256(bytes), bytes: bytes.byteLength });
    }
  }, 120_000);

  it('refuses the build for a bundle with a finding, naming its file and line, and leaves the tree as it was', async () => {
    const built = await buildSpecCatalogue(BUNDLE_SPECS.slice(0, 2), { prefix: 'loadout-bundles-refused-', baseUrl: BASE });
    try {
      const before = readFileSync(join(built.dist, 'api/loadouts.json'));
      writeBundle(built.root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.0.0', [['nextjs-app-router', '^1'], ['secure-code-review', '^4']]));
      const result = await buildCatalogue({ root: built.root, out: built.dist, baseUrl: BASE });
      expect(result.written).toBe(false);
      expect(result.bundleDiagnostics).toEqual([
        expect.objectContaining({ file: 'bundles/web-team-stack/bundle.yaml', line: 17, pointer: '/loadouts/1/range', message: 'the range "^4" of secure-code-review allows none of its published versions (1.0.0) (expected a range that one of them meets)' }),
      ]);
      expect(readFileSync(join(built.dist, 'api/loadouts.json')).equals(before)).toBe(true);
      expect(existsSync(join(built.dist, 'api/bundles/web-team-stack.json'))).toBe(false);
    } finally {
      built.remove();
    }
  }, 120_000);
});
