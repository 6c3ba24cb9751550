/**
 * End to end: build the real catalogue in loadouts/, serve it over HTTP, and check every
 * address shape of the spec ("Address shapes") for every loadout against its record.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedRecord } from '../../src/tree-format/index.js';
import { CATEGORIES, PUBLISHED_AGENTS, ROLES } from '../../src/catalogue/vocabulary.js';
import { runCli } from '../helpers/cli.js';
import { installLoadout } from '../../src/install/index.js';
import { satisfiesRange } from '../../src/catalogue/version-ranges.js';
import type { BundleList, BundleRecord } from '../../src/tree-format/bundle.js';
import { publishedRecordErrors } from '../helpers/published-schema.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describeCapabilities } from '../../src/capabilities/describe.js';
import type { Capabilities } from '../../src/tree-format/capabilities.js';

/** Ajv's validator for a schema the catalogue publishes. */
const compileSchema = (schema: object) => new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BASE = 'http://catalogue.example';
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));

let out: string;
let child: ChildProcess;
let url: string;
let records: PublishedRecord[];

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'loadout-e2e-'));
  const build = await runCli(['build', '--out', join(out, 'dist'), '--base-url', BASE], REPO);
  expect(build.stderr.replace(/loadout: warning:[^\n]*\n/gu, '')).toBe('');
  expect(build.code).toBe(0);
  child = spawn(process.execPath, ['--import', TSX, ENTRY, 'serve', '--port', '0', '--out', join(out, 'dist')], { cwd: REPO, env: { ...process.env, LOADOUT_BASE_URL: BASE }, stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (d: Buffer) => {
      seen += d.toString();
      const match = /at (http:\/\/\S+)/u.exec(seen);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${String(code)}`)));
  });
  const list = (await (await fetch(`${url}/api/loadouts.json`)).json()) as { loadouts: { id: string }[] };
  records = await Promise.all(list.loadouts.map(async (l) => (await (await fetch(`${url}/api/loadouts/${l.id}.json`)).json()) as PublishedRecord));
}, 120_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(out, { recursive: true, force: true });
});

/** Turns a published address into the address of the local server. */
const local = (address: string): string => {
  expect(address.startsWith(`${BASE}/`)).toBe(true);
  return `${url}${address.slice(BASE.length)}`;
};

describe('the real catalogue, built and served', () => {
  it('has at least 8 loadouts covering every role and category', () => {
    expect(records.length).toBeGreaterThanOrEqual(8);
    expect(new Set(records.flatMap((r) => r.files.map((f) => f.role)))).toEqual(new Set(ROLES));
    expect(new Set(records.flatMap((r) => r.categories))).toEqual(new Set(CATEGORIES));
    const adapters = new Set(records.flatMap((r) => r.files.filter((f) => f.role === 'adapter').map((f) => f.agent)));
    expect(adapters).toEqual(new Set(['claude-code', 'gemini-cli']));
  });

  it('serves every record in the published form, verified', () => {
    for (const record of records) {
      expect(publishedRecordErrors(record), record.id).toEqual([]);
      expect(record.verification.status, record.id).toBe('verified');
    }
  });

  it('serves the page, record, both raw addresses, every zip and the source zip of every loadout', async () => {
    for (const r of records) {
      expect((await fetch(local(r.url))).headers.get('content-type'), r.url).toBe('text/html; charset=utf-8');
      expect(((await (await fetch(local(r.api_url))).json()) as PublishedRecord).id).toBe(r.id);
      for (const f of r.files) {
        for (const address of [f.raw_url, f.raw_latest_url]) {
          const res = await fetch(local(address));
          expect(res.status, address).toBe(200);
          expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
          expect(await res.text(), address).toBe(f.content);
        }
        expect(f.raw_url).toBe(`${BASE}/raw/${r.id}/${r.version}/${f.path}`);
        expect(f.raw_latest_url).toBe(`${BASE}/raw/${r.id}/latest/${f.path}`);
      }
      for (const agent of PUBLISHED_AGENTS) {
        const install = r.install[agent];
        expect(install.zip_url).toBe(`${BASE}/download/${r.id}/${agent}.zip`);
        const zip = await JSZip.loadAsync(await (await fetch(local(install.zip_url))).arrayBuffer());
        expect(Object.keys(zip.files).sort(), `${r.id} ${agent}`).toEqual(install.files.map((f) => f.target).sort());
        // Each file as the agent reads it (layout/installed-files.ts: links rewritten, rules
        // translated or composed): the bytes whose sha256 the install entry publishes.
        for (const f of install.files) expect(createHash('sha256').update(await zip.file(f.target)?.async('uint8array') ?? new Uint8Array()).digest('hex'), `${r.id} ${agent} ${f.target}`).toBe(f.sha256);
      }
      const source = await JSZip.loadAsync(await (await fetch(local(r.source_zip_url))).arrayBuffer());
      expect(Object.keys(source.files).sort()).toEqual([`${r.id}/loadout.yaml`, ...r.files.map((f) => `${r.id}/${f.path}`)].sort());
    }
  });

  it('serves each install entry\'s file as installed at its raw_url and raw_latest_url, the bytes its sha256 names and `loadout install` writes (issue 57, point 11)', async () => {
    const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
    let rewritten = 0;
    for (const r of records) {
      const authors = new Map(r.files.map((f) => [f.path, f]));
      for (const agent of PUBLISHED_AGENTS) {
        const project = mkdtempSync(join(tmpdir(), 'loadout-e2e-installed-'));
        try {
          await installLoadout({ from: join(out, 'dist'), id: r.id, agent, dir: project, acceptCapabilities: true });
          for (const f of r.install[agent].files) {
            const where = `${r.id} ${agent} ${f.path} at ${f.target}`;
            expect(f.raw_url, where).toBe(`${BASE}/raw/${r.id}/installed/${r.version}/${agent}/${f.target}`);
            expect(f.raw_latest_url, where).toBe(`${BASE}/raw/${r.id}/installed/latest/${agent}/${f.target}`);
            const served: Uint8Array[] = [];
            for (const address of [f.raw_url, f.raw_latest_url]) {
              const res = await fetch(local(address));
              expect(res.status, address).toBe(200);
              expect(res.headers.get('content-type'), address).toBe('text/plain; charset=utf-8');
              served.push(new Uint8Array(await res.arrayBuffer()));
            }
            const [pinned, latest] = served as [Uint8Array, Uint8Array];
            expect(digest(pinned), where).toBe(f.sha256);
            expect(digest(latest), where).toBe(f.sha256);
            if (f.sha256 !== authors.get(f.path)?.sha256) rewritten++;
            const text = Buffer.from(pinned).toString('utf8');
            const written = readFileSync(join(project, f.target), 'utf8');
            // A whole-file target holds exactly these bytes; a shared instruction file holds them in the loadout's block (an adapter's
            // `@AGENTS.md` import moved to the block's top, once for every loadout); an MCP file has them merged in.
            if (f.role === 'mcp') continue;
            const block = (t: string): string => t.replace(/^@AGENTS\.md\n/gmu, '').replace(/\n{2,}/gu, '\n').trim();
            if (f.role === 'instructions' || f.role === 'adapter') expect(block(written), where).toContain(block(text));
            else expect(written, where).toBe(text);
          }
        } finally {
          rmSync(project, { recursive: true, force: true });
        }
      }
    }
    // Links rewritten and rules translated: some entries differ from the author's file, and their addresses serve the installed bytes.
    expect(rewritten).toBeGreaterThan(0);
  }, 300_000);

  it('serves the schema, the docs and the description document', async () => {
    const schema = (await (await fetch(`${url}/api/schema.json`)).json()) as Record<string, unknown>;
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(await (await fetch(`${url}/docs/`)).text()).toContain('id="submit"');
    const description = (await (await fetch(`${url}/api/v1`)).json()) as Record<string, unknown>;
    expect(description).toMatchObject({ version: 1, docs: `${BASE}/docs/#submit`, schema: `${BASE}/api/schema.json` });
    for (const key of ['name', 'submissions_open', 'config', 'endpoints', 'fields']) expect(description).toHaveProperty(key);
  });

  it('publishes each loadout\'s capability list, derived from its files, in the record and in versions.json, valid against the published schema (issue 54)', async () => {
    // Hand-written from reading each loadout's files: servers (name, transport, registry, package, version, pinned, variables), grants, scripts, hosts, variables.
    const EXPECTED: Record<string, unknown> = {
      'chrome-extension-mv3': { runs: 'nothing', servers: [], permissions: [], scripts: [], hosts: ['registry.npmjs.org'], env: [] },
      'dbt-analytics': { runs: 'something', servers: [['postgres', 'stdio', 'pypi', 'postgres-mcp', null, false, ['POSTGRES_URL'], 'uvx']], permissions: [], scripts: [], hosts: [], env: [['POSTGRES_URL', true]] },
      'discord-bot-ts': { runs: 'something', servers: [['context7', 'stdio', 'npm', '@upstash/context7-mcp', null, false, [], 'npx']], permissions: [], scripts: [], hosts: ['registry.npmjs.org'], env: [] },
      'fastapi-service': { runs: 'nothing', servers: [], permissions: [], scripts: [], hosts: ['pypi.org'], env: [] },
      'github-actions-ci': { runs: 'nothing', servers: [], permissions: [['tools', 'workflow-auditor', 'Read,Grep,Glob,Bash', null]], scripts: [], hosts: ['api.github.com', 'pypi.org', 'registry.npmjs.org'], env: [] },
      'godot-gdscript': { runs: 'nothing', servers: [], permissions: [], scripts: [], hosts: [], env: [] },
      'mcp-server-builder': { runs: 'nothing', servers: [], permissions: [['tools', 'mcp-protocol-reviewer', 'Read,Grep,Glob,Bash', null]], scripts: [], hosts: ['registry.npmjs.org'], env: [] },
      'nextjs-app-router': { runs: 'nothing', servers: [], permissions: [], scripts: [], hosts: ['registry.npmjs.org'], env: [] },
      'secure-code-review': { runs: 'nothing', servers: [], permissions: [['tools', 'security-reviewer', 'Read,Grep,Glob,Bash', null]], scripts: [], hosts: [], env: [] },
    };
    const schema = (await (await fetch(`${url}/api/capabilities.schema.json`)).json()) as Record<string, unknown>;
    expect(schema['$id']).toBe(`${BASE}/api/capabilities.schema.json`);
    const validate = compileSchema(schema);
    const projected: Record<string, unknown> = {};
    for (const record of records) {
      const c = record.capabilities;
      expect(validate(c), `${record.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(c.hooks, record.id).toEqual([]);
      projected[record.id] = {
        runs: c.runs,
        servers: c.mcp_servers.map((m) => [m.name, m.transport, m.package?.registry, m.package?.name, m.package?.version, m.package?.pinned, m.env.map((e) => e.name), m.package?.launcher]),
        permissions: c.permissions.map((p) => [p.kind, p.subject, p.value.join(','), p.consent]),
        scripts: c.scripts.map((x) => x.path),
        hosts: c.network.map((n) => n.host),
        env: c.env.map((e) => [e.name, e.secret]),
      };
      // The latest version's entry of versions.json carries the same list, under the signature where the catalogue is signed.
      const versions = (await (await fetch(`${url}/api/loadouts/${record.id}/versions.json`)).json()) as { versions: { latest: boolean; capabilities?: unknown }[] };
      expect(versions.versions.find((v) => v.latest)?.capabilities, record.id).toEqual(c);
      for (const v of versions.versions) expect(validate(v.capabilities), record.id).toBe(true);
    }
    expect(projected).toEqual(EXPECTED);
    // dbt-analytics in words, as the page, the installer and the plugin README say it.
    const dbt = records.find((r) => r.id === 'dbt-analytics');
    expect(describeCapabilities(dbt?.capabilities as Capabilities).map((s) => s.lines.map((l) => l.text))).toEqual([
      ['"postgres": runs postgres-mcp from PyPI through uvx, version not pinned: the newest at each start; reads POSTGRES_URL (secret)'],
      ['POSTGRES_URL (secret), read by MCP server "postgres"'],
    ]);
  });
});

describe('the real catalogue\'s bundles (issue 56, point 5)', () => {
  it('serves the two bundles of bundles/, each member resolved to a loadout the catalogue serves, with their pages and plugins', async () => {
    const list = (await (await fetch(`${url}/api/bundles.json`)).json()) as BundleList;
    expect(list.bundles.map((b) => b.id)).toEqual(['data-team-stack', 'web-team-stack']);
    expect(list.bundles.find((b) => b.id === 'web-team-stack')?.loadouts.map((m) => m.id)).toEqual(['nextjs-app-router', 'secure-code-review', 'github-actions-ci']);
    const versions = new Map(records.map((r) => [r.id, r.version]));
    for (const entry of list.bundles) {
      const bundle = (await (await fetch(local(entry.api_url))).json()) as BundleRecord;
      for (const m of bundle.loadouts) {
        expect(satisfiesRange(m.resolved, m.range), `${bundle.id} ${m.id}`).toBe(true);
        expect(m.latest, `${bundle.id} ${m.id}`).toBe(versions.get(m.id));
      }
      const page = await fetch(local(bundle.url));
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain(`<h1>${bundle.title}</h1>`);
      expect(bundle.plugin?.dependencies.map((d) => d.name)).toEqual(bundle.loadouts.filter((m) => m.agents === null || m.agents.includes('claude-code')).map((m) => m.id));
      for (const m of bundle.loadouts) expect(await (await fetch(local(m.url))).text(), m.id).toContain(`bundles/${bundle.id}/`);
    }
    expect((await fetch(`${url}/bundles/`)).status).toBe(200);
  });
});
