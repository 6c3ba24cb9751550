/**
 * Agent Skills discovery in the built tree (DESIGN.md section 8; docs/http-api.md "Agent Skills
 * discovery"), read over real HTTP from the app `loadout serve` runs: the 0.2.0 indexes of each
 * loadout and of the catalogue, the legacy 0.1 indexes, digests over the exact bytes served,
 * archives unpacked and compared with the record, the shared-name rule, deterministic archives,
 * incremental builds, and the headers that keep loadout content from running on the origin.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/server/app.js';
import { createStaticServer } from '../../../src/server/static.js';
import { listen, type RunningServer } from '../../../src/server/listen.js';
import { buildDiscoveryFixture, HTML_TEMPLATE, type DiscoveryFixture } from './discovery-fixture.js';

const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const RAW_CSP = "default-src 'none'; sandbox";

interface Entry {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  url: string;
  digest: string;
}
interface PublishedFile {
  path: string;
  role: string;
  skill: string | null;
  content: string;
}

let fixture: DiscoveryFixture;
let server: RunningServer;

beforeAll(async () => {
  fixture = await buildDiscoveryFixture();
  const app = createApp({ distDir: fixture.dist, baseUrl: 'http://localhost:8787', submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
  server = await listen(app, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  fixture?.remove();
});

const get = (path: string): Promise<Response> => fetch(new URL(path, server.url));
const bytesAt = async (url: string): Promise<Buffer> => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};
const digest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function indexAt(path: string): Promise<{ url: string; index: { $schema?: string; skills: Entry[] } }> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { url: response.url, index: (await response.json()) as { $schema?: string; skills: Entry[] } };
}

async function recordSkills(id: string): Promise<Map<string, Map<string, string>>> {
  const record = (await (await get(`/api/loadouts/${id}.json`)).json()) as { files: PublishedFile[] };
  const skills = new Map<string, Map<string, string>>();
  for (const f of record.files) {
    if (f.skill === null || (f.role !== 'skill' && f.role !== 'reference')) continue;
    const files = skills.get(f.skill) ?? new Map<string, string>();
    files.set(f.path.slice(`skills/${f.skill}/`.length), f.content);
    skills.set(f.skill, files);
  }
  return skills;
}

/** The files an entry's artifact holds, fetched the way the client does (URL against the index's address) and checked against its digest. */
async function filesOf(indexUrl: string, entry: Entry): Promise<Map<string, string>> {
  const bytes = await bytesAt(new URL(entry.url, indexUrl).href);
  expect(digest(bytes), entry.name).toBe(entry.digest);
  if (entry.type === 'skill-md') return new Map([['SKILL.md', bytes.toString('utf8')]]);
  const zip = await JSZip.loadAsync(bytes);
  const files = new Map<string, string>();
  for (const file of Object.values(zip.files)) {
    expect(file.dir, file.name).toBe(false);
    files.set(file.name, await file.async('string'));
  }
  return files;
}

describe('the index of one loadout', () => {
  it('lists each skill of the loadout with the 0.2.0 schema; every artifact holds exactly the record\'s files', async () => {
    for (const id of ['alpha', 'beta', 'gamma']) {
      const { url, index } = await indexAt(`/loadouts/${id}/.well-known/agent-skills/index.json`);
      expect(index.$schema).toBe(SCHEMA);
      const published = await recordSkills(id);
      expect(index.skills.map((s) => s.name)).toEqual([...published.keys()].sort());
      for (const entry of index.skills) {
        expect(Object.keys(entry).sort()).toEqual(['description', 'digest', 'name', 'type', 'url']);
        expect(entry.digest).toMatch(/^sha256:[0-9a-f]{64}$/u);
        expect(entry.description).toBe(`The ${entry.name} skill as ${id} publishes it. Use it when the test needs ${entry.name}.`);
        const expected = published.get(entry.name) as Map<string, string>;
        expect(entry.type).toBe(expected.size === 1 ? 'skill-md' : 'archive');
        expect(await filesOf(url, entry)).toEqual(expected);
      }
    }
  });

  it('is empty for a loadout without skills', async () => {
    expect((await indexAt('/loadouts/plain/.well-known/agent-skills/index.json')).index).toEqual({ $schema: SCHEMA, skills: [] });
  });

  it('has a legacy 0.1 index whose files sit at <name>/<file> beside it, as the record holds them', async () => {
    const { url, index } = await indexAt('/loadouts/alpha/.well-known/skills/index.json');
    expect(index.$schema).toBeUndefined();
    const published = await recordSkills('alpha');
    expect(index.skills.map((s) => s.name)).toEqual(['shared', 'solo']);
    for (const entry of index.skills as unknown as { name: string; description: string; files: string[] }[]) {
      expect(entry.files[0]).toBe('SKILL.md');
      const expected = published.get(entry.name) as Map<string, string>;
      expect([...entry.files].sort()).toEqual([...expected.keys()].sort());
      for (const file of entry.files) expect((await bytesAt(new URL(`${entry.name}/${file}`, url).href)).toString('utf8')).toBe(expected.get(file));
    }
  });
});

