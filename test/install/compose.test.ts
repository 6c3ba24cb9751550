/**
 * Several loadouts in one project beside the user's own files: the composed AGENTS.md and
 * adapters, a conflict (never a silent replace) when two loadouts put different whole files at
 * one target, `install --force` then `uninstall` putting the user's file back, folders removed
 * with the last install that needed them, the dry run's composed view, and the lock keeping
 * fields it does not know.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadout, installLoadouts } from '../../src/install/install.js';
import { LOCK_FILE, readLock } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { listProject } from './hostile-fixture.js';
import { buildComposeCatalogue } from './compose-fixture.js';

let root: string;
let dist: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-compose-'));
  dist = await buildComposeCatalogue(join(root, 'catalogue'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OWN = '# My project\n\nRun `make check` before you push.';

/** A project holding `files` (relative path → text). */
function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(root, 'project-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const read = (dir: string, path: string): string => readFileSync(join(dir, path), 'utf8');

describe('two loadouts beside the project\'s own AGENTS.md', () => {
  it('composes one block per loadout in install order, imports AGENTS.md once, and gives the file back byte for byte', async () => {
    const dir = project({ 'AGENTS.md': OWN });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'claude-code', dir, version: '1.0.0' });
    await installLoadout({ from: dist, id: 'gamma', agent: 'claude-code', dir, version: '1.0.0' });
    expect(read(dir, 'AGENTS.md')).toBe(
      `${OWN}\n\n<!-- loadout:begin alpha@1.0.0 -->\n# alpha\n\nInstructions of alpha, version 1.0.0.\n<!-- loadout:end alpha -->\n\n<!-- loadout:begin gamma@1.0.0 -->\n# gamma\n\nInstructions of gamma, version 1.0.0.\n<!-- loadout:end gamma -->\n`,
    );
    expect(read(dir, 'CLAUDE.md').match(/^@AGENTS\.md$/gmu)).toHaveLength(1);
    expect((await readStatus(scope)).ok).toBe(true);

    // Update replaces its own block in place; an edit inside a block shows as changed.
    await updateLoadouts({ scope, ids: ['alpha'], to: '1.1.0', acceptCapabilities: true });
    expect(read(dir, 'AGENTS.md')).toContain('<!-- loadout:begin alpha@1.1.0 -->\n# alpha\n\nInstructions of alpha, version 1.1.0.\n<!-- loadout:end alpha -->\n\n<!-- loadout:begin gamma@1.0.0');
    writeFileSync(join(dir, 'AGENTS.md'), read(dir, 'AGENTS.md').replace('<!-- loadout:end gamma -->', 'My note.\n<!-- loadout:end gamma -->'));
    expect((await readStatus(scope)).files.filter((f) => f.state !== 'ok').map((f) => [f.target, f.id, f.state])).toEqual([['AGENTS.md', 'gamma', 'changed']]);
    const stopped = await uninstallLoadout({ scope, id: 'gamma' });
    expect(stopped.uninstalled).toBe(false);
    expect(stopped.conflicts[0]?.diff).toContain('-My note.');
    const forced = await uninstallLoadout({ scope, id: 'gamma', force: true });
    expect(read(dir, `${forced.backup ?? 'none'}/AGENTS.md`)).toContain('My note.');

    await uninstallLoadout({ scope, id: 'alpha' });
    expect(read(dir, 'AGENTS.md')).toBe(OWN);
    expect(existsSync(join(dir, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(listProject(dir).filter((p) => !p.startsWith('.loadout'))).toEqual(['AGENTS.md']);
  });

  it('the dry run shows the blocks that would change and the composed context cost', async () => {
    const dir = project({ 'AGENTS.md': OWN });
    await installLoadout({ from: dist, id: 'alpha', agent: 'cursor', dir });
    const [dry] = await installLoadouts({ from: dist, id: 'gamma', agents: ['cursor'], dir, dryRun: true });
    expect(dry?.composed.files.find((f) => f.target === 'AGENTS.md')?.blocks).toEqual([
      { id: 'alpha', version: '1.1.0', change: 'keep' },
      { id: 'gamma', version: '1.1.0', change: 'add' },
    ]);
    expect(dry?.composed.files.find((f) => f.target === 'AGENTS.md')?.text).toContain(`${OWN}\n\n<!-- loadout:begin alpha@1.1.0 -->`);
    expect(dry?.composed.context?.always.bytes).toBeGreaterThan(dry?.context.always.bytes ?? Infinity);
    expect(read(dir, 'AGENTS.md')).not.toContain('gamma');
  });
});

describe('whole files', () => {
  it('a file of another loadout at the target is a conflict, never a silent replace', async () => {
    const dir = project();
    await installLoadout({ from: dist, id: 'alpha', agent: 'cursor', dir });
    const before = read(dir, '.agents/skills/shared-tool/SKILL.md');
    const beta = await installLoadout({ from: dist, id: 'beta', agent: 'cursor', dir });
    expect(beta.installed).toBe(false);
    expect(beta.conflicts).toEqual([{ target: '.agents/skills/shared-tool/SKILL.md', path: 'skills/shared-tool/SKILL.md', reason: 'holds the file of alpha for cursor' }]);
    expect(read(dir, '.agents/skills/shared-tool/SKILL.md')).toBe(before);
  });

  it('install --force then uninstall puts the user\'s own file back', async () => {
    const mine = 'My own style rule.\n';
    const dir = project({ '.claude/rules/alpha-style.md': mine });
    const refused = await installLoadout({ from: dist, id: 'alpha', agent: 'claude-code', dir });
    expect(refused.conflicts).toEqual([{ target: '.claude/rules/alpha-style.md', path: 'rules/alpha-style.md' }]);
    const forced = await installLoadout({ from: dist, id: 'alpha', agent: 'claude-code', dir, force: true });
    expect(read(dir, `${forced.backup ?? 'none'}/.claude/rules/alpha-style.md`)).toBe(mine);
    expect((await readLock(dir)).originals).toEqual({ '.claude/rules/alpha-style.md': `${forced.backup ?? ''}/.claude/rules/alpha-style.md` });
    const removed = await uninstallLoadout({ scope: projectScope(dir), id: 'alpha' });
    expect(removed.restored).toEqual([{ target: '.claude/rules/alpha-style.md', from: `${forced.backup ?? ''}/.claude/rules/alpha-style.md` }]);
    expect(listProject(dir)).toEqual(['.claude', '.claude/rules', '.claude/rules/alpha-style.md']);
    expect(read(dir, '.claude/rules/alpha-style.md')).toBe(mine);
  });

  it('two Cursor installs, then both uninstalled, leave no folder behind', async () => {
    const dir = project({ 'src/index.ts': 'export {};\n' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'cursor', dir });
    await installLoadout({ from: dist, id: 'gamma', agent: 'cursor', dir });
    expect(existsSync(join(dir, '.cursor/rules/gamma-style.mdc'))).toBe(true);
    await uninstallLoadout({ scope, id: 'alpha' });
    expect(existsSync(join(dir, '.cursor/rules'))).toBe(true);
    await uninstallLoadout({ scope, id: 'gamma' });
    expect(listProject(dir)).toEqual(['src', 'src/index.ts']);
  });
});

describe('the lock', () => {
  it('keeps top-level fields it does not know', async () => {
    const dir = project();
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir });
    const lock = JSON.parse(read(dir, LOCK_FILE)) as Record<string, unknown>;
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...lock, signing: { keys: ['k1'] } }));
    await installLoadout({ from: dist, id: 'gamma', agent: 'codex', dir });
    expect((JSON.parse(read(dir, LOCK_FILE)) as Record<string, unknown>)['signing']).toEqual({ keys: ['k1'] });
  });
});

