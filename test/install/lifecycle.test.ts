/**
 * The installer's life cycle against `loadout serve` (DESIGN.md section 8): a catalogue with two
 * versions of `kit` in git history, served over HTTP on 127.0.0.1; for every agent's layout
 * install 1.0.0, outdated, update with its changelog and files, status, uninstall.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS, type Agent } from '../../src/catalogue/vocabulary.js';
import { installLoadout } from '../../src/install/install.js';
import { blockBody, findBlock, parseBlocks } from '../../src/install/compose/markdown-blocks.js';
import { layoutInstall } from '../../src/layout/installed-files.js';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';
import { listOutdated } from '../../src/install/outdated.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { listProject, makeProject } from './hostile-fixture.js';
import { readParts } from '../../src/install/compose/mcp-servers.js';
import { convertMcpServers, type McpServerConfig } from '../../src/layout/mcp-formats.js';
import { BASE, buildLifecycleCatalogue, contentOf, SERVERS, serveCatalogue, V1, V2, type LifecycleCatalogue } from './lifecycle-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-lifecycle-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SKILL = (dir: string): Record<string, string> => ({ [`${dir}/review/SKILL.md`]: 'skills/review/SKILL.md', [`${dir}/review/references/checklist.md`]: 'skills/review/references/checklist.md' });

/** Where each file of 1.0.0 lands, per agent (DESIGN.md section 3 as corrected in layout.ts), written out by hand. */
const V1_TARGETS: Record<Agent, Record<string, string>> = {
  'claude-code': { 'AGENTS.md': 'AGENTS.md', 'CLAUDE.md': 'CLAUDE.md', '.claude/rules/style.md': 'rules/style.md', '.claude/rules/old.md': 'rules/old.md', ...SKILL('.claude/skills'), '.claude/agents/reviewer.md': 'agents/reviewer.md', '.mcp.json': 'mcp/servers.json' },
  codex: { 'AGENTS.md': 'AGENTS.md', ...SKILL('.agents/skills'), '.codex/agents/reviewer.toml': 'agents/reviewer.md', '.codex/config.toml': 'mcp/servers.json' },
  cursor: { 'AGENTS.md': 'AGENTS.md', '.cursor/rules/style.mdc': 'rules/style.md', '.cursor/rules/old.mdc': 'rules/old.md', ...SKILL('.agents/skills'), '.cursor/agents/reviewer.md': 'agents/reviewer.md', '.cursor/mcp.json': 'mcp/servers.json' },
  'gemini-cli': { 'AGENTS.md': 'AGENTS.md', 'GEMINI.md': 'GEMINI.md', '.gemini/rules/style.md': 'rules/style.md', '.gemini/rules/old.md': 'rules/old.md', ...SKILL('.agents/skills'), '.gemini/agents/reviewer.md': 'agents/reviewer.md', '.gemini/settings.json': 'mcp/servers.json' },
  copilot: { 'AGENTS.md': 'AGENTS.md', '.github/instructions/style.instructions.md': 'rules/style.md', '.github/instructions/old.instructions.md': 'rules/old.md', ...SKILL('.agents/skills'), '.github/agents/reviewer.agent.md': 'agents/reviewer.md', '.vscode/mcp.json': 'mcp/servers.json', '.github/mcp.json': 'mcp/servers.json' },
  'antigravity-cli': { 'AGENTS.md': 'AGENTS.md', '.agents/rules/style.md': 'rules/style.md', '.agents/rules/old.md': 'rules/old.md', ...SKILL('.agents/skills'), '.agents/mcp_config.json': 'mcp/servers.json' },
};

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
/** A file of the fixture as installed for `agent` alone (`layout/installed-files.ts`: rules translated and composed, links rewritten). */
const installedText = (files: typeof V1, path: string, agent: Agent): string => {
  const version = files === V1 ? '1.0.0' : '1.1.0';
  const entries = files.map(({ content: _c, ...f }) => ({ description: f.path, ...f }) as FileEntry);
  const installed = layoutInstall({ id: 'kit', version, files: entries, text: (p) => contentOf(files, p), rawUrl: (p) => `${BASE}/raw/kit/${version}/${p}` }, agent);
  return installed.text(path) ?? contentOf(files, path);
};

