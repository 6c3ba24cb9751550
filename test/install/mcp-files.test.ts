/**
 * Each agent's MCP file as `loadout install` writes it for loadouts/dbt-analytics (issue 33,
 * "Done when"), installed from a catalogue built from the real loadout, into a project where
 * the user already has their own Codex configuration and VS Code MCP file; and the user's files
 * back byte for byte after uninstall.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { installLoadouts } from '../../src/install/install.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const USER_CODEX = `# My own Codex settings: kept byte for byte.
model = "o4-mini"
approval_policy = "on-request"   # ask first

[mcp_servers.mine]
command = "my-server"
args = ["--verbose"]

[profiles.fast]
model = "o4-mini"
`;
const USER_VSCODE = '{\n\t"servers": { "mine": { "type": "stdio", "command": "my-server" } }\n}\n';
/** The user's own Copilot CLI file (`.github/mcp.json`), with formatting and a setting of its own: back byte for byte (issue 57 point 12). */
const USER_COPILOT_CLI = '{\n  // shared with the team\n  "mcpServers": {\n    "mine": { "type": "local", "command": "my-server", "args": [], "tools": ["*"] }\n  },\n  "other": true\n}\n';

let dist: string;
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-mcp-files-'));
  initRepo(root);
  cpSync(new URL('../../loadouts/dbt-analytics', import.meta.url), join(root, 'loadouts', 'dbt-analytics'), { recursive: true });
  commitAll(root, 'dbt-analytics');
  dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  expect(built.refused).toEqual([]);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('MCP files of dbt-analytics, per agent', () => {
  it('merges the postgres server into every agent\'s own file, in its shape and syntax, keeping the user\'s files', async () => {
    const project = makeTempDir();
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex/config.toml'), USER_CODEX);
    mkdirSync(join(project, '.vscode'));
    writeFileSync(join(project, '.vscode/mcp.json'), USER_VSCODE);
    mkdirSync(join(project, '.github'));
    writeFileSync(join(project, '.github/mcp.json'), USER_COPILOT_CLI);
    const outcomes = await installLoadouts({ from: dist, id: 'dbt-analytics', agents: [...PUBLISHED_AGENTS], dir: project });
    expect(outcomes.flatMap((o) => o.conflicts)).toEqual([]);
    const read = (path: string): string => readFileSync(join(project, path), 'utf8');
    const args = ['postgres-mcp', '--access-mode=restricted'];

    expect(JSON.parse(read('.mcp.json'))).toEqual({ mcpServers: { postgres: { command: 'uvx', args, env: { DATABASE_URI: '${POSTGRES_URL}' } } } });
    expect(JSON.parse(read('.cursor/mcp.json'))).toEqual({ mcpServers: { postgres: { command: 'uvx', args, env: { DATABASE_URI: '${env:POSTGRES_URL}' } } } });
    expect(JSON.parse(read('.gemini/settings.json'))).toEqual({ mcpServers: { postgres: { command: 'uvx', args, env: { DATABASE_URI: '${POSTGRES_URL}' } } } });
    expect(JSON.parse(read('.agents/mcp_config.json'))).toEqual({ mcpServers: { postgres: { command: 'uvx', args } } });
    expect(JSON.parse(read('.vscode/mcp.json'))).toEqual({
      inputs: [{ type: 'promptString', id: 'POSTGRES_URL', description: 'POSTGRES_URL, read by MCP servers of this project', password: true }],
      servers: { mine: { type: 'stdio', command: 'my-server' }, postgres: { type: 'stdio', command: 'uvx', args, env: { DATABASE_URI: '${input:POSTGRES_URL}' } } },
    });
    // Copilot CLI reads .github/mcp.json, not .vscode/mcp.json (github/copilot-cli#3019): the server in its shape, with type and tools, ${VAR} from the environment.
    const cli = readFileSync(join(project, '.github/mcp.json'), 'utf8');
    expect(cli.startsWith('{\n  // shared with the team\n  "mcpServers": {\n    "mine": { "type": "local", "command": "my-server", "args": [], "tools": ["*"] }')).toBe(true);
    expect(parseJsonc(cli)).toEqual({ mcpServers: { mine: { type: 'local', command: 'my-server', args: [], tools: ['*'] }, postgres: { type: 'stdio', command: 'uvx', args, env: { DATABASE_URI: '${POSTGRES_URL}' }, tools: ['*'] } }, other: true });
    // Codex: the user's bytes first, untouched, then one table; no literal ${…}.
    const codex = read('.codex/config.toml');
    expect(codex).toBe(`${USER_CODEX}\n[mcp_servers.postgres]\ncommand = "uvx"\nargs = ["postgres-mcp", "--access-mode=restricted"]\nenv_vars = ["DATABASE_URI"]\n`);
    expect((parseToml(codex) as { mcp_servers: Record<string, unknown> }).mcp_servers['postgres']).toEqual({ command: 'uvx', args, env_vars: ['DATABASE_URI'] });

    // Manual steps: only variables to set, none that edits a file the installer can write.
    const steps = outcomes.flatMap((o) => o.manual_steps.filter((s) => s.source === 'mcp/servers.json').map((s) => `${o.agent}: ${s.kind}: ${s.text}`));
    expect(steps.every((s) => s.includes(': set-env: '))).toBe(true);
    expect(new Set(outcomes.flatMap((o) => o.manual_steps.filter((s) => s.source === 'mcp/servers.json').map((s) => s.text))).size).toBe(3);

    const status = await readStatus(projectScope(project));
    expect(status.files.filter((f) => f.kind === 'servers' && f.state !== 'ok')).toEqual([]);

    await uninstallLoadout({ scope: projectScope(project), id: 'dbt-analytics' });
    expect(read('.codex/config.toml')).toBe(USER_CODEX);
    expect(read('.vscode/mcp.json')).toBe(USER_VSCODE);
    expect(read('.github/mcp.json')).toBe(USER_COPILOT_CLI);
    for (const path of ['.mcp.json', '.cursor/mcp.json', '.gemini/settings.json', '.agents/mcp_config.json']) expect(existsSync(join(project, path)), path).toBe(false);
  }, 60_000);

  it('writes Copilot CLI\'s .github/mcp.json for copilot alone, and takes it away on uninstall (issue 57 point 12)', async () => {
    const project = makeTempDir();
    const [outcome] = await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['copilot'], dir: project });
    expect(outcome?.conflicts).toEqual([]);
    expect(JSON.parse(readFileSync(join(project, '.github/mcp.json'), 'utf8'))).toEqual({ mcpServers: { postgres: { type: 'stdio', command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${POSTGRES_URL}' }, tools: ['*'] } } });
    expect(existsSync(join(project, '.vscode/mcp.json'))).toBe(true);
    const status = await readStatus(projectScope(project));
    expect(status.files.filter((f) => f.target === '.github/mcp.json').map((f) => [f.kind, f.state])).toEqual([['servers', 'ok']]);
    await uninstallLoadout({ scope: projectScope(project), id: 'dbt-analytics' });
    for (const path of ['.github/mcp.json', '.vscode/mcp.json', '.github']) expect(existsSync(join(project, path)), path).toBe(false);
  }, 60_000);

  it('gives the user\'s .codex/config.toml back byte for byte after each agent\'s install and uninstall, with the user\'s edits elsewhere in it kept', async () => {
    const project = makeTempDir();
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex/config.toml'), USER_CODEX);
    await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['codex'], dir: project });
    // The user edits their own part of the file while the loadout is installed.
    const path = join(project, '.codex/config.toml');
    const edited = readFileSync(path, 'utf8').replace('model = "o4-mini"\napproval', 'model = "o3"\napproval');
    writeFileSync(path, edited);
    await uninstallLoadout({ scope: projectScope(project), id: 'dbt-analytics' });
    expect(readFileSync(path, 'utf8')).toBe(USER_CODEX.replace('model = "o4-mini"\napproval', 'model = "o3"\napproval'));
  }, 60_000);

  it('prints each manual step once for the project, and lists them per install in --json', async () => {
    const project = makeTempDir();
    const agents = PUBLISHED_AGENTS.join(',');
    const text = await runCli(['install', 'dbt-analytics', '--agent', agents, '--from', dist, '--dir', project, '--dry-run'], project);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n').filter((l) => l.includes('Set POSTGRES_URL in your environment'))).toEqual(['- .mcp.json, .cursor/mcp.json, .gemini/settings.json, .github/mcp.json: Set POSTGRES_URL in your environment: the MCP server "postgres" reads it. (claude-code, cursor, gemini-cli, copilot)']);
    expect(text.stdout).toContain('- .codex/config.toml: Set DATABASE_URI in your environment to the value of POSTGRES_URL');
    const json = await runCli(['install', 'dbt-analytics', '--agent', agents, '--from', dist, '--dir', project, '--dry-run', '--json'], project);
    const outcomes = JSON.parse(json.stdout) as { agent: string; manual_steps: { kind: string; path: string }[] }[];
    expect(outcomes.find((o) => o.agent === 'codex')?.manual_steps).toContainEqual(expect.objectContaining({ kind: 'set-env', path: '.codex/config.toml' }));
  }, 60_000);
});
