/**
 * The catalogue's native plugins installed by the agents' own plugin managers (DESIGN.md
 * "Native plugins"; src/tree/render/plugins.ts, plugin-marketplaces.ts), with the CLIs from npm:
 * - Claude Code 2.1.330: `claude plugin validate`, `claude plugin marketplace add <dist>/plugins`,
 *   `claude plugin install <id>@<marketplace>`; and the same over HTTPS from
 *   `<base>/plugins/claude-marketplace.json` (archive sources), the tree served over TLS on this
 *   machine's own non-loopback address (Claude Code refuses archives on loopback and plain
 *   http) with a self-signed certificate trusted through `NODE_EXTRA_CA_CERTS`;
 * - Copilot CLI 1.0.102: `copilot plugin marketplace add <dist>/plugins`, `copilot plugin install`;
 * - Codex 0.169.0: `codex plugin marketplace add <dist>/plugins`, `codex plugin add`;
 * - Gemini CLI 0.61.0: `gemini extensions validate` and `gemini extensions install <folder> --consent`.
 * Each install's skill files are compared byte for byte with the loadout's.
 *
 * Then the commands each agent's tab of the loadout page shows (issue 57, points 3 to 5), read
 * from the built page and run as shown with `/bin/sh`, standard input closed (a prompt cannot
 * wait), against two builds of the catalogue: one served over plain HTTP on 127.0.0.1 (Claude
 * Code, Codex and Copilot CLI add the built tree's plugins folder; Gemini CLI fetches the plugin
 * zip and installs it unattended) and the HTTPS one on this machine's own address (Claude Code
 * adds the marketplace by URL, with `NODE_EXTRA_CA_CERTS`, and curl trusts the certificate
 * through `CURL_CA_BUNDLE`). Where a tab shows no route, the page must say why.
 *
 * Opt-in (`LOADOUT_AGENT_CLIS=1`; not in `.ci/run`): the CLIs (about 640 MB with Node 22) are
 * installed from npm into a temporary folder (test/helpers/npm-tools.ts), shared with
 * agent-clis.test.ts. Every CLI runs with a temporary HOME, offline apart from the local server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { extname, join, sep } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { freePort } from '../helpers/free-port.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { installNpmTools, runTool, type NpmTools } from '../helpers/npm-tools.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';
import { describeWith, NEEDS_AGENT_CLIS } from '../run/requirements.js';

const ENABLED = process.env['LOADOUT_AGENT_CLIS'] === '1';
/** The same pins as agent-clis.test.ts, so both tests share one install. */
const SPECS = ['node@22.22.0', '@anthropic-ai/claude-code@2.1.330', '@openai/codex@0.169.0', '@google/gemini-cli@0.61.0', '@github/copilot@1.0.102'];
const ID = 'plugin-check';
const MARKETPLACE = 'loadout-catalogue';
const SKILL: TestFile[] = [
  { path: 'skills/check-skill/SKILL.md', role: 'skill', skill: 'check-skill', content: '---\nname: check-skill\ndescription: Check that the plugin manager installed this skill.\n---\n\n# Check skill\n\nSee [notes](references/notes.md). Ünïcode kept.\n' },
  { path: 'skills/check-skill/references/notes.md', role: 'reference', skill: 'check-skill', content: '# Notes\n\nPLUGIN-MARKER-3d9e\n' },
];

/** This machine's first non-loopback IPv4 address (Claude Code refuses archive sources on loopback). */
function ownAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('no non-loopback IPv4 address on this machine');
}

let tools: NpmTools;
let scratch: string;
let root: string;
let dist: string;
let server: Server | undefined;
let base: string;
let caFile: string;
/** The build served over plain HTTP on 127.0.0.1, and its address. */
let localDist: string;
let localBase: string;
let localServer: RunningServer | undefined;