/** Checks that every target of `targets` holds the file of `files` (merged MCP files: the version's servers; shared Markdown files: the version's block). */
function expectInstalled(project: string, targets: Record<string, string>, files: typeof V1, servers: Record<string, unknown>, agent: Agent): void {
  for (const [target, path] of Object.entries(targets)) {
    // Merged MCP files: the version's servers, in the agent's shape (layout/mcp-formats.ts).
    if (path === 'mcp/servers.json') expect(readParts(readFileSync(join(project, target), 'utf8'), target), target).toEqual(convertMcpServers(servers as Record<string, McpServerConfig>, agent, target).servers);
    else if (['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'].includes(path)) {
      const adapter = path !== 'AGENTS.md';
      expect(findBlock(parseBlocks(readFileSync(join(project, target), 'utf8'), adapter), 'kit')?.body, target).toBe(blockBody(installedText(files, path, agent), adapter, path));
    } else expect(readFileSync(join(project, target), 'utf8'), target).toBe(installedText(files, path, agent));
  }
}

describe.each(PUBLISHED_AGENTS)('the life cycle for %s, over HTTP', (agent) => {
  it('install 1.0.0, outdated, update to 1.1.0 with changelog and files, status, uninstall', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const scope = projectScope(project);
    const targets = V1_TARGETS[agent];

    const installed = await installLoadout({ from: base, id: 'kit', agent, dir: project, version: '1.0.0' });
    expect(installed.installed).toBe(true);
    expect(installed.files.map((f) => f.target).sort()).toEqual(Object.keys(targets).sort());
    expectInstalled(project, targets, V1, SERVERS.v1, agent);

    expect((await readStatus(scope)).ok).toBe(true);
    // 1.1.0 moves kit-docs to another range and adds kit-search: outdated says it adds to what the loadout can run.
    expect(await listOutdated({ scope })).toEqual([{ id: 'kit', agent, installed: '1.0.0', latest: '1.1.0', wanted: '1.1.0', outdated: true, held: null, policy: [], changed: [], source: base, adds_capabilities: true, capabilities: { widens: true, items: [expect.objectContaining({ list: 'mcp_servers', change: 'widened', key: 'kit-docs' }), expect.objectContaining({ list: 'mcp_servers', change: 'added', key: 'kit-search' })] } }]);

    const dry = await updateLoadouts({ scope, ids: [], dryRun: true });
    expect(dry.written).toBe(false);
    expectInstalled(project, targets, V1, SERVERS.v1, agent);
    const [plan] = dry.updates;
    expect(plan).toMatchObject({ id: 'kit', agent, from: '1.0.0', to: '1.1.0' });
    expect(plan?.changelog).toEqual({ direction: 'upgrade', entries: [{ version: '1.1.0', date: '2026-02-20', changes: ['Add the search server', 'kit 1.1.0'] }] });
    const changeOf = (suffix: string): string | undefined => plan?.files.find((f) => f.target.endsWith(suffix))?.change;
    expect(changeOf('AGENTS.md')).toBe('modified');
    expect(changeOf('references/new.md')).toBe('added');
    expect(changeOf('review/SKILL.md')).toBe('unchanged');
    const installsRules = Object.values(targets).includes('rules/old.md');
    expect(plan?.files.some((f) => f.change === 'removed' && f.path === 'rules/old.md')).toBe(installsRules);

    // It waits for a yes: without --accept-capabilities nothing is written.
    const asked = await updateLoadouts({ scope, ids: ['kit'] });
    expect([asked.written, asked.needs_consent, asked.updates[0]?.capabilities.widens]).toEqual([false, true, true]);
    expectInstalled(project, targets, V1, SERVERS.v1, agent);
    const update = await updateLoadouts({ scope, ids: ['kit'], acceptCapabilities: true });
    expect(update.written).toBe(true);
    const v2Targets = Object.fromEntries(Object.entries(targets).filter(([, p]) => p !== 'rules/old.md'));
    const skillDir = Object.keys(targets).find((t) => t.endsWith('review/SKILL.md'))?.replace(/\/review\/SKILL\.md$/u, '') ?? '';
    expectInstalled(project, { ...v2Targets, [`${skillDir}/review/references/new.md`]: 'skills/review/references/new.md' }, V2, SERVERS.v2, agent);
    for (const [target, path] of Object.entries(targets)) if (path === 'rules/old.md') expect(existsSync(join(project, target)), target).toBe(false);
    expect(readJson<LockFile>(join(project, LOCK_FILE)).installs.map((e) => [e.id, e.agent, e.version])).toEqual([['kit', agent, '1.1.0']]);
    expect((await readStatus(scope)).ok).toBe(true);
    expect((await listOutdated({ scope }))[0]?.outdated).toBe(false);
    expect((await updateLoadouts({ scope, ids: [] })).current).toEqual([{ id: 'kit', agent, version: '1.1.0' }]);

    const removed = await uninstallLoadout({ scope, id: 'kit' });
    expect(removed.removed).toEqual([{ id: 'kit', agent, version: '1.1.0' }]);
    expect(removed.kept).toEqual([]);
    // Everything the install created is gone, the folders it made too, and the lock, which records nothing now.
    expect(removed.lock_removed).toBe(true);
    expect(listProject(project)).toEqual([]);
  });
});

