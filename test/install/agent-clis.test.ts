/**
 * Which agents really read what `loadout install` writes (DESIGN.md section 8), asked of the
 * agents' own CLIs from npm, where they can list what they load from a project without a model
 * or a login:
 * - Claude Code 2.1.330: `claude mcp list` / `claude mcp get` (servers of `.mcp.json`);
 * - Codex 0.169.0: `codex mcp list --json` (the `[mcp_servers]` of a trusted project's
 *   `.codex/config.toml`, merged by the install beside the user's own) and `codex debug
 *   prompt-input` (what the model would be given: `AGENTS.md` and the skills of
 *   `.agents/skills/`);
 * - Gemini CLI 0.61.0: `gemini skills list` and `gemini mcp list` (a trusted folder's
 *   `.agents/skills/` and `.gemini/settings.json`);
 * - Copilot CLI 1.0.102: `copilot skill list --json` and `copilot instruction list`
 *   (`.agents/skills/`, `AGENTS.md`, `.github/instructions/`), and `copilot mcp list --json`
 *   (which reads `.mcp.json` and `.github/mcp.json`, not VS Code's `.vscode/mcp.json`:
 *   github/copilot-cli#3019; the install writes Copilot's servers to both `.vscode/mcp.json`
 *   for VS Code and `.github/mcp.json` for the CLI).
 *
 * Each MCP server of the fixture reads the variable `LOADOUT_CHECK`, so the listings show each
 * agent's own variable syntax (layout/mcp-variables.ts).
 *
 * Opt-in (`LOADOUT_AGENT_CLIS=1`; not in `.ci/run`): it installs four CLIs (about 300 MB) and
 * Node 22 from npm into a temporary folder. Each CLI runs with a temporary HOME, telemetry
 * and update checks off where the CLI has a switch, and the project marked trusted the way
 * each CLI records trust. docs/installing.md's "Checked with the agents' CLIs" table records what
 * this showed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { installNpmTools, runTool, type NpmTools } from '../helpers/npm-tools.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { describeWith, NEEDS_AGENT_CLIS } from '../run/requirements.js';

const ENABLED = process.env['LOADOUT_AGENT_CLIS'] === '1';

/** The CLIs, pinned; Claude Code and Copilot need Node 22. */
const SPECS = ['node@22.22.0', '@anthropic-ai/claude-code@2.1.330', '@openai/codex@0.169.0', '@google/gemini-cli@0.61.0', '@github/copilot@1.0.102'];

const SKILL_DESCRIPTION = 'Check that the agent found this skill. Use when the test asks for check-skill.';
const AGENTS_MD = '# Agent check\n\nAGENTS-MARKER-7f3a: run the tests before you commit.\n';
/** A server that starts and exits: listing it must never reach the network. */
const MCP_SERVER = { command: 'node', args: ['-e', 'process.exit(0)'] };
/** The fixture's server as the loadout writes it: with a variable from the environment. */
const LOADOUT_SERVER = { ...MCP_SERVER, env: { LOADOUT_CHECK: '${LOADOUT_CHECK}' } };
/** A project's own Codex configuration, which the install must keep byte for byte. */
const USER_CODEX = '# my settings\nmodel = "o4-mini"\n\n[mcp_servers.mine]\ncommand = "node"\nargs = ["-e", "process.exit(0)"]\n';

let tools: NpmTools;
let scratch: string;
let dist: string;

