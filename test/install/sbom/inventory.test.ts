/**
 * What `loadout sbom` reads (src/install/sbom/inventory.ts): a project with dbt-analytics, for
 * three agents, discord-bot-ts and pinned-kit installed from a catalogue served on 127.0.0.1
 * (sbom-fixture.ts). Each loadout once with its agents, version, record address and licence from
 * the catalogue; each file with the lock's sha256 and the SHA-1 of the same bytes; each package
 * its MCP servers start with its pin and purl; the licence NOASSERTION with a reason when the
 * catalogue is gone or its record is not acceptable; a file changed since install without SHA-1.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadouts } from '../../../src/install/install.js';
import { readLock } from '../../../src/install/project/lock.js';
import { projectScope } from '../../../src/install/project/scope.js';
import { exactVersionOf, purlWithoutVersion, readInventory } from '../../../src/install/sbom/inventory.js';
import { findBlock, parseBlocks } from '../../../src/install/compose/markdown-blocks.js';
import { createApp } from '../../../src/server/app.js';
import { listen } from '../../../src/server/listen.js';
import { makeTempDir } from '../../helpers/temp.js';
import { buildSbomCatalogue, IMAGE_DIGEST, type SbomCatalogue } from './sbom-fixture.js';

let folder: string;
let catalogue: SbomCatalogue;
let url: string;
let close: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-sbom-'));
  catalogue = await buildSbomCatalogue(folder);
  const server = await listen(createApp({ distDir: catalogue.dist, baseUrl: 'http://catalogue.test', submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  url = server.url;
  close = () => server.close();
}, 180_000);
afterAll(async () => {
  await close();
  rmSync(folder, { recursive: true, force: true });
});

/** A fresh project with dbt-analytics for Claude Code, Codex and Cursor, discord-bot-ts and pinned-kit for Claude Code, installed from `from`. */
async function installedProject(from: string): Promise<string> {
  const dir = makeTempDir('loadout-sbom-project-');
  await installLoadouts({ from, id: 'dbt-analytics', agents: ['claude-code', 'codex', 'cursor'], dir });
  await installLoadouts({ from, id: 'discord-bot-ts', agents: ['claude-code'], dir });
  await installLoadouts({ from, id: 'pinned-kit', agents: ['claude-code'], dir });
  return dir;
}

const hex = (algorithm: string, bytes: Uint8Array | string): string => createHash(algorithm).update(bytes).digest('hex');