describe('update keeps what the user changed', () => {
  it('keeps a changed file with a note and records it as changed; --force overwrites it', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const scope = projectScope(project);
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    writeFileSync(join(project, '.claude/rules/style.md'), '# Mine\n');
    writeFileSync(join(project, '.claude/rules/old.md'), 'my own edit\n');

    const update = await updateLoadouts({ scope, ids: ['kit'], acceptCapabilities: true });
    const files = update.updates[0]?.files ?? [];
    expect(files.find((f) => f.target === '.claude/rules/style.md')).toMatchObject({ change: 'modified', action: 'keep', note: 'changed since it was installed: kept (--force overwrites)' });
    expect(files.find((f) => f.target === '.claude/rules/old.md')).toMatchObject({ change: 'removed', action: 'keep', note: 'changed since it was installed: kept, and no longer in the lock' });
    expect(readFileSync(join(project, '.claude/rules/style.md'), 'utf8')).toBe('# Mine\n');
    expect(readFileSync(join(project, '.claude/rules/old.md'), 'utf8')).toBe('my own edit\n');
    expect(findBlock(parseBlocks(readFileSync(join(project, 'AGENTS.md'), 'utf8'), false), 'kit')?.body).toBe(contentOf(V2, 'AGENTS.md'));

    const status = await readStatus(scope);
    expect(status.files.filter((f) => f.state !== 'ok').map((f) => [f.target, f.state])).toEqual([['.claude/rules/style.md', 'changed']]);
    expect(status.untracked).toEqual(['.claude/rules/old.md']);

    // Back to 1.0.0 and forward again with --force: the user's rule is overwritten, after a backup.
    const down = await updateLoadouts({ scope, ids: ['kit'], to: '1.0.0', force: true, acceptCapabilities: true });
    expect(down.updates[0]?.changelog).toEqual({ direction: 'downgrade', entries: [{ version: '1.1.0', date: '2026-02-20', changes: ['Add the search server', 'kit 1.1.0'] }] });
    expect(readFileSync(join(project, '.claude/rules/style.md'), 'utf8')).toBe(installedText(V1, 'rules/style.md', 'claude-code'));
    expect(readFileSync(join(project, down.backup ?? 'none', '.claude/rules/style.md'), 'utf8')).toBe('# Mine\n');
    const back = await updateLoadouts({ scope, ids: ['kit'], force: true, dryRun: true });
    expect(back.updates[0]?.changelog.entries.map((e) => e.version)).toEqual(['1.1.0']);
  });

  it('shows a unified diff per file', async () => {
    const project = makeProject();
    const scope = projectScope(project);
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0' });
    const [plan] = (await updateLoadouts({ scope, ids: [], dryRun: true })).updates;
    const agents = plan?.files.find((f) => f.target === 'AGENTS.md');
    expect(plan?.diff_unavailable).toBeUndefined();
    expect(agents?.diff).toContain('--- a/AGENTS.md\tkit 1.0.0');
    expect(agents?.diff).toContain('-Version one.\n+Version two.');
    expect(plan?.files.find((f) => f.change === 'added')?.diff).toContain('+A new reference.');
    expect(plan?.files.find((f) => f.change === 'removed')?.diff).toContain('-Write small commits.');
  });
});

