/**
 * The one handle on the project (`src/install/project/project-root.ts`, issue 53): every method
 * walks its path again, follows a link only inside the project and outside `.git`, never
 * through a link to the installer's own files, and never writes through a link or over
 * anything at a new file's place.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProject, RefusedPath, type ProjectRoot } from '../../src/install/project/project-root.js';
import { makeTempDir } from '../helpers/temp.js';

/** A project beside an `outside/` folder holding `secret.txt`, with `linked -> ../outside`, `inner -> src`, `CLAUDE.md -> AGENTS.md` and `gitlink -> .git`. */
async function layout(): Promise<{ base: string; project: string; handle: ProjectRoot }> {
  const base = makeTempDir('loadout-handle-');
  const project = join(base, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(project, '.git'));
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside/secret.txt'), 'secret\n');
  writeFileSync(join(project, 'AGENTS.md'), '# Agents\n');
  writeFileSync(join(project, 'src/a.txt'), 'a\n');
  symlinkSync('../outside', join(project, 'linked'));
  symlinkSync('src', join(project, 'inner'));
  symlinkSync('AGENTS.md', join(project, 'CLAUDE.md'));
  symlinkSync('.git', join(project, 'gitlink'));
  return { base, project, handle: await openProject(project) };
}

const refused = async (run: () => Promise<unknown>): Promise<string> => {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedPath);
  return (error as RefusedPath).problem;
};

