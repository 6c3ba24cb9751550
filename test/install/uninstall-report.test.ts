/**
 * What `loadout uninstall` says about a shared file it took the install's part out of:
 * `removed` when nothing else was in it and the file went, `reverted` when the file stays
 * with the user's entries. Real CLI, real project folders.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReverted } from '../../src/cli/install-report.js';
import { runCli } from '../helpers/cli.js';
import { makeProject } from './hostile-fixture.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from './lifecycle-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-uninstall-report-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const MINE = { mcpServers: { mine: { command: 'my-server' } } };

async function installAndUninstall(project: string, ...flags: string[]): Promise<string> {
  const install = await runCli(['install', 'kit', '--agent', 'cursor', '--from', catalogue.dist, '--dir', project], project);
  expect(install.code, install.stderr).toBe(0);
  const uninstall = await runCli(['uninstall', 'kit', '--dir', project, ...flags], project);
  expect(uninstall.code, uninstall.stderr).toBe(0);
  return uninstall.stdout;
}

describe('uninstall wording for shared files', () => {
  it('says removed, not reverted, when the MCP configuration held only the install\'s servers and is deleted', async () => {
    const project = makeProject();
    const stdout = await installAndUninstall(project);
    expect(stdout).toContain('  removed   .cursor/mcp.json (it held nothing but kit-docs, kit-search)\n');
    expect(stdout).not.toContain('reverted');
    expect(existsSync(join(project, '.cursor/mcp.json'))).toBe(false);
  });

  it('says reverted when the file is kept with entries the user added after the install', async () => {
    const project = makeProject();
    writeFileSync(join(project, 'AGENTS.md'), '# My project\n\nMy own notes.\n');
    const install = await runCli(['install', 'kit', '--agent', 'cursor', '--from', catalogue.dist, '--dir', project], project);
    expect(install.code, install.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(project, '.cursor/mcp.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    writeFileSync(join(project, '.cursor/mcp.json'), JSON.stringify({ mcpServers: { ...config.mcpServers, ...MINE.mcpServers } }));
    const uninstall = await runCli(['uninstall', 'kit', '--dir', project], project);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(uninstall.stdout).toContain('  reverted  .cursor/mcp.json (took out kit-docs, kit-search; the rest of the file kept)\n');
    expect(uninstall.stdout).toContain('  reverted  AGENTS.md (took out the kit block; the rest of the file kept)\n');
    expect(JSON.parse(readFileSync(join(project, '.cursor/mcp.json'), 'utf8'))).toEqual(MINE);
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('My own notes.');
  });

  it('gives file_removed in --json and words a dry run as what would happen', async () => {
    const project = makeProject();
    const install = await runCli(['install', 'kit', '--agent', 'cursor', '--from', catalogue.dist, '--dir', project], project);
    expect(install.code, install.stderr).toBe(0);
    const json = await runCli(['uninstall', 'kit', '--dir', project, '--dry-run', '--json'], project);
    const outcome = JSON.parse(json.stdout) as { reverted: { target: string; file_removed: boolean }[] };
    expect(outcome.reverted.find((r) => r.target === '.cursor/mcp.json')?.file_removed).toBe(true);
    const dry = await runCli(['uninstall', 'kit', '--dir', project, '--dry-run'], project);
    expect(dry.stdout).toContain('  removed   .cursor/mcp.json (it holds nothing but kit-docs, kit-search)\n');
    expect(existsSync(join(project, '.cursor/mcp.json'))).toBe(true);
  });

  it('formatReverted words each case', () => {
    expect(formatReverted({ target: 'CLAUDE.md', blocks: ['kit'], file_removed: true })).toBe('  removed   CLAUDE.md (it held nothing but the kit block)\n');
    expect(formatReverted({ target: '.mcp.json', servers: ['a'], file_removed: false }, true)).toBe('  reverted  .mcp.json (would take out a; the rest of the file kept)\n');
    expect(formatReverted({ target: '.mcp.json', servers: [], file_removed: true })).toBe('  removed   .mcp.json (left empty)\n');
  });
});
