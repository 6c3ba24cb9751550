import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TreeFiles } from '../../../src/tree/write/tree-files.js';
import { makeTempDir } from '../../helpers/temp.js';

describe('TreeFiles.write', () => {
  it('writes text larger than its buffer as the same UTF-8 bytes as Buffer.from, characters split across chunks included', () => {
    const files = new TreeFiles(makeTempDir());
    // 256 KiB less one byte of ASCII, then a four-byte character that cannot fit the first chunk,
    // then two-byte and three-byte characters and a lone surrogate (written as U+FFFD by both).
    const text = `${'a'.repeat(256 * 1024 - 1)}😀${'é€'.repeat(200_000)}\ud800 end`;
    const bytes = files.write('docs/big.txt', text);
    const expected = Buffer.from(text, 'utf8');
    expect(bytes).toBe(expected.byteLength);
    expect(readFileSync(join(files.root, 'docs/big.txt')).equals(expected)).toBe(true);
  });

  it('replaces a file that is there (as a new file, never through a hard link), and writes bytes and empty text', () => {
    const files = new TreeFiles(makeTempDir());
    files.write('a.json', 'first');
    files.link('b.json', files.resolve('a.json'));
    expect(files.write('a.json', new Uint8Array([1, 2, 3]))).toBe(3);
    expect([...readFileSync(files.resolve('a.json'))]).toEqual([1, 2, 3]);
    expect(readFileSync(files.resolve('b.json'), 'utf8')).toBe('first');
    expect(files.write('empty.txt', '')).toBe(0);
    expect(readFileSync(files.resolve('empty.txt'), 'utf8')).toBe('');
  });
});

