import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';
import { makeTempDir } from '../helpers/temp.js';

const kindOf = (entry: ReturnType<typeof listFolderEntries>[number]): string => (entry.dirent.isSymbolicLink() ? 'link' : entry.dirent.isDirectory() ? 'folder' : 'file');

describe('listFolderEntries', () => {
  it('lists every entry below a folder by its relative path, a folder before what it holds', () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/b/c.txt'), 'c');
    writeFileSync(join(dir, 'top.txt'), 't');
    const entries = listFolderEntries(dir);
    expect(entries.map((e) => `${e.path} ${kindOf(e)}`).sort()).toEqual(['a folder', 'a/b folder', 'a/b/c.txt file', 'top.txt file']);
    const at = (path: string): number => entries.findIndex((e) => e.path === path);
    expect(at('a')).toBeLessThan(at('a/b'));
    expect(at('a/b')).toBeLessThan(at('a/b/c.txt'));
  });

  // The tree of a build holds its loadouts by links to folders of the store (src/tree/write/output.ts).
  it('lists links to folders as links and never follows them, also a link that points above itself', () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'store/kit'), { recursive: true });
    writeFileSync(join(dir, 'store/kit/AGENTS.md'), '# Kit\n');
    mkdirSync(join(dir, 'tree/loadouts'), { recursive: true });
    symlinkSync('../../store/kit', join(dir, 'tree/loadouts/kit'), 'dir');
    symlinkSync('..', join(dir, 'tree/loadouts/up'), 'dir');
    symlinkSync('missing', join(dir, 'tree/dangling'));
    const entries = listFolderEntries(join(dir, 'tree'));
    expect(entries.map((e) => `${e.path} ${kindOf(e)}`).sort()).toEqual(['dangling link', 'loadouts folder', 'loadouts/kit link', 'loadouts/up link']);
  });

  it('throws the file system error of a folder that is not there', () => {
    const dir = makeTempDir();
    expect(() => listFolderEntries(join(dir, 'nothing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
