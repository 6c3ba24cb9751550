/**
 * The life-cycle commands from the CLI (DESIGN.md section 8): exit codes for CI, several
 * agents and `detected`, `--global` with HOME pointed at a temporary folder, and the
 * walk-through of the README (install, outdated, update, status as a gate, uninstall).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockBody, findBlock, parseBlocks } from '../../src/install/compose/markdown-blocks.js';
import { installedBytes } from '../../src/layout/rule-translation.js';
import type { LockFile } from '../../src/install/project/lock.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { listProject, makeProject } from './hostile-fixture.js';
import { buildLifecycleCatalogue, contentOf, serveCatalogue, V1, V2, type LifecycleCatalogue } from './lifecycle-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-lifecycle-cli-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
/** The body of kit's block in a shared Markdown file. */
const blockOf = (text: string, adapter: boolean): string | undefined => findBlock(parseBlocks(text, adapter), 'kit')?.body;

describe('the walk-through from the README, against loadout serve', () => {
  it('install, outdated (exit 1), update, status as a CI gate (exit 0, then 1 on drift), uninstall', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli([...args, '--dir', project], project);

    const install = await cli('install', 'kit', '--agent', 'claude-code', '--from', base, '--version', '1.0.0');
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('installed kit 1.0.0 for claude-code');
    expect(install.stdout).toMatch(/context: always [\d,]+ bytes \(~[\d,]+ tokens\); on demand [\d,]+ bytes/u);

    const outdated = await cli('outdated');
    expect(outdated.code).toBe(1);
    expect(outdated.stdout).toMatch(/kit +claude-code +1\.0\.0 +1\.1\.0 +outdated, adds capabilities +none/u);
    expect(outdated.stdout).toContain('  + added    new: MCP server "kit-search": runs kit-search from npm through npx, 1, not pinned exactly');

    // 1.1.0 adds an MCP server: update shows it and waits for a yes, which a pipe cannot give.
    const asked = await cli('update');
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('What kit 1.0.0 → 1.1.0 changes in what it can run for claude-code (adds to what it can run: needs your yes):');
    expect(asked.stderr).toContain('nothing was updated and nothing was written: kit for claude-code adds to what it can run (listed above); pass --accept-capabilities');
    const update = await cli('update', '--accept-capabilities');
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('updated kit 1.0.0 → 1.1.0 for claude-code');
    expect(update.stdout).toContain('Changelog:\n  1.1.0 (2026-02-20)\n    - Add the search server\n    - kit 1.1.0');
    expect(update.stdout).toContain('removed   .claude/rules/old.md');
    expect(update.stdout).toContain('added     .claude/skills/review/references/new.md');
    expect(update.stdout).toMatch(/Context for claude-code: always ~[\d,]+ → ~[\d,]+ tokens \([+−±][\d,]+\)/u);

    expect((await cli('outdated', '--json')).code).toBe(0);
    const clean = await cli('status');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('ok: 8 files as installed');

    // An edit inside the loadout's block of CLAUDE.md is the user's: status reports it.
    writeFileSync(join(project, 'CLAUDE.md'), readFileSync(join(project, 'CLAUDE.md'), 'utf8').replace('<!-- loadout:end kit -->', 'edited\n<!-- loadout:end kit -->'));
    rmSync(join(project, '.claude/agents/reviewer.md'));
    mkdirSync(join(project, '.claude/skills/mine'), { recursive: true });
    writeFileSync(join(project, '.claude/skills/mine/SKILL.md'), 'mine\n');
    const drift = await cli('status', '--json');
    expect(drift.code).toBe(1);
    const report = JSON.parse(drift.stdout) as { files: { target: string; state: string }[]; untracked: string[]; ok: boolean };
    expect(report.ok).toBe(false);
    expect(report.files.filter((f) => f.state !== 'ok').map((f) => [f.target, f.state])).toEqual([
      ['CLAUDE.md', 'changed'],
      ['.claude/agents/reviewer.md', 'missing'],
    ]);
    expect(report.untracked).toEqual(['.claude/skills/mine/SKILL.md']);

    // Uninstall stops at the edited block and shows the diff; --force removes it after a backup.
    const stopped = await cli('uninstall', 'kit');
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('CLAUDE.md: the kit block holds edits of yours');
    expect(stopped.stderr).toContain('-edited');
    const uninstall = await cli('uninstall', 'kit', '--force');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    const backup = /first copied to (\.loadout\/backup\/[^/\s]+)\//u.exec(uninstall.stderr)?.[1] ?? 'none';
    expect(readFileSync(join(project, backup, 'CLAUDE.md'), 'utf8')).toContain('edited\n<!-- loadout:end kit -->');
    expect(uninstall.stdout).toContain('removed   .mcp.json (it held nothing but kit-docs, kit-search)');
    expect(uninstall.stdout).not.toContain('reverted  .mcp.json');
    expect(uninstall.stdout).toContain('removed   the lock file');
    expect(listProject(project).filter((p) => !p.startsWith('.loadout'))).toEqual(['.claude', '.claude/skills', '.claude/skills/mine', '.claude/skills/mine/SKILL.md']);
  }, 120_000); // a dozen CLI processes in turn: 29 s on a loaded machine of two cores
});

