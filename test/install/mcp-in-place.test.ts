/**
 * The agents' MCP files edited in place (issue 53, points 13 and 14; issue 57, point 1): a
 * project whose user files are committed gets `dbt-analytics` installed and uninstalled through
 * the public functions, and comes back byte for byte with nothing untracked (no `.loadout/`, no
 * lock), whatever the file held: no servers key, numbers spelt `1.10` or beyond JavaScript's
 * precision, comments and trailing commas, a byte order mark, CRLF and tabs, a Codex file whose
 * multi-line string holds a `[mcp_servers.postgres]` line. A value Codex cannot hold stops the
 * install for Codex with an error that names it; an old lock (a backup and `originals`, no
 * `containers`) still gives the file back; a lock whose `containers` would write a server is
 * refused.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/catalogue/vocabulary.js';
import { installLoadouts } from '../../src/install/install.js';
import { projectScope } from '../../src/install/project/scope.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, git, initRepo, makeTempDir } from '../helpers/temp.js';

let root: string;
let dist: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-mcp-in-place-'));
  initRepo(root);
  cpSync(new URL('../../loadouts/dbt-analytics', import.meta.url), join(root, 'loadouts', 'dbt-analytics'), { recursive: true });
  commitAll(root, 'dbt-analytics');
  dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  expect(built.refused).toEqual([]);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A committed project holding `files`. */
function project(files: Record<string, string>): string {
  const dir = makeTempDir();
  initRepo(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  commitAll(dir, 'the user\'s files');
  return dir;
}

const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

/** Installs dbt-analytics for `agent` and uninstalls it, checking that no backup was made and that the project is as committed. */
async function installAndUninstall(dir: string, agent: Agent, file: string): Promise<string> {
  const outcomes = await installLoadouts({ from: dist, id: 'dbt-analytics', agents: [agent], dir });
  expect(outcomes.flatMap((o) => o.conflicts), file).toEqual([]);
  expect(outcomes[0]?.backup, `${file}: merging in place overwrites nothing of the user's`).toBeUndefined();
  expect(existsSync(join(dir, '.loadout')), file).toBe(false);
  const installed = read(dir, file);
  const outcome = await uninstallLoadout({ scope: projectScope(dir), id: 'dbt-analytics' });
  expect(outcome.backup, file).toBeUndefined();
  expect(existsSync(join(dir, '.loadout')), file).toBe(false);
  expect(existsSync(join(dir, 'loadout.lock.json')), file).toBe(false);
  expect(git(dir, ['status', '--porcelain', '--untracked-files=all']), `${file}: the project is as committed`).toBe('');
  return installed;
}

describe('JSON agent files edited in place, given back byte for byte', () => {
  it('gives back a .gemini/settings.json and a .mcp.json that had no servers key, with no backup and nothing left untracked (issue 57, point 1)', async () => {
    for (const [agent, file, text] of [
      ['gemini-cli', '.gemini/settings.json', '{"ui": { "theme": "GitHub" }}'],
      ['claude-code', '.mcp.json', '{"other": 1}'],
    ] as const) {
      const dir = project({ [file]: text });
      const installed = await installAndUninstall(dir, agent, file);
      expect(JSON.parse(installed), file).toMatchObject({ mcpServers: { postgres: { command: 'uvx' } } });
    }
  }, 60_000);

  it('keeps numbers as the user wrote them, while installed and after (issue 53, point 14)', async () => {
    const user = '{\n  "ui": { "theme": "GitHub" },\n  "sessionLimit": 12345678901234567890,\n  "ratio": 1.10\n}\n';
    const dir = project({ '.gemini/settings.json': user });
    const installed = await installAndUninstall(dir, 'gemini-cli', '.gemini/settings.json');
    // The server is added after the last setting: every byte before it is the user's.
    expect(installed.startsWith('{\n  "ui": { "theme": "GitHub" },\n  "sessionLimit": 12345678901234567890,\n  "ratio": 1.10,\n  "mcpServers": {\n    "postgres": {\n')).toBe(true);
    expect(read(dir, '.gemini/settings.json')).toBe(user);
  }, 60_000);

  it('merges into JSONC (comments, trailing commas) and files with a byte order mark, CRLF, tabs, or nothing in them', async () => {
    const cases: [Agent, string, string][] = [
      ['copilot', '.vscode/mcp.json', '{\n  // my servers\n  "servers": {\n    "mine": { "type": "stdio", "command": "mine" }, // keep\n  },\n}\n'],
      ['copilot', '.vscode/mcp.json', '{\n\t"servers": {}\n}\n'],
      ['claude-code', '.mcp.json', '\uFEFF{\r\n\t"mcpServers": {\r\n\t\t"mine": {\r\n\t\t\t"command": "mine"\r\n\t\t}\r\n\t}\r\n}\r\n'],
      ['claude-code', '.mcp.json', '{}'],
      ['claude-code', '.mcp.json', ''],
      ['cursor', '.cursor/mcp.json', '{ "mcpServers": { } }\n'],
      ['antigravity-cli', '.agents/mcp_config.json', '{"theme":"dark"}\n'],
    ];
    for (const [agent, file, text] of cases) {
      const dir = project({ [file]: text });
      const installed = await installAndUninstall(dir, agent, file);
      expect(installed.length, `${file} ${JSON.stringify(text)}`).toBeGreaterThan(text.length);
      expect(read(dir, file), `${file} ${JSON.stringify(text)}`).toBe(text);
    }
  }, 120_000);
});

describe('a JSON file that cannot be merged into', () => {
  it('stops the install, naming the line; --force replaces it after a backup, and uninstall puts it back byte for byte', async () => {
    const user = '{\n  "mcpServers": {\n    "mine": { "command": "mine" }\n    "oops": {}\n  }\n}\n';
    const dir = project({ '.mcp.json': user });
    const stopped = await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['claude-code'], dir });
    expect(stopped[0]?.conflicts).toEqual([{ target: '.mcp.json', path: 'mcp/servers.json', servers: ['(the file is not JSON at line 4 (CommaExpected))'] }]);
    const forced = await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['claude-code'], dir, force: true });
    expect(forced[0]?.backup).toMatch(/^\.loadout\/backup\//u);
    expect(JSON.parse(read(dir, '.mcp.json'))).toMatchObject({ mcpServers: { postgres: { command: 'uvx' } } });
    const outcome = await uninstallLoadout({ scope: projectScope(dir), id: 'dbt-analytics' });
    expect(outcome.restored).toEqual([{ target: '.mcp.json', from: `${forced[0]?.backup ?? ''}/.mcp.json` }]);
    expect(read(dir, '.mcp.json')).toBe(user);
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  }, 60_000);
});