describe('the inventory of a project', () => {
  it('lists each loadout once with its agents, version, record and licence, and each file with the hashes of what the lock records', async () => {
    const dir = await installedProject(url);
    const inventory = await readInventory({ scope: projectScope(dir) });
    expect(inventory.notices).toEqual([]);
    expect(inventory.loadouts.map((l) => [l.id, l.version, l.licence, l.agents, l.source, l.record])).toEqual([
      ['dbt-analytics', '1.0.0', 'MIT', ['claude-code', 'codex', 'cursor'], url, `${url}/api/loadouts/dbt-analytics.json`],
      ['discord-bot-ts', '1.0.0', 'MIT', ['claude-code'], url, `${url}/api/loadouts/discord-bot-ts.json`],
      ['pinned-kit', '2.0.1', 'Apache-2.0', ['claude-code'], url, `${url}/api/loadouts/pinned-kit.json`],
    ]);
    const lock = await readLock(dir);
    for (const loadout of inventory.loadouts) {
      const locked = lock.installs.filter((e) => e.id === loadout.id).flatMap((e) => e.files.map((f) => `${f.target} ${f.sha256} ${e.agent}`));
      expect(loadout.files.flatMap((f) => f.agents.map((a) => `${f.target} ${f.sha256} ${a}`)).sort()).toEqual(locked.sort());
      for (const file of loadout.files) {
        const bytes = readFileSync(join(dir, file.target));
        if (file.kind === 'file') expect([file.sha1, hex('sha256', bytes)]).toEqual([hex('sha1', bytes), file.sha256]);
        if (file.kind === 'block') {
          const body = findBlock(parseBlocks(bytes.toString('utf8'), file.target !== 'AGENTS.md'), loadout.id)?.body ?? '';
          expect([file.sha1, hex('sha256', body)]).toEqual([hex('sha1', body), file.sha256]);
        }
        if (file.kind === 'servers') expect([file.sha1, file.unhashed]).toEqual([undefined, 'not-in-project']);
      }
    }
    // AGENTS.md is one block held for the three agents alike (Claude Code's CLAUDE.md imports it), listed once.
    const dbt = inventory.loadouts[0];
    expect(dbt?.files.filter((f) => f.target === 'AGENTS.md').map((f) => [f.kind, f.agents])).toEqual([['block', ['claude-code', 'codex', 'cursor']]]);
    expect(inventory.loadouts.find((l) => l.id === 'pinned-kit')?.remote).toEqual(['https://mcp.example.com/mcp']);
  }, 60_000);

  it('lists each package an MCP server starts, pinned or not, with its purl', async () => {
    const dir = await installedProject(url);
    const { packages, loadouts } = await readInventory({ scope: projectScope(dir) });
    expect(packages.map((p) => [p.key, p.pinned, p.version, p.written, p.launcher, p.purl ?? null])).toEqual([
      ['local:my-mcp-server@', false, null, null, null, null],
      ['npm:@acme/docs-mcp@1.4.2', true, '1.4.2', '1.4.2', 'npx', 'pkg:npm/%40acme/docs-mcp@1.4.2'],
      ['npm:@upstash/context7-mcp@', false, null, null, 'npx', 'pkg:npm/%40upstash/context7-mcp'],
      ['npm:search-mcp@^2.1', false, null, '^2.1', 'npx', 'pkg:npm/search-mcp'],
      [`oci:ghcr.io/acme/browser@${IMAGE_DIGEST}`, true, IMAGE_DIGEST, IMAGE_DIGEST, 'docker run', `pkg:oci/browser@sha256%3A${'ab12'.repeat(16)}?repository_url=ghcr.io%2Facme%2Fbrowser`],
      ['pypi:mcp-server-fetch@==2025.4.7', true, '2025.4.7', '==2025.4.7', 'uvx', 'pkg:pypi/mcp-server-fetch@2025.4.7'],
      ['pypi:postgres-mcp@', false, null, null, 'uvx', 'pkg:pypi/postgres-mcp'],
    ]);
    // Started by dbt-analytics's server for each of its three agents: one package.
    expect(packages.find((p) => p.name === 'postgres-mcp')?.used_by.map((u) => `${u.id} ${u.server} ${u.agent}`)).toEqual(['dbt-analytics postgres claude-code', 'dbt-analytics postgres codex', 'dbt-analytics postgres cursor']);
    expect(loadouts.map((l) => [l.id, l.packages])).toEqual([
      ['dbt-analytics', ['pypi:postgres-mcp@']],
      ['discord-bot-ts', ['npm:@upstash/context7-mcp@']],
      ['pinned-kit', ['local:my-mcp-server@', 'npm:@acme/docs-mcp@1.4.2', 'npm:search-mcp@^2.1', `oci:ghcr.io/acme/browser@${IMAGE_DIGEST}`, 'pypi:mcp-server-fetch@==2025.4.7']],
    ]);
  }, 60_000);

  it('reads what the project runs now: a server the user pinned by hand is pinned, one removed is not listed and is named', async () => {
    const dir = await installedProject(url);
    const mcp = JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
    mcp.mcpServers['postgres'] = { ...mcp.mcpServers['postgres'], args: ['postgres-mcp==0.3.0', '--access-mode=restricted'] } as { args: string[] };
    delete mcp.mcpServers['context7'];
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify(mcp, null, 2));
    const { packages, notices } = await readInventory({ scope: projectScope(dir) });
    expect(packages.filter((p) => p.name === 'postgres-mcp').map((p) => [p.key, p.used_by.map((u) => u.agent)])).toEqual([
      ['pypi:postgres-mcp@', ['codex', 'cursor']],
      ['pypi:postgres-mcp@==0.3.0', ['claude-code']],
    ]);
    expect(packages.some((p) => p.name === '@upstash/context7-mcp')).toBe(false);
    expect(notices).toEqual(['the MCP server .mcp.json: context7 that discord-bot-ts installed for claude-code is no longer in the configuration: not listed']);
  }, 60_000);

  it('gives no SHA-1 for a file changed or removed since install, and says so', async () => {
    const dir = await installedProject(url);
    writeFileSync(join(dir, '.claude/rules/sql-style.md'), 'edited\n');
    rmSync(join(dir, 'CLAUDE.md'));
    const { loadouts, notices } = await readInventory({ scope: projectScope(dir), offline: true });
    const file = (target: string) => loadouts.flatMap((l) => l.files.filter((f) => f.target === target).map((f) => [l.id, f.sha1 ?? null, f.unhashed ?? null]));
    expect(file('.claude/rules/sql-style.md')).toEqual([['dbt-analytics', null, 'changed']]);
    expect(file('CLAUDE.md').map(([id, , why]) => `${String(id)} ${String(why)}`)).toEqual(['dbt-analytics missing', 'discord-bot-ts missing', 'pinned-kit missing']);
    expect(notices.filter((n) => !n.startsWith('the licence'))).toEqual([
      'CLAUDE.md of dbt-analytics for claude-code is missing since it was installed: listed by the hash the lock records, without its SHA-1 (`loadout status` shows the drift)',
      '.claude/rules/sql-style.md of dbt-analytics for claude-code is changed since it was installed: listed by the hash the lock records, without its SHA-1 (`loadout status` shows the drift)',
      'CLAUDE.md of discord-bot-ts for claude-code is missing since it was installed: listed by the hash the lock records, without its SHA-1 (`loadout status` shows the drift)',
      'CLAUDE.md of pinned-kit for claude-code is missing since it was installed: listed by the hash the lock records, without its SHA-1 (`loadout status` shows the drift)',
    ]);
  }, 60_000);
});