describe('merged MCP configuration', () => {
  it('keeps the user\'s own servers and settings through install, update and uninstall, for every agent that merges', async () => {
    for (const [agent, file] of [['claude-code', '.mcp.json'], ['cursor', '.cursor/mcp.json'], ['gemini-cli', '.gemini/settings.json']] as const) {
      const project = makeProject();
      const scope = projectScope(project);
      const mine = { command: 'my-server', args: [] };
      const own = { theme: 'dark', mcpServers: { mine } };
      mkdirSync(dirname(join(project, file)), { recursive: true });
      writeFileSync(join(project, file), `${JSON.stringify(own)}\n`);
      await installLoadout({ from: catalogue.dist, id: 'kit', agent, dir: project, version: '1.0.0' });
      expect(readJson(join(project, file))).toEqual({ theme: 'dark', mcpServers: { mine, ...SERVERS.v1 } });
      await updateLoadouts({ scope, ids: ['kit'], acceptCapabilities: true });
      expect(readJson(join(project, file))).toEqual({ theme: 'dark', mcpServers: { mine, ...SERVERS.v2 } });
      // Merged in place, the user's bytes were never overwritten: no backup copy was needed.
      expect(existsSync(join(project, '.loadout')), agent).toBe(false);
      const outcome = await uninstallLoadout({ scope, id: 'kit', agent });
      // The file was the user's before the first install: taking the servers out gives it back byte for byte.
      expect(outcome.restored).toEqual([]);
      expect(outcome.reverted).toContainEqual({ target: file, servers: Object.keys(SERVERS.v2), file_removed: false });
      expect(readFileSync(join(project, file), 'utf8'), agent).toBe(`${JSON.stringify(own)}\n`);
      expect(existsSync(join(project, '.loadout')), agent).toBe(false);
    }
  });

  it('a server of the user\'s under the loadout\'s name is a conflict on install, and a changed server is kept on uninstall', async () => {
    const project = makeProject();
    const scope = projectScope(project);
    writeFileSync(join(project, '.mcp.json'), `${JSON.stringify({ mcpServers: { 'kit-docs': { command: 'mine' } } })}\n`);
    const refused = await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project });
    expect(refused.installed).toBe(false);
    expect(refused.conflicts).toEqual([{ target: '.mcp.json', path: 'mcp/servers.json', servers: ['kit-docs'] }]);
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(false);

    rmSync(join(project, '.mcp.json'));
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project });
    const edited = readJson<{ mcpServers: Record<string, unknown> }>(join(project, '.mcp.json'));
    edited.mcpServers['kit-search'] = { command: 'edited' };
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(edited));
    const status = await readStatus(scope);
    expect(status.files.find((f) => f.target === '.mcp.json')).toMatchObject({ state: 'changed', servers: { 'kit-docs': 'ok', 'kit-search': 'changed' } });
    const outcome = await uninstallLoadout({ scope, id: 'kit' });
    expect(outcome.reverted.filter((r) => r.servers !== undefined)).toEqual([{ target: '.mcp.json', servers: ['kit-docs'], file_removed: false }]);
    expect(readJson(join(project, '.mcp.json'))).toEqual({ mcpServers: { 'kit-search': { command: 'edited' } } });
  });
});