describe('the catalogue-wide index', () => {
  it('lists each skill name once: from the featured loadout first, then the most recently updated', async () => {
    const { url, index } = await indexAt('/.well-known/agent-skills/index.json');
    expect(index.$schema).toBe(SCHEMA);
    expect(index.skills.map((s) => [s.name, new URL(s.url, url).pathname])).toEqual([
      // beta and gamma both have beta-only: gamma was updated later.
      ['beta-only', '/loadouts/gamma/.well-known/agent-skills/beta-only.zip'],
      // all three have shared: alpha is featured, though updated first.
      ['shared', '/loadouts/alpha/.well-known/agent-skills/shared.zip'],
      ['solo', '/loadouts/alpha/.well-known/agent-skills/solo/SKILL.md'],
    ]);
    const owners: Record<string, string> = { 'beta-only': 'gamma', shared: 'alpha', solo: 'alpha' };
    for (const entry of index.skills) expect(await filesOf(url, entry)).toEqual((await recordSkills(owners[entry.name] ?? '')).get(entry.name));
  });

  it('has a legacy index with the same choice, its files copied beside it', async () => {
    const { url, index } = await indexAt('/.well-known/skills/index.json');
    const legacy = index.skills as unknown as { name: string; files: string[] }[];
    expect(legacy.map((s) => s.name)).toEqual(['beta-only', 'shared', 'solo']);
    const shared = (await recordSkills('alpha')).get('shared') as Map<string, string>;
    for (const file of legacy[1]?.files ?? []) expect((await bytesAt(new URL(`shared/${file}`, url).href)).toString('utf8')).toBe(shared.get(file));
  });
});

describe('builds', () => {
  it('writes the same archive bytes again from the same content (a clean build)', async () => {
    const before = await bytesAt(new URL('/loadouts/alpha/.well-known/agent-skills/shared.zip', server.url).href);
    await fixture.rebuild(true);
    const after = await bytesAt(new URL('/loadouts/alpha/.well-known/agent-skills/shared.zip', server.url).href);
    expect(after.equals(before)).toBe(true);
  });

  it('carries an unchanged loadout\'s discovery files over and keeps the catalogue index whole', async () => {
    const file = (): number => statSync(join(fixture.dist, 'loadouts/alpha/.well-known/agent-skills/shared.zip')).mtimeMs;
    const index = (await indexAt('/.well-known/agent-skills/index.json')).index;
    const started = Date.now();
    await fixture.rebuild(false);
    // Reused (a hard link to the live tree's file, or the standby tree's own copy), not written again.
    expect(file()).toBeLessThan(started);
    expect((await indexAt('/.well-known/agent-skills/index.json')).index).toEqual(index);
  });
});

describe('serving .well-known', () => {
  it('serves skill files as sandboxed plain text and archives as zips, never as HTML, and lets any origin read them', async () => {
    for (const path of ['/loadouts/alpha/.well-known/skills/shared/templates/report.html', '/.well-known/skills/shared/templates/report.html', '/loadouts/alpha/.well-known/agent-skills/solo/SKILL.md']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('content-security-policy'), path).toBe(RAW_CSP);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      if (path.endsWith('.html')) expect(await response.text()).toBe(HTML_TEMPLATE);
    }
    const zip = await get('/loadouts/alpha/.well-known/agent-skills/shared.zip');
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('x-content-type-options')).toBe('nosniff');
    expect(zip.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 304 to the ETag of an index', async () => {
    const first = await get('/loadouts/alpha/.well-known/agent-skills/index.json');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await fetch(new URL('/loadouts/alpha/.well-known/agent-skills/index.json', server.url), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it.each([
    ['the build cache', '/.loadout-build.jsonl'],
    ['the complete marker', '/.complete'],
    ['a dot folder in a loadout', '/loadouts/alpha/.git/config'],
    ['.well-known spelled in capitals', '/.WELL-KNOWN/agent-skills/index.json'],
    ['.well-known elsewhere in the tree', '/api/.well-known/agent-skills/index.json'],
    ['.well-known below raw/', '/raw/alpha/latest/.well-known/x'],
    ['a dot file inside .well-known', '/.well-known/agent-skills/.hidden'],
    ['a loadout folder that is a dot name', '/loadouts/.x/.well-known/agent-skills/index.json'],
  ])('does not serve %s (404), though the file is in the tree', async (_label, path) => {
    const file = join(fixture.dist, ...path.slice(1).split('/'));
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '<script>alert(1)</script>\n');
    }
    const response = await get(path);
    expect(response.status, path).toBe(404);
  });

  it('lets no dot-dot path through .well-known reach a dot file', async () => {
    // Sent as is (fetch() and URL parsing would resolve the dot segments first). Node's server
    // resolves them before the app sees the path, which then names a dot file (404), or
    // climbs above the root (400).
    for (const path of ['/.well-known/../.loadout-build.jsonl', '/.well-known/agent-skills/%2E%2E/%2E%2E/.complete', '/loadouts/alpha/.well-known/../../../.complete']) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        request({ host: '127.0.0.1', port: server.port, path }, (response) => {
          response.resume();
          resolve(response.statusCode);
        })
          .on('error', reject)
          .end();
      });
      expect([400, 404], path).toContain(status);
    }
    // The static server itself refuses a path that still holds dot segments.
    const files = createStaticServer(fixture.dist);
    for (const path of ['/.well-known/%2e%2e/.complete', '/loadouts/alpha/.well-known/../index.html']) {
      expect((await files.serve(new Request('http://x/'), path)).status, path).toBe(400);
    }
  });
});