beforeAll(async () => {
  if (!ENABLED) return;
  scratch = mkdtempSync(join(tmpdir(), 'loadout-plugin-clis-'));
  // A self-signed certificate for this machine's address (openssl, as a deployment would make one).
  const host = ownAddress();
  caFile = join(scratch, 'cert.pem');
  const keyFile = join(scratch, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=IP:${host}`, '-keyout', keyFile, '-out', caFile], { stdio: 'ignore' });
  server = createServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (request, response) => {
    // The built tree, links followed inside it; nothing outside.
    const path = decodeURIComponent(new URL(request.url ?? '/', 'https://x').pathname).replace(/^\/+/u, '');
    let file: string;
    try {
      file = realpathSync(join(dist, path));
      if (!file.startsWith(realpathSync(join(dist, '..')) + sep) || !statSync(file).isFile()) throw new Error('not a file');
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': extname(file) === '.zip' ? 'application/zip' : 'application/json' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server?.listen(0, host, resolve));
  const address = server.address();
  base = `https://${host}:${typeof address === 'object' && address !== null ? address.port : 0}`;

  root = join(scratch, 'catalogue');
  mkdirSync(root);
  initRepo(root);
  writeLoadout(root, {
    id: ID,
    title: 'Plugin Check',
    files: [
      ...baseFiles('Plugin Check'),
      ...SKILL,
      { path: 'agents/checker.md', role: 'subagent', content: '---\nname: checker\ndescription: Checks that subagents are found.\n---\n\nCheck.\n' },
      { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { localcheck: { command: 'node', args: ['-e', 'process.exit(0)'] } } }, null, 2)}\n` },
    ],
    manifest: { requires: { tools: [], env: [], mcp: ['localcheck'] } },
  });
  commitAll(root, ID);
  dist = join(root, 'dist');
  const [installed, built] = await Promise.all([installNpmTools(SPECS), buildCatalogue({ root, out: dist, baseUrl: base })]);
  expect(built.refused).toEqual([]);
  tools = installed;
  // The same catalogue built for, and served at, a loopback address as loadout serve serves it.
  const port = await freePort();
  localBase = `http://127.0.0.1:${port}`;
  localDist = join(root, 'dist-local');
  expect((await buildCatalogue({ root, out: localDist, baseUrl: localBase })).refused).toEqual([]);
  localServer = await listen(createApp({ distDir: localDist, baseUrl: localBase, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port, host: '127.0.0.1' });
}, 1_800_000);
afterAll(async () => {
  await localServer?.close();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Runs an agent's CLI with a fresh or given HOME in a scratch project; prints and returns what it printed. */
async function agentCli(home: string, command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const path = `${join(tools.dir, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
  const project = join(home, 'project');
  mkdirSync(project, { recursive: true });
  const run = await runTool(tools.bin(command), args, project, { PATH: path, HOME: home, DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...env });
  const output = `${run.stdout}${run.stderr}`.trim();
  console.log(`$ ${command} ${args.join(' ')}\n${output}\n(exit ${run.code})\n`);
  expect(run.code, `${command} ${args.join(' ')}: ${output}`).toBe(0);
  return output;
}

/** Every file below `dir` whose path ends with `/<suffix>` (links not followed). */
function findBelow(dir: string, suffix: string): string[] {
  const found: string[] = [];
  for (const entry of listFolderEntries(dir)) {
    const path = join(dir, entry.path);
    if (entry.dirent.isFile() && path.endsWith(`/${suffix}`) && !path.startsWith(dist) && !path.startsWith(localDist)) found.push(path);
  }
  return found;
}

const unescapeHtml = (html: string): string => html.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

/** What the loadout's page built into `tree` shows in `agent`'s tab: its plugin commands, or the sentence that says why there are none. */
function shownInTab(tree: string, agent: string): { commands: string[] } | { none: string } {
  const page = readFileSync(join(tree, 'loadouts', ID, 'index.html'), 'utf8');
  const code = new RegExp(`<pre id="plugin-${agent}"[^>]*><code>([^<]*)</code>`, 'u').exec(page)?.[1];
  if (code !== undefined) return { commands: unescapeHtml(code).split('\n') };
  const none = new RegExp(`<p class="small" id="plugin-none-${agent}">([^<]*)</p>`, 'u').exec(page)?.[1];
  if (none === undefined) throw new Error(`the page of ${tree} shows neither plugin commands nor a reason for ${agent}`);
  return { none: unescapeHtml(none) };
}

/** Runs `line` as a shell would, in `home/work` with that HOME, standard input closed; prints and returns what it printed and how it ended. */
async function shell(home: string, line: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const path = `${join(tools.dir, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
  const work = join(home, 'work');
  mkdirSync(work, { recursive: true });
  const run = await runTool('/bin/sh', ['-c', line], work, { PATH: path, HOME: home, DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...env });
  const output = `${run.stdout}${run.stderr}`.trim();
  console.log(`$ ${line}\n${output}\n(exit ${run.code})\n`);
  return { code: run.code, output };
}

/**
 * Runs `line` as {@link shell} does until it prints `text` (then ends it and its children) or
 * ends by itself; true when `text` came. For a command that waits for an answer that standard
 * input, closed, can never give.
 */
function shellUntil(home: string, line: string, text: string): Promise<{ seen: boolean; output: string }> {
  const path = `${join(tools.dir, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
  const child = spawn('/bin/sh', ['-c', line], { cwd: join(home, 'work'), env: { PATH: path, HOME: home, DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes(text) && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('close', () => {
      console.log(`$ ${line}\n${output.trim()}\n(${output.includes(text) ? 'ended here: it waits for an answer' : 'ended by itself'})\n`);
      resolve({ seen: output.includes(text), output });
    });
  });
}

/** A HOME as a new user of each CLI has it: telemetry and updates off where the CLI has a switch, nothing trusted. */
function freshHome(name: string): string {
  const home = newHome(name);
  mkdirSync(join(home, '.gemini'));
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
  mkdirSync(join(home, '.codex'));
  writeFileSync(join(home, '.codex', 'config.toml'), '');
  return home;
}

/** Runs the commands `agent`'s tab of the page in `tree` shows, one line after another, each must succeed; returns the last one's output. */
async function runTab(tree: string, agent: string, env: Record<string, string> = {}): Promise<{ home: string; output: string }> {
  const shown = shownInTab(tree, agent);
  if (!('commands' in shown)) throw new Error(`${agent}: the tab shows no commands: ${shown.none}`);
  const home = freshHome(agent);
  let output = '';
  for (const line of shown.commands) {
    const run = await shell(home, line, env);
    expect(run.code, `${agent}: ${line}: ${run.output}`).toBe(0);
    output = run.output;
  }
  return { home, output };
}

/** The installed copies of the loadout's skill files below `home`: each must exist and hold the loadout's bytes. */
function expectSkillInstalled(home: string, label: string): void {
  for (const file of SKILL) {
    const rel = file.path; // skills/check-skill/…: the plugin folder's layout
    // Not the project, nor the folder a tab's commands unpacked the plugin zip into.
    const copies = findBelow(home, rel).filter((p) => !p.includes(`${sep}project${sep}`) && !p.startsWith(join(home, 'work') + sep));
    console.log(`${label}: ${rel} installed at ${copies.map((p) => p.slice(home.length)).join(', ') || '(nowhere)'}`);
    expect(copies.length, `${label}: ${rel}`).toBeGreaterThan(0);
    const source = readFileSync(join(root, 'loadouts', ID, file.path));
    for (const copy of copies) expect(readFileSync(copy).equals(source), `${label}: ${copy}`).toBe(true);
  }
}

const newHome = (name: string): string => mkdtempSync(join(scratch, `home-${name}-`));

/** The skill files Copilot CLI loaded live from a folder marketplace (it copies nothing), or copied into `home`. */
function expectCopilotSkill(home: string, installed: string, label: string): void {
  const live = /loaded live from (\S+?),/u.exec(installed)?.[1];
  if (live === undefined) expectSkillInstalled(home, label);
  else {
    for (const file of SKILL) expect(readFileSync(join(live, file.path)).equals(readFileSync(join(root, 'loadouts', ID, file.path))), file.path).toBe(true);
    console.log(`${label}: the skill files at ${live} hold the loadout's bytes`);
  }
}

describeWith(NEEDS_AGENT_CLIS)('the agents\' plugin managers install the catalogue\'s plugins (LOADOUT_AGENT_CLIS=1)', () => {
  it('Claude Code validates, adds dist/plugins as a marketplace and installs the loadout', { timeout: 300_000 }, async () => {
    const home = newHome('claude');
    await agentCli(home, 'claude', ['plugin', 'validate', join(dist, 'plugins', ID)]);
    await agentCli(home, 'claude', ['plugin', 'validate', join(dist, 'plugins')]);
    await agentCli(home, 'claude', ['plugin', 'marketplace', 'add', join(dist, 'plugins')]);
    await agentCli(home, 'claude', ['plugin', 'install', `${ID}@${MARKETPLACE}`]);
    expectSkillInstalled(home, 'Claude Code (folder marketplace)');
  });

  it('Claude Code installs the loadout over HTTPS from <base>/plugins/claude-marketplace.json', { timeout: 300_000 }, async () => {
    const home = newHome('claude-https');
    const env = { NODE_EXTRA_CA_CERTS: caFile };
    await agentCli(home, 'claude', ['plugin', 'marketplace', 'add', `${base}/plugins/claude-marketplace.json`], env);
    await agentCli(home, 'claude', ['plugin', 'install', `${ID}@${MARKETPLACE}`], env);
    expectSkillInstalled(home, 'Claude Code (URL marketplace)');
  });

  it('Copilot CLI adds dist/plugins as a marketplace and installs the loadout', { timeout: 300_000 }, async () => {
    const home = newHome('copilot');
    await agentCli(home, 'copilot', ['plugin', 'marketplace', 'add', join(dist, 'plugins')]);
    const installed = await agentCli(home, 'copilot', ['plugin', 'install', `${ID}@${MARKETPLACE}`]);
    // From a folder marketplace Copilot CLI copies nothing: it loads the plugin where it lies.
    const live = /loaded live from (\S+?),/u.exec(installed)?.[1];
    if (live === undefined) expectSkillInstalled(home, 'Copilot CLI');
    else {
      for (const file of SKILL) expect(readFileSync(join(live, file.path)).equals(readFileSync(join(root, 'loadouts', ID, file.path))), file.path).toBe(true);
      console.log(`Copilot CLI: the skill files at ${live} hold the loadout's bytes`);
    }
    const skills = JSON.parse(await agentCli(home, 'copilot', ['skill', 'list', '--json'])) as { name: string }[];
    expect(skills.map((s) => s.name)).toContain('check-skill');
  });

  it('Codex adds dist/plugins as a marketplace and adds the loadout', { timeout: 300_000 }, async () => {
    const home = newHome('codex');
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, 'config.toml'), '');
    const env = { CODEX_HOME: codexHome };
    await agentCli(home, 'codex', ['plugin', 'marketplace', 'add', join(dist, 'plugins')], env);
    await agentCli(home, 'codex', ['plugin', 'add', `${ID}@${MARKETPLACE}`], env);
    expectSkillInstalled(home, 'Codex');
  });

  it('Gemini CLI validates and installs the loadout\'s extension', { timeout: 300_000 }, async () => {
    const home = newHome('gemini');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
    // Gemini CLI asks whether to trust an extension's source folder before it installs it: trusted here as its trustedFolders.json records it.
    const source = join(dist, 'plugins', ID);
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [source]: 'TRUST_FOLDER', [realpathSync(source)]: 'TRUST_FOLDER' }));
    await agentCli(home, 'gemini', ['extensions', 'validate', join(dist, 'plugins', ID)]);
    await agentCli(home, 'gemini', ['extensions', 'install', join(dist, 'plugins', ID), '--consent']);
    expectSkillInstalled(home, 'Gemini CLI');
    expect(readFileSync(join(home, '.gemini/extensions', ID, 'AGENTS.md')).equals(readFileSync(join(root, 'loadouts', ID, 'AGENTS.md')))).toBe(true);
  });
});

describeWith(NEEDS_AGENT_CLIS)('every command a loadout page\'s tabs show works as shown (LOADOUT_AGENT_CLIS=1, issue 57)', () => {
  it('on the catalogue served over HTTP on 127.0.0.1: Claude Code, Codex and Copilot CLI from the tree\'s folder, Gemini CLI unattended; Cursor and Antigravity say why not', { timeout: 600_000 }, async () => {
    expect(shownInTab(localDist, 'claude-code')).toEqual({ commands: [`claude plugin marketplace add ${join(localDist, 'plugins')}`, `claude plugin install ${ID}@${MARKETPLACE}`] });
    expectSkillInstalled((await runTab(localDist, 'claude-code')).home, 'Claude Code (the page, loopback)');
    expectSkillInstalled((await runTab(localDist, 'codex')).home, 'Codex (the page, loopback)');
    const copilot = await runTab(localDist, 'copilot');
    expectCopilotSkill(copilot.home, copilot.output, 'Copilot CLI (the page, loopback)');
    const gemini = await runTab(localDist, 'gemini-cli');
    expectSkillInstalled(gemini.home, 'Gemini CLI (the page, loopback)');
    for (const agent of ['cursor', 'antigravity-cli']) expect(shownInTab(localDist, agent), agent).toMatchObject({ none: expect.stringContaining('No route of') });
    // What the page showed before (issue 57, point 3): the URL marketplace on loopback is added, then its install refused.
    const home = freshHome('claude-url-loopback');
    expect((await shell(home, `claude plugin marketplace add ${localBase}/plugins/claude-marketplace.json`)).code).toBe(0);
    const refused = await shell(home, `claude plugin install ${ID}@${MARKETPLACE}`);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('Archive URLs must use https://');
  });

  it('Gemini CLI\'s command without GEMINI_CLI_TRUST_WORKSPACE stops at the folder-trust prompt and waits (issue 57, point 4)', { timeout: 300_000 }, async () => {
    const shown = shownInTab(localDist, 'gemini-cli');
    if (!('commands' in shown)) throw new Error('no Gemini CLI commands');
    const home = freshHome('gemini-prompt');
    for (const line of shown.commands.slice(0, -1)) expect((await shell(home, line)).code).toBe(0);
    // With standard input closed it still waits (checked: 5 minutes, until the test's timeout), so it is ended once it asks.
    const old = await shellUntil(home, (shown.commands.at(-1) ?? '').replace('GEMINI_CLI_TRUST_WORKSPACE=true ', ''), 'Do you want to trust this folder and continue with the installation?');
    expect(old.seen, old.output).toBe(true);
    expect(existsSync(join(home, '.gemini', 'extensions', ID))).toBe(false);
  });

  it('on the catalogue served over HTTPS on this machine\'s own address: Claude Code by URL, Gemini CLI from the zip; Codex and Copilot CLI say why not', { timeout: 600_000 }, async () => {
    const tls = { NODE_EXTRA_CA_CERTS: caFile, CURL_CA_BUNDLE: caFile };
    expect(shownInTab(dist, 'claude-code')).toEqual({ commands: [`claude plugin marketplace add ${base}/plugins/claude-marketplace.json`, `claude plugin install ${ID}@${MARKETPLACE}`] });
    expectSkillInstalled((await runTab(dist, 'claude-code', tls)).home, 'Claude Code (the page, HTTPS)');
    expectSkillInstalled((await runTab(dist, 'gemini-cli', tls)).home, 'Gemini CLI (the page, HTTPS)');
    for (const agent of PUBLISHED_AGENTS.filter((a) => a !== 'claude-code' && a !== 'gemini-cli')) {
      const shown = shownInTab(dist, agent);
      expect(shown, agent).toMatchObject({ none: expect.stringContaining('No route of') });
      console.log(`${agent} (HTTPS): ${'none' in shown ? shown.none : ''}`);
    }
  });
});