describe('licences', () => {
  it('are NOASSERTION with the reason when the catalogue is not read, or gone; everything else is read from the project', async () => {
    const served = await installedProject(url);
    const offline = await readInventory({ scope: projectScope(served), offline: true });
    expect(offline.loadouts.map((l) => l.licence)).toEqual([null, null, null]);
    expect(offline.notices).toEqual(['dbt-analytics 1.0.0', 'discord-bot-ts 1.0.0', 'pinned-kit 2.0.1'].map((l) => `the licence of ${l} is NOASSERTION: no catalogue was read (--offline)`));
    // A catalogue folder that is gone: the same inventory, each licence unknown with the reason.
    const copy = join(makeTempDir('loadout-sbom-copy-'), 'dist');
    cpSync(catalogue.dist, copy, { recursive: true });
    const dir = await installedProject(copy);
    rmSync(copy, { recursive: true, force: true });
    const gone = await readInventory({ scope: projectScope(dir) });
    expect(gone.loadouts.map((l) => [l.id, l.licence, l.record])).toEqual(['dbt-analytics', 'discord-bot-ts', 'pinned-kit'].map((id) => [id, null, `file://${copy}/api/loadouts/${id}.json`]));
    expect(gone.notices.map((n) => n.replace(/\(.*\)$/u, '(…)'))).toEqual(['dbt-analytics 1.0.0', 'discord-bot-ts 1.0.0', 'pinned-kit 2.0.1'].map((l) => `the licence of ${l} is NOASSERTION: its catalogue at ${copy} could not be read (…)`));
    expect(gone.packages.map((p) => p.key)).toEqual(offline.packages.map((p) => p.key));
    // --from reads them from another copy of the catalogue.
    const found = await readInventory({ scope: projectScope(dir), from: catalogue.dist });
    expect(found.loadouts.map((l) => l.licence)).toEqual(['MIT', 'MIT', 'Apache-2.0']);
  }, 90_000);

  it('are NOASSERTION when the record is not JSON, names another loadout, or states a licence outside the catalogue\'s list', async () => {
    const copy = join(makeTempDir('loadout-sbom-copy-'), 'dist');
    cpSync(catalogue.dist, copy, { recursive: true, dereference: true });
    const dir = await installedProject(copy);
    const record = (id: string): string => join(copy, 'api/loadouts', `${id}.json`);
    const edit = (id: string, change: (r: Record<string, unknown>) => void): void => {
      const r = JSON.parse(readFileSync(record(id), 'utf8')) as Record<string, unknown>;
      change(r);
      rmSync(record(id));
      writeFileSync(record(id), JSON.stringify(r));
    };
    rmSync(record('dbt-analytics'));
    writeFileSync(record('dbt-analytics'), '{ not json');
    edit('discord-bot-ts', (r) => (r['id'] = 'pinned-kit'));
    edit('pinned-kit', (r) => (r['license'] = 'GPL-3.0-only\u001b[31m'));
    const { loadouts, notices } = await readInventory({ scope: projectScope(dir) });
    expect(loadouts.map((l) => l.licence)).toEqual([null, null, null]);
    expect(notices).toEqual([
      `the licence of dbt-analytics 1.0.0 is NOASSERTION: its record in the catalogue at ${copy} is not JSON`,
      `the licence of discord-bot-ts 1.0.0 is NOASSERTION: the record at ${copy} has id "pinned-kit" (expected "discord-bot-ts")`,
      'the licence of pinned-kit 2.0.1 is NOASSERTION: its record\'s license is "GPL-3.0-only\\u001b[31m" (expected one of MIT, Apache-2.0, BSD-2-Clause, BSD-3-Clause, ISC, MPL-2.0, CC-BY-4.0, CC0-1.0, Unlicense)',
    ]);
  }, 60_000);
});