describe('several agents and detected', () => {
  it('--agent claude-code,cursor installs for both and records two lock entries sharing AGENTS.md', async () => {
    const project = makeProject();
    const both = await runCli(['install', 'kit', '--agent', 'claude-code,cursor', '--from', catalogue.dist, '--dir', project, '--json'], project);
    expect(both.code, both.stderr).toBe(0);
    expect((JSON.parse(both.stdout) as { agent: string; installed: boolean }[]).map((o) => [o.agent, o.installed])).toEqual([['claude-code', true], ['cursor', true]]);
    expect(readJson<LockFile>(join(project, 'loadout.lock.json')).installs.map((e) => e.agent)).toEqual(['claude-code', 'cursor']);
    expect(existsSync(join(project, '.cursor/rules/style.mdc'))).toBe(true);

    // Uninstalling one agent leaves the file both own.
    const one = await runCli(['uninstall', 'kit', '--agent', 'claude-code', '--dir', project], project);
    expect(one.stdout).toContain('kept      AGENTS.md: another install owns it too');
    expect(blockOf(readFileSync(join(project, 'AGENTS.md'), 'utf8'), false)).toBe(contentOf(V2, 'AGENTS.md'));
    expect(existsSync(join(project, '.claude'))).toBe(false);
  });

  it('--agent detected installs for the agents whose folders are in the project and says which it found', async () => {
    const project = makeProject();
    mkdirSync(join(project, '.cursor'));
    writeFileSync(join(project, 'GEMINI.md'), '');
    const detected = await runCli(['install', 'kit', '--agent', 'detected', '--from', catalogue.dist, '--dir', project, '--force'], project);
    expect(detected.code, detected.stderr).toBe(0);
    expect(detected.stderr).toContain('loadout: detected cursor (.cursor), gemini-cli (GEMINI.md)');
    expect(detected.stdout).toContain('installed kit 1.1.0 for cursor');
    expect(detected.stdout).toContain('installed kit 1.1.0 for gemini-cli');

    const none = makeProject();
    const nothing = await runCli(['install', 'kit', '--agent', 'detected', '--from', catalogue.dist, '--dir', none], none);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("--agent detected: no agent's folders or files found in");
    const bad = await runCli(['install', 'kit', '--agent', 'cursor,vim', '--from', catalogue.dist, '--dir', none], none);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--agent is "cursor,vim"');
  });
});