describe('Codex config.toml with text that reads like a table', () => {
  const table = '\n[mcp_servers.postgres]\ncommand = "uvx"\nargs = ["postgres-mcp", "--access-mode=restricted"]\nenv_vars = ["DATABASE_URI"]\n';

  it('takes out its own table, not a line of a multi-line string that reads like its header (issue 53, point 13)', async () => {
    const user = '# Mine\nnotes = """\nTo try later:\n[mcp_servers.postgres]\ncommand = "psql"\n"""\nliteral = \'\'\'\n[mcp_servers.postgres]\n\'\'\'\nlist = [\n  "[mcp_servers.postgres]",\n]\n\n[mcp_servers.mine]\ncommand = "mine"\n';
    const dir = project({ '.codex/config.toml': user });
    expect(await installAndUninstall(dir, 'codex', '.codex/config.toml')).toBe(`${user}${table}`);
    expect(read(dir, '.codex/config.toml')).toBe(user);
  }, 60_000);

  it('merges into a file holding an integer beyond JavaScript\'s precision, which TOML allows', async () => {
    const user = 'model = "o3"\nseed = 9007199254740993\n';
    const dir = project({ '.codex/config.toml': user });
    expect(await installAndUninstall(dir, 'codex', '.codex/config.toml')).toBe(`${user}${table}`);
    expect(read(dir, '.codex/config.toml')).toBe(user);
  }, 60_000);
});