describe('TreeFiles folders', () => {
  it('makes the folders a write lacks, takes those made by another writer, and makes again a known folder that is gone', () => {
    const root = makeTempDir('loadout-tree-files-');
    const files = new TreeFiles(root, { folders: ['known'] });
    const other = new TreeFiles(root);
    other.write('a/b/c/first.md', 'one\n');
    // a/ and a/b/ exist already (the other writer's): taken on EEXIST.
    files.write('a/b/d/e/second.md', 'two\n');
    expect(readFileSync(join(root, 'a/b/c/first.md'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(root, 'a/b/d/e/second.md'), 'utf8')).toBe('two\n');
    // `known` was said to exist but does not: made when a write below it needs it.
    files.write('known/deeper/third.md', 'three\n');
    expect(readFileSync(join(root, 'known/deeper/third.md'), 'utf8')).toBe('three\n');
    files.mkdir('empty/folder');
    expect(lstatSync(join(root, 'empty/folder')).isDirectory()).toBe(true);
  });

  it('fails, naming the path, where a file stands in the place of a folder', () => {
    const root = makeTempDir('loadout-tree-files-');
    const files = new TreeFiles(root);
    files.write('taken', 'a file\n');
    expect(() => files.write('taken/inside.md', 'x')).toThrow(/ENOTDIR.*taken/u);
    expect(readFileSync(join(root, 'taken'), 'utf8')).toBe('a file\n');
  });
});

describe('TreeFiles.link and TreeFiles.symlink', () => {
  it('make a new entry, or replace the file, link or folder at its place (the folder with what is below it for a symbolic link)', () => {
    const files = new TreeFiles(makeTempDir());
    files.write('one.txt', 'one');
    files.write('two.txt', 'two');
    files.write('folder/inside.txt', 'in');
    files.link('linked.txt', files.resolve('one.txt'));
    expect(lstatSync(files.resolve('linked.txt')).ino).toBe(lstatSync(files.resolve('one.txt')).ino);
    files.link('linked.txt', files.resolve('two.txt'));
    expect(readFileSync(files.resolve('linked.txt'), 'utf8')).toBe('two');
    expect(readFileSync(files.resolve('one.txt'), 'utf8')).toBe('one');
    // A hard link never replaces a folder: that would take what is below it.
    expect(() => files.link('folder', files.resolve('one.txt'))).toThrow();
    expect(readFileSync(files.resolve('folder/inside.txt'), 'utf8')).toBe('in');

    files.write('target/a.txt', 'a');
    files.symlink('folder', files.resolve('target'));
    expect(lstatSync(files.resolve('folder')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(files.resolve('folder'))).toBe('target');
    files.write('other/b.txt', 'b');
    files.symlink('folder', files.resolve('other'));
    expect(readFileSync(files.resolve('folder/b.txt'), 'utf8')).toBe('b');
    files.symlink('two.txt', files.resolve('other'));
    expect(readdirSync(files.resolve('two.txt'))).toEqual(['b.txt']);
  });
});

describe('TreeFiles.remove', () => {
  it('removes a folder with what is below it, or hands what is there to setAside instead, which moves it away; a missing path is left alone', () => {
    const root = makeTempDir();
    const files = new TreeFiles(join(root, 'tree'));
    files.write('docs/a/one.txt', 'one');
    files.write('docs/b.txt', 'two');
    files.write('kept.txt', 'three');
    files.remove('docs/a');
    expect(readdirSync(files.resolve('docs'))).toEqual(['b.txt']);
    const aside: string[] = [];
    const setAside = (file: string): void => {
      aside.push(file);
      renameSync(file, join(root, `aside-${aside.length}`));
    };
    files.remove('docs', { setAside });
    files.remove('missing/path.txt', { setAside });
    expect(aside).toEqual([files.resolve('docs')]);
    expect(readdirSync(files.root)).toEqual(['kept.txt']);
    expect(readFileSync(join(root, 'aside-1', 'b.txt'), 'utf8')).toBe('two');
    // The folder made before is made again by the next write below it.
    files.write('docs/c.txt', 'four');
    expect(readFileSync(files.resolve('docs/c.txt'), 'utf8')).toBe('four');
  });
});

describe('TreeFiles, text a piece at a time', () => {
  /** Pieces of `text` cut at the given places (never inside a surrogate pair). */
  function* cut(text: string, every: number): Generator<string> {
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + every);
      if (end < text.length && /[\ud800-\udbff]/u.test(text[end - 1] ?? '')) end++;
      yield text.slice(at, end);
      at = end;
    }
  }
  const text = `${'a'.repeat(256 * 1024 - 2)}😀${'é€'.repeat(150_000)} end`;

  it('writes the pieces as the bytes of their text joined, across chunk boundaries', () => {
    const files = new TreeFiles(makeTempDir());
    for (const every of [1, 7, 1000, 300_000]) {
      const bytes = files.write(`p${every}.txt`, cut(text, every));
      const expected = Buffer.from(text, 'utf8');
      expect(bytes).toBe(expected.byteLength);
      expect(readFileSync(files.resolve(`p${every}.txt`)).equals(expected)).toBe(true);
    }
  });

  it('writePaced awaits the pauses it is given, writes the same bytes under a temporary name, and renames it into place', async () => {
    const files = new TreeFiles(makeTempDir(), { atomic: true });
    files.write('doc.txt', 'old');
    let pauses = 0;
    let seenDuring: string[] = [];
    const bytes = await files.writePaced('doc.txt', cut(text, 50_000), () => {
      pauses++;
      // While it writes, the file still holds the old text; the new one is a dot file beside it.
      seenDuring = readdirSync(files.root);
      expect(readFileSync(files.resolve('doc.txt'), 'utf8')).toBe('old');
      return new Promise((resolve) => setImmediate(resolve));
    });
    expect(pauses).toBeGreaterThan(10);
    expect(seenDuring.some((name) => name.startsWith('.doc.txt.'))).toBe(true);
    expect(bytes).toBe(Buffer.byteLength(text));
    expect(readFileSync(files.resolve('doc.txt'), 'utf8')).toBe(text);
    expect(readdirSync(files.root)).toEqual(['doc.txt']);
  });

  it('writePaced leaves the old file and no temporary one when a pause throws, and a second write meanwhile gets its own buffer', async () => {
    const files = new TreeFiles(makeTempDir(), { atomic: true });
    files.write('doc.txt', 'old');
    let n = 0;
    const stopped = files.writePaced('doc.txt', cut(text, 10_000), () => {
      if (++n === 3) {
        // Another write while the paced one holds the shared buffer.
        files.write('other.txt', cut(text, 999));
        return Promise.reject(new Error('stopped'));
      }
      return undefined;
    });
    await expect(stopped).rejects.toThrow('stopped');
    expect(readFileSync(files.resolve('doc.txt'), 'utf8')).toBe('old');
    expect(readFileSync(files.resolve('other.txt'), 'utf8')).toBe(text);
    expect(readdirSync(files.root).sort()).toEqual(['doc.txt', 'other.txt']);
  });

  it('writePaced refuses a tree that is not atomic, naming the path', async () => {
    await expect(new TreeFiles(makeTempDir()).writePaced('a.txt', ['x'], () => undefined)).rejects.toThrow(/"a.txt".*atomic/u);
  });
});
