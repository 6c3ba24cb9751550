/**
 * Shared Markdown files kept byte for byte as the user's tools write them (issue 35, point 7):
 * a UTF-8 byte order mark, CRLF line endings (Git's `core.autocrlf`), marker lines with a
 * trailing space or an indentation, and `CLAUDE.md` as a symbolic link to `AGENTS.md`. Real
 * installs into temporary git repositories; `git status` says what a user would see.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadout } from '../../src/install/install.js';
import { readLock } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { buildComposeCatalogue } from './compose-fixture.js';

let root: string;
let dist: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-shared-bytes-'));
  dist = await buildComposeCatalogue(join(root, 'catalogue'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BOM = '\uFEFF';

/** A git repository holding `files`, committed; `links` are symbolic links (path → what it points to). */
function repo(files: Record<string, string>, links: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(root, 'project-'));
  initRepo(dir);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  for (const [path, to] of Object.entries(links)) symlinkSync(to, join(dir, path));
  commitAll(dir, 'start');
  return dir;
}
const bytes = (dir: string, path: string): string => readFileSync(join(dir, path), 'latin1');
/** `git status --porcelain`, without the files an install adds. */
const gitChanges = (dir: string): string[] => execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).split('\n').filter((l) => l !== '' && !l.startsWith('??'));

describe('AGENTS.md as the user\'s tools wrote it', () => {
  it('keeps a byte order mark through install, status, update and uninstall', async () => {
    const dir = repo({ 'AGENTS.md': `${BOM}# Mine\n\nOwn rules.\n` });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.0.0' });
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toMatch(/^\uFEFF# Mine\n\nOwn rules\.\n\n<!-- loadout:begin alpha@1\.0\.0 -->\n/u);
    expect((await readStatus(scope)).ok).toBe(true);
    await updateLoadouts({ scope, ids: ['alpha'], to: '1.1.0' });
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8').startsWith(`${BOM}# Mine`)).toBe(true);
    await uninstallLoadout({ scope, id: 'alpha' });
    expect(gitChanges(dir)).toEqual([]);
  });

  it('recognises its blocks in a CRLF file, writes new blocks with CRLF, and gives the file back byte for byte', async () => {
    const dir = repo({ 'AGENTS.md': '# Mine\r\n\r\nOwn rules.\r\n' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.0.0' });
    // Codex's rule is a section of the block (layout/installed-files.ts), written with the file's line ending too.
    expect(bytes(dir, 'AGENTS.md')).toBe('# Mine\r\n\r\nOwn rules.\r\n\r\n<!-- loadout:begin alpha@1.0.0 -->\r\n# alpha\r\n\r\nInstructions of alpha, version 1.0.0.\r\n\r\n## Rule alpha-style (alpha)\r\n\r\nRule of alpha 1.0.0.\r\n<!-- loadout:end alpha -->\r\n');
    expect((await readStatus(scope)).ok).toBe(true);
    // A reinstall finds the block: no second one.
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.1.0' });
    expect(bytes(dir, 'AGENTS.md').match(/loadout:begin/gu)).toHaveLength(1);
    await installLoadout({ from: dist, id: 'gamma', agent: 'codex', dir, version: '1.0.0' });
    expect(bytes(dir, 'AGENTS.md')).not.toMatch(/[^\r]\n/u);
    await uninstallLoadout({ scope, id: 'alpha' });
    await uninstallLoadout({ scope, id: 'gamma' });
    expect(bytes(dir, 'AGENTS.md')).toBe('# Mine\r\n\r\nOwn rules.\r\n');
  });

  it('a file converted to CRLF after the install (autocrlf) is still ok, and uninstall takes the block out', async () => {
    const dir = repo({ 'AGENTS.md': '# Mine\n' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.0.0' });
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(dir, 'AGENTS.md'), 'utf8').replaceAll('\n', '\r\n'));
    expect((await readStatus(scope)).files.filter((f) => f.target === 'AGENTS.md').map((f) => f.state)).toEqual(['ok']);
    await uninstallLoadout({ scope, id: 'alpha' });
    expect(bytes(dir, 'AGENTS.md')).toBe('# Mine\r\n');
  });

  it('recognises marker lines with a trailing space or an indentation', async () => {
    const dir = repo({ 'AGENTS.md': '# Mine\n' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.0.0' });
    writeFileSync(join(dir, 'AGENTS.md'), readFileSync(join(dir, 'AGENTS.md'), 'utf8').replace('<!-- loadout:begin alpha@1.0.0 -->', '  <!-- loadout:begin alpha@1.0.0 --> ').replace('<!-- loadout:end alpha -->', '\t<!-- loadout:end alpha -->  '));
    expect((await readStatus(scope)).files.filter((f) => f.target === 'AGENTS.md').map((f) => f.state)).toEqual(['ok']);
    await installLoadout({ from: dist, id: 'alpha', agent: 'codex', dir, version: '1.1.0' });
    expect(bytes(dir, 'AGENTS.md').match(/loadout:begin/gu)).toHaveLength(1);
    await uninstallLoadout({ scope, id: 'alpha' });
    expect(bytes(dir, 'AGENTS.md')).toBe('# Mine\n');
  });
});

describe('CLAUDE.md as a symbolic link to AGENTS.md', () => {
  it('stays a link: the install composes into AGENTS.md once, and uninstall gives the project back as committed', async () => {
    const dir = repo({ 'AGENTS.md': '# Mine\n' }, { 'CLAUDE.md': 'AGENTS.md' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'claude-code', dir, version: '1.0.0' });
    expect(lstatSync(join(dir, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'CLAUDE.md'))).toBe('AGENTS.md');
    expect(bytes(dir, 'AGENTS.md').match(/loadout:begin alpha/gu)).toHaveLength(1);
    expect((await readLock(dir)).installs[0]?.files.map((f) => f.target)).not.toContain('CLAUDE.md');
    expect((await readStatus(scope)).ok).toBe(true);
    await installLoadout({ from: dist, id: 'gamma', agent: 'claude-code', dir, version: '1.0.0' });
    await updateLoadouts({ scope, ids: ['alpha'], to: '1.1.0' });
    expect(lstatSync(join(dir, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    await uninstallLoadout({ scope, id: 'alpha' });
    await uninstallLoadout({ scope, id: 'gamma' });
    expect(gitChanges(dir)).toEqual([]);
  });

  it('the other way round (AGENTS.md -> CLAUDE.md), and a link to a file no install targets, are written through and stay links', async () => {
    const dir = repo({ 'CLAUDE.md': '# Mine\n', 'GUIDE.md': '# Guide\n' }, { 'AGENTS.md': 'CLAUDE.md', 'GEMINI.md': 'GUIDE.md' });
    const scope = projectScope(dir);
    await installLoadout({ from: dist, id: 'alpha', agent: 'claude-code', dir, version: '1.0.0' });
    await installLoadout({ from: dist, id: 'alpha', agent: 'gemini-cli', dir, version: '1.0.0' });
    for (const link of ['AGENTS.md', 'GEMINI.md']) expect(lstatSync(join(dir, link)).isSymbolicLink(), link).toBe(true);
    expect(bytes(dir, 'CLAUDE.md')).toContain('Instructions of alpha');
    expect(bytes(dir, 'GUIDE.md')).toContain('<!-- loadout:begin alpha@1.0.0 -->');
    expect((await readStatus(scope)).ok).toBe(true);
    await uninstallLoadout({ scope, id: 'alpha' });
    expect(gitChanges(dir)).toEqual([]);
  });
});