beforeAll(async () => {
  if (!ENABLED) return;
  scratch = mkdtempSync(join(tmpdir(), 'loadout-agent-clis-'));
  const root = join(scratch, 'catalogue');
  mkdirSync(root);
  initRepo(root);
  writeLoadout(root, {
    id: 'agent-check',
    title: 'Agent Check',
    files: [
      ...baseFiles('Agent Check', AGENTS_MD),
      { path: 'skills/check-skill/SKILL.md', role: 'skill', skill: 'check-skill', content: `---\nname: check-skill\ndescription: ${SKILL_DESCRIPTION}\n---\n\n# Check skill\n\nSay "found".\n` },
      { path: 'rules/check-rule.md', role: 'rules', content: '---\ndescription: Check rule\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\nalwaysApply: false\n---\n\n# Check rule\n\nRULE-MARKER-51c2\n' },
      { path: 'agents/checker.md', role: 'subagent', content: '---\nname: checker\ndescription: Checks that subagents are found.\n---\n\nCheck.\n' },
      { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { localcheck: LOADOUT_SERVER } }, null, 2)}\n` },
    ],
    manifest: { requires: { tools: [], env: ['LOADOUT_CHECK'], mcp: ['localcheck'] } },
  });
  commitAll(root, 'agent-check');
  dist = join(root, 'dist');
  const [installed, built] = await Promise.all([installNpmTools(SPECS), buildCatalogue({ root, out: dist, baseUrl: 'http://localhost:8787' })]);
  expect(built.refused).toEqual([]);
  tools = installed;
}, 900_000);
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

interface Installed {
  project: string;
  home: string;
  manual: { kind: string; path: string; text: string }[];
}

/** `loadout install agent-check --agent <agent>` into a new project (a git repository, as the CLIs expect), after `before(project)`. */
async function install(agent: string, before: (project: string) => void = () => undefined): Promise<Installed> {
  const project = mkdtempSync(join(scratch, `${agent}-`));
  initRepo(project);
  before(project);
  const home = mkdtempSync(join(scratch, 'home-'));
  const run = await runCli(['install', 'agent-check', '--agent', agent, '--from', dist, '--dir', project, '--json'], project);
  expect(run.code, run.stderr).toBe(0);
  const [outcome] = JSON.parse(run.stdout) as { manual_steps: Installed['manual'] }[];
  return { project, home, manual: outcome?.manual_steps ?? [] };
}

/** Runs an agent's CLI in the project with the temporary HOME; returns stdout and stderr together. */
async function agentCli(where: Installed, command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const path = `${join(tools.dir, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
  const run = await runTool(tools.bin(command), args, where.project, { PATH: path, HOME: where.home, DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1', ...env });
  expect(run.code, `${command} ${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
  return `${run.stdout}${run.stderr}`;
}

describeWith(NEEDS_AGENT_CLIS)('the agents\' CLIs list what loadout install wrote (LOADOUT_AGENT_CLIS=1)', () => {
  it('Claude Code lists the MCP server of .mcp.json', async () => {
    const where = await install('claude-code');
    const env = { DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    // Listed and not started: project servers wait for the user's approval.
    const listed = await agentCli(where, 'claude', ['mcp', 'list'], env);
    console.log(`claude mcp list:\n${listed}`);
    expect(listed).toContain('localcheck: node -e process.exit(0) - ⏸ Pending approval');
    const got = await agentCli(where, 'claude', ['mcp', 'get', 'localcheck'], env);
    console.log(`claude mcp get localcheck:\n${got}`);
    expect(got).toContain('Scope: Project config (shared via .mcp.json)');
    expect(got).toContain('LOADOUT_CHECK=${LOADOUT_CHECK}');
  });

  it('Codex gives the model AGENTS.md and the skill, and lists the server the install merged into the project\'s own .codex/config.toml', async () => {
    const where = await install('codex', (project) => {
      mkdirSync(join(project, '.codex'));
      writeFileSync(join(project, '.codex/config.toml'), USER_CODEX);
    });
    const codexHome = join(where.home, '.codex');
    mkdirSync(codexHome);
    // Trust the project, as the Codex docs require for a project's .codex/config.toml.
    writeFileSync(join(codexHome, 'config.toml'), `[projects.${JSON.stringify(where.project)}]\ntrust_level = "trusted"\n`);
    const env = { CODEX_HOME: codexHome };
    const prompt = await agentCli(where, 'codex', ['debug', 'prompt-input'], env);
    expect(prompt).toContain('AGENTS-MARKER-7f3a');
    expect(prompt).toContain(`check-skill: ${SKILL_DESCRIPTION}`);

    const config = readFileSync(join(where.project, '.codex/config.toml'), 'utf8');
    expect(config.startsWith(USER_CODEX)).toBe(true);
    // No manual step edits the file: only the variable to set is left.
    expect(where.manual.map((s) => s.kind)).not.toContain('merge-config');
    const output = await agentCli(where, 'codex', ['mcp', 'list', '--json'], env);
    console.log(`codex mcp list --json:\n${output}`);
    const listed = JSON.parse(output.replace(/^WARNING:.*$/gmu, '')) as { name: string; transport: { command: string; args: string[]; env_vars?: string[] } }[];
    expect(listed.map((s) => s.name).sort()).toEqual(['localcheck', 'mine']);
    expect(listed.find((s) => s.name === 'localcheck')?.transport).toMatchObject({ ...MCP_SERVER, env_vars: ['LOADOUT_CHECK'] });
    console.log(`codex mcp list:\n${await agentCli(where, 'codex', ['mcp', 'list'], env)}`);
  });

  it('Gemini CLI lists the skill of .agents/skills and the MCP server of .gemini/settings.json', async () => {
    const where = await install('gemini-cli');
    mkdirSync(join(where.home, '.gemini'));
    writeFileSync(join(where.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [where.project]: 'TRUST_FOLDER' }));
    writeFileSync(join(where.home, '.gemini', 'settings.json'), JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
    const skills = await agentCli(where, 'gemini', ['skills', 'list']);
    expect(skills).toContain('check-skill [Enabled]');
    expect(skills).toContain(join(where.project, '.agents/skills/check-skill/SKILL.md'));
    const listed = await agentCli(where, 'gemini', ['mcp', 'list']);
    console.log(`gemini mcp list:\n${listed}`);
    expect(listed).toContain('localcheck: node -e process.exit(0) (stdio)');
    expect(readFileSync(join(where.project, 'GEMINI.md'), 'utf8')).toContain('@AGENTS.md');
  });

  it('Copilot CLI lists the skill, AGENTS.md, the rule as .github/instructions and the server of .github/mcp.json; the servers for VS Code are in .vscode/mcp.json', async () => {
    const where = await install('copilot');
    mkdirSync(join(where.home, '.copilot'));
    writeFileSync(join(where.home, '.copilot', 'config.json'), JSON.stringify({ trusted_folders: [where.project] }));
    const skills = JSON.parse(await agentCli(where, 'copilot', ['skill', 'list', '--json'])) as { name: string; source: string }[];
    expect(skills).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'check-skill', source: 'project' })]));
    const instructions = await agentCli(where, 'copilot', ['instruction', 'list']);
    expect(instructions).toContain('from AGENTS.md');
    expect(instructions).toContain('from .github/instructions/check-rule.instructions.md');
    // VS Code's shape: servers with a type, the variable as ${env:…} (not a secret by its name).
    const vscode = JSON.parse(readFileSync(join(where.project, '.vscode/mcp.json'), 'utf8')) as { servers: Record<string, unknown> };
    expect(vscode.servers['localcheck']).toEqual({ type: 'stdio', ...MCP_SERVER, env: { LOADOUT_CHECK: '${env:LOADOUT_CHECK}' } });
    expect(where.manual.map((s) => s.kind)).not.toContain('merge-config');
    // Copilot CLI's own project file (issue 57 point 12): mcpServers, type and tools, ${VAR} from the environment.
    const cli = JSON.parse(readFileSync(join(where.project, '.github/mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(cli.mcpServers['localcheck']).toEqual({ type: 'stdio', ...LOADOUT_SERVER, tools: ['*'] });
    const output = await agentCli(where, 'copilot', ['mcp', 'list', '--json']);
    console.log(`copilot mcp list --json (the CLI reads .mcp.json and .github/mcp.json, not .vscode/mcp.json):\n${output}`);
    const listed = JSON.parse(output) as { mcpServers: Record<string, { sourcePath?: string; enabled?: boolean }> };
    expect(listed.mcpServers['localcheck']?.sourcePath).toBe(join(where.project, '.github/mcp.json'));
    expect(listed.mcpServers['localcheck']?.enabled).toBe(true);
  });
});