describe('a value Codex cannot hold', () => {
  it('stops the install for Codex with an error naming the server, the key and the value, and installs for the other agents', async () => {
    const catalogue = makeTempDir();
    initRepo(catalogue);
    const servers = (timeout: string): string => `{\n  "mcpServers": {\n    "slow": { "command": "slow-mcp", "startup_timeout_sec": ${timeout} }\n  }\n}\n`;
    writeLoadout(catalogue, { id: 'slow', title: 'Slow', files: [...baseFiles('Slow'), { path: 'mcp/servers.json', role: 'mcp', content: servers('30') }], manifest: { requires: { tools: [], env: [], mcp: ['slow'] }, security: { scanned: true, network: true, scripts: [] } } });
    commitAll(catalogue, 'slow');
    const out = join(catalogue, 'dist');
    expect((await buildCatalogue({ root: catalogue, out, baseUrl: 'http://catalogue.test' })).refused).toEqual([]);
    // A catalogue that did not run the mcp check (an older one, or one that lies) serves the value.
    const bad = servers('99999999999999999999');
    writeFileSync(join(out, 'raw/slow/1.0.0/mcp/servers.json'), bad);
    const versionsPath = join(out, 'api/loadouts/slow/versions.json');
    const versions = JSON.parse(read(out, 'api/loadouts/slow/versions.json')) as { versions: { files: { path: string; sha256: string; bytes: number }[] }[] };
    const entry = versions.versions[0]?.files.find((f) => f.path === 'mcp/servers.json');
    if (entry === undefined) throw new Error('no mcp/servers.json in the fixture');
    entry.sha256 = createHash('sha256').update(bad).digest('hex');
    entry.bytes = Buffer.byteLength(bad);
    writeFileSync(versionsPath, JSON.stringify(versions));

    const dir = project({ '.codex/config.toml': 'model = "o3"\n' });
    const error = await installLoadouts({ from: out, id: 'slow', agents: ['codex'], dir }).then(() => undefined, (e: unknown) => e as Error & { hint?: string });
    expect(error?.message).toBe('slow 1.0.0 mcp/servers.json cannot be written into .codex/config.toml: as Codex\'s TOML, it has startup_timeout_sec = 100000000000000000000 in [mcp_servers.slow]: TOML integers are 64-bit, from -9223372036854775808 to 9223372036854775807 (toml.io/en/v1.0.0#integer); nothing was written');
    expect(error?.hint).not.toContain('install_to');
    expect(read(dir, '.codex/config.toml')).toBe('model = "o3"\n');
    expect(existsSync(join(dir, 'loadout.lock.json'))).toBe(false);
    const gemini = await installLoadouts({ from: out, id: 'slow', agents: ['gemini-cli'], dir });
    expect(gemini[0]?.installed).toBe(true);
  }, 60_000);
});

describe('locks', () => {
  it('gives the file back from an old lock\'s backup, whose file the old installer rewrote whole and left with an empty "mcpServers"', async () => {
    const user = '{"ui": { "theme": "GitHub" }}';
    const file = '.gemini/settings.json';
    const dir = project({ [file]: user });
    await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['gemini-cli'], dir });
    // What the installer before issue 57 left: the file re-serialised, a backup copy in `originals`, no `containers`.
    writeFileSync(join(dir, file), `${JSON.stringify(JSON.parse(read(dir, file)), null, 2)}\n`);
    const backup = `.loadout/backup/2026-11-01T10-00-00.000Z/${file}`;
    mkdirSync(dirname(join(dir, backup)), { recursive: true });
    writeFileSync(join(dir, backup), user);
    const lock = JSON.parse(read(dir, 'loadout.lock.json')) as Record<string, unknown>;
    expect(lock['containers']).toEqual({ [file]: { '/mcpServers': null } });
    delete lock['containers'];
    writeFileSync(join(dir, 'loadout.lock.json'), `${JSON.stringify({ ...lock, originals: { [file]: backup } }, null, 2)}\n`);

    const outcome = await uninstallLoadout({ scope: projectScope(dir), id: 'dbt-analytics' });
    expect(outcome.restored).toEqual([{ target: file, from: backup }]);
    expect(read(dir, file)).toBe(user);
    expect(existsSync(join(dir, '.loadout'))).toBe(false);
  }, 60_000);

  it('refuses a lock whose "containers" would write anything but an empty container into the user\'s file', async () => {
    const file = '.mcp.json';
    const dir = project({ [file]: '{"other": 1}' });
    await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['claude-code'], dir });
    const installed = read(dir, file);
    const lock = JSON.parse(read(dir, 'loadout.lock.json')) as Record<string, unknown>;
    writeFileSync(join(dir, 'loadout.lock.json'), JSON.stringify({ ...lock, containers: { [file]: { '/mcpServers': '{"evil": {"command": "sh"}}' } } }));
    const error = await uninstallLoadout({ scope: projectScope(dir), id: 'dbt-analytics' }).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toBe('the lock\'s containers[".mcp.json"] has "/mcpServers": a text that is not an empty object or array; nothing was written');
    expect(read(dir, file)).toBe(installed);
  }, 60_000);
});