describe('--global, with HOME pointed at a temporary folder', () => {
  it('installs into the user folders each agent documents, locks in ~/.config/loadout/lock.json, and lists the rest as manual steps', async () => {
    const home = makeTempDir('loadout-home-');
    const cwd = makeProject();
    const env = { HOME: home };
    const install = await runCli(['install', 'kit', '--agent', 'claude-code,codex,gemini-cli,cursor', '--global', '--from', catalogue.dist, '--version', '1.0.0'], cwd, env);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('installed kit 1.0.0 for claude-code from');
    expect(install.stdout).toContain('recorded in ~/.config/loadout/lock.json');
    const read = (p: string): string => readFileSync(join(home, p), 'utf8');
    expect(blockOf(read('.claude/CLAUDE.md'), true)).toBe(blockBody(contentOf(V1, 'CLAUDE.md'), true, 'CLAUDE.md'));
    expect(read('.claude/CLAUDE.md')).toMatch(/^<!-- loadout:begin kit@1\.0\.0 -->\n@AGENTS\.md\n/u);
    expect(blockOf(read('.claude/AGENTS.md'), false)).toBe(contentOf(V1, 'AGENTS.md'));
    expect(read('.claude/skills/review/SKILL.md')).toBe(contentOf(V1, 'skills/review/SKILL.md'));
    expect(read('.claude/rules/old.md')).toBe(Buffer.from(installedBytes('rules', 'claude-code', Buffer.from(contentOf(V1, 'rules/old.md')))).toString('utf8'));
    expect(read('.claude/agents/reviewer.md')).toBe(contentOf(V1, 'agents/reviewer.md'));
    expect(blockOf(read('.codex/AGENTS.md'), false)).toBe(contentOf(V1, 'AGENTS.md'));
    expect(read('.agents/skills/review/SKILL.md')).toBe(contentOf(V1, 'skills/review/SKILL.md'));
    expect(blockOf(read('.gemini/GEMINI.md'), true)).toBe(blockBody(contentOf(V1, 'GEMINI.md'), true, 'GEMINI.md'));
    expect(readJson<{ mcpServers: object }>(join(home, '.gemini/settings.json')).mcpServers).toHaveProperty('kit-docs');
    expect(readJson<{ mcpServers: object }>(join(home, '.cursor/mcp.json')).mcpServers).toHaveProperty('kit-docs');
    expect(read('.codex/config.toml')).toMatch(/^\[mcp_servers\.kit-docs\]\ncommand = "npx"\n/u);
    expect(read('.cursor/skills/review/SKILL.md')).toBe(contentOf(V1, 'skills/review/SKILL.md'));
    // Claude Code's user MCP servers live in ~/.claude.json, which its own command manages; Cursor has no user rules file.
    expect(install.stdout).toMatch(/Manual steps, once for this project:\n- mcp\/servers\.json: claude-code has no user-level file for mcp files[^\n]*\(claude-code\)/u);
    expect(install.stdout).toContain('- rules/style.md: cursor has no user-level file for rules files');
    expect(listProject(cwd)).toEqual([]);
    expect(readJson<LockFile>(join(home, '.config/loadout/lock.json')).installs.map((e) => [e.agent, e.version])).toEqual([['claude-code', '1.0.0'], ['codex', '1.0.0'], ['cursor', '1.0.0'], ['gemini-cli', '1.0.0']]);

    expect((await runCli(['status', '--global'], cwd, env)).code).toBe(0);
    expect((await runCli(['outdated', '--global'], cwd, env)).code).toBe(1);
    const update = await runCli(['update', '--global', '--agent', 'codex', '--accept-capabilities'], cwd, env);
    expect(update.code, update.stderr).toBe(0);
    expect(read('.agents/skills/review/references/new.md')).toBe(contentOf(V2, 'skills/review/references/new.md'));
    const uninstall = await runCli(['uninstall', 'kit', '--global'], cwd, env);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    // Everything goes, the lock and the folders the installs created with it.
    expect(listProject(home)).toEqual([]);
  });
});
