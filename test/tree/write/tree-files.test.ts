import { readFileSync } from 'node:fs';
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