describe('purls and versions', () => {
  it('takes the version out of a purl, whatever its namespace, qualifiers and subpath', () => {
    expect(purlWithoutVersion('pkg:npm/search-mcp@%5E2.1')).toBe('pkg:npm/search-mcp');
    expect(purlWithoutVersion('pkg:npm/%40scope/name@1')).toBe('pkg:npm/%40scope/name');
    expect(purlWithoutVersion('pkg:npm/%40scope/name')).toBe('pkg:npm/%40scope/name');
    expect(purlWithoutVersion('pkg:oci/img@sha256%3Aab?repository_url=ghcr.io%2Fa%40b&tag=x@y')).toBe('pkg:oci/img?repository_url=ghcr.io%2Fa%40b&tag=x@y');
    expect(purlWithoutVersion('pkg:oci/img?tag=1@2#sub@x')).toBe('pkg:oci/img?tag=1@2#sub@x');
    expect(purlWithoutVersion('pkg:pypi/a@1.0#sub/dir')).toBe('pkg:pypi/a#sub/dir');
  });

  it('gives the exact version a pinned package names, and none for one that is not pinned', () => {
    const pkg = (registry: 'npm' | 'pypi' | 'oci', version: string, pinned: boolean) => ({ registry, name: 'x', version, pinned, launcher: null });
    expect(exactVersionOf(pkg('npm', '=1.2.3', true))).toBe('1.2.3');
    expect(exactVersionOf(pkg('npm', 'v1.2.3', true))).toBe('1.2.3');
    expect(exactVersionOf(pkg('pypi', '== 1.2', true))).toBe('1.2');
    expect(exactVersionOf(pkg('pypi', '@1.2', true))).toBe('1.2');
    expect(exactVersionOf(pkg('oci', 'sha256:00', true))).toBe('sha256:00');
    expect(exactVersionOf(pkg('npm', '^1.2.3', false))).toBeNull();
  });
});