describe('the handle on the project', () => {
  it('follows a link inside the project, and refuses one that leaves it or leads into .git, in every method', async () => {
    const { base, handle } = await layout();
    expect(Buffer.from((await handle.read('inner/a.txt')) ?? '').toString()).toBe('a\n');
    expect(Buffer.from((await handle.read('CLAUDE.md')) ?? '').toString()).toBe('# Agents\n');
    expect(await handle.placeOf('CLAUDE.md')).toBe('AGENTS.md');
    expect(await handle.linkedPlaceOf('CLAUDE.md')).toBe('AGENTS.md');
    expect(await handle.placeOf('inner/new.md')).toBe('src/new.md');
    const outside: [string, () => Promise<unknown>][] = [
      ['read', () => handle.read('linked/secret.txt')],
      ['list', () => handle.list('linked')],
      ['kindOf', () => handle.kindOf('linked/secret.txt')],
      ['mkdirs', () => handle.mkdirs('linked/x')],
      ['createExclusive', () => handle.createExclusive('linked/new.txt', 'x')],
      ['writeFileAtomic', () => handle.writeFileAtomic('linked/secret.txt', 'x')],
      ['rename', () => handle.rename('src/a.txt', 'linked/a.txt')],
      ['remove', () => handle.remove('linked/secret.txt')],
      ['removeEmptyFolder', () => handle.removeEmptyFolder('linked/x')],
      ['linkExclusive', () => handle.linkExclusive('src/a.txt', 'linked/a.txt')],
    ];
    for (const [name, run] of outside) expect(await refused(run), name).toMatch(/^lands at .*outside.* through the symbolic link linked, outside the project \(expected a place inside /u);
    expect(await refused(() => handle.writeFileAtomic('gitlink/config', 'x'))).toContain('in a .git folder');
    expect(await refused(() => handle.read('.git/config'))).toContain('is in a .git folder');
    expect(readFileSync(join(base, 'outside/secret.txt'), 'utf8')).toBe('secret\n');
    expect(existsSync(join(base, 'outside/new.txt'))).toBe(false);
    expect(await handle.describeLanding('linked/x')).toContain('outside the project');
    expect(await handle.describeLanding('inner/x')).toBeUndefined();
  });

  it('writes through a link inside the project to the file it points to, keeping the link', async () => {
    const { project, handle } = await layout();
    await handle.writeFileAtomic('CLAUDE.md', '# New\n');
    expect(readlinkSync(join(project, 'CLAUDE.md'))).toBe('AGENTS.md');
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toBe('# New\n');
  });

  it('reaches the installer\'s own files through no link, even one inside the project', async () => {
    const { project, handle } = await layout();
    symlinkSync('src', join(project, '.loadout'));
    writeFileSync(join(project, 'lock.json'), '{}\n');
    symlinkSync('lock.json', join(project, 'loadout.lock.json'));
    expect(await refused(() => handle.list('.loadout/backup', { own: true }))).toContain("goes through the symbolic link .loadout, and the installer's own files are never reached through a link");
    expect(await refused(() => handle.mkdirs('.loadout/backup', { own: true }))).toContain('symbolic link .loadout');
    await expect(handle.read('loadout.lock.json', { own: true })).rejects.toThrow('loadout.lock.json is a symbolic link, not a regular file; nothing was read');
    expect(await handle.describeLanding('loadout.lock.json', { own: true })).toContain('is a symbolic link');
    // The same paths as the user's files follow the links.
    expect(await handle.read('loadout.lock.json')).toBeDefined();
  });

  it('creates a file only where nothing is, never through a dangling link', async () => {
    const { base, project, handle } = await layout();
    symlinkSync('../outside/created.txt', join(project, 'dangling'));
    await expect(handle.createExclusive('dangling', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(handle.createExclusive('AGENTS.md', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(existsSync(join(base, 'outside/created.txt'))).toBe(false);
    await handle.createExclusive('src/fresh.txt', 'fresh\n');
    expect(readFileSync(join(project, 'src/fresh.txt'), 'utf8')).toBe('fresh\n');
    // A read through the dangling link finds no place to read.
    expect(await refused(() => handle.read('dangling'))).toContain('which points to nothing');
  });

  it('refuses a FIFO by name instead of blocking, and a file larger than the cap', async () => {
    const { project, handle } = await layout();
    execFileSync('mkfifo', [join(project, 'pipe')]);
    await expect(handle.read('pipe')).rejects.toThrow('pipe is a FIFO (named pipe), not a regular file; nothing was read');
    await expect(handle.read('AGENTS.md', { max: 4 })).rejects.toThrow('AGENTS.md holds more than 4 bytes');
    expect(await handle.read('src')).toBeUndefined();
    await expect(handle.read('src', { own: true })).rejects.toThrow('src is a folder, not a regular file');
  });

  it('lists links without following them, and removes a link, never what it points to', async () => {
    const { base, project, handle } = await layout();
    symlinkSync('../../outside', join(project, 'src/out'));
    expect((await handle.list('src')).map((e) => `${e.path} ${e.kind}`).sort()).toEqual(['a.txt file', 'out link']);
    expect(await handle.remove('src/out')).toBe(true);
    expect(existsSync(join(base, 'outside/secret.txt'))).toBe(true);
    await expect(handle.remove('src')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await handle.removeEmptyFolder('src')).toBe(false);
  });

  it('tells a file\'s second name from a copy of it', async () => {
    const { project, handle } = await layout();
    await handle.linkExclusive('src/a.txt', 'src/b.txt');
    writeFileSync(join(project, 'src/c.txt'), 'a\n');
    expect(await handle.sameFile('src/a.txt', 'src/b.txt')).toBe(true);
    expect(await handle.sameFile('src/a.txt', 'src/c.txt')).toBe(false);
    expect(await handle.identify('src/b.txt')).toBe(await handle.identify('src/a.txt'));
    expect(await handle.identify('src/c.txt')).not.toBe(await handle.identify('src/a.txt'));
  });

  it('in the user scope, follows ~/.config as a folder of the user\'s, never ~/.config/loadout', async () => {
    const home = makeTempDir('loadout-handle-home-');
    mkdirSync(join(home, 'dotfiles/config/loadout'), { recursive: true });
    symlinkSync('dotfiles/config', join(home, '.config'));
    const handle = await openProject(home, { ownArea: '.config/loadout' });
    await handle.createExclusive('.config/loadout/lock.json', '{}\n', { own: true });
    expect(readFileSync(join(home, 'dotfiles/config/loadout/lock.json'), 'utf8')).toBe('{}\n');
    const other = makeTempDir('loadout-handle-home-');
    mkdirSync(join(other, '.config'));
    mkdirSync(join(other, 'elsewhere'));
    symlinkSync('../elsewhere', join(other, '.config/loadout'));
    expect(await refused(async () => (await openProject(other, { ownArea: '.config/loadout' })).read('.config/loadout/lock.json', { own: true }))).toContain('symbolic link .config/loadout');
  });
});
