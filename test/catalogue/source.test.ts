/**
 * readLoadoutSource (src/catalogue/source.ts) reads at most READ_LIMITS: 64 KB of a file, and
 * nothing more once the loadout's files read hold 256 KB; the sizes on disk are kept for the
 * `size` check. Large files are sparse, so they cost no disk; what lies past the limit is a
 * marker that must not be read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_LIMITS, readLoadoutSource } from '../../src/catalogue/source.js';
import { writeLargeFile } from '../helpers/large-file.js';
import { makeTempDir } from '../helpers/temp.js';

describe('readLoadoutSource', () => {
  it('reads a file over the per-file limit only up to it, and keeps its size on disk', async () => {
    const dir = makeTempDir();
    const folder = join(dir, 'alpha');
    mkdirSync(folder);
    writeFileSync(join(folder, 'loadout.yaml'), 'id: alpha\n');
    writeFileSync(join(folder, 'AGENTS.md'), '# Alpha\n');
    writeLargeFile(join(folder, 'big.txt'), 'line\n'.repeat(10_000), 300_000_000, 'MARKER past the limit\n');
    const stats: string[] = [];
    const source = await readLoadoutSource(dir, 'alpha', 'loadouts/alpha', (rel) => stats.push(rel));
    expect(source.files.get('big.txt')?.byteLength).toBe(READ_LIMITS.fileBytes);
    expect(Buffer.from(source.files.get('big.txt') ?? []).toString('latin1')).not.toContain('MARKER');
    expect(source.oversized).toEqual(new Map([['big.txt', 300_000_000]]));
    expect(new TextDecoder().decode(source.files.get('AGENTS.md'))).toBe('# Alpha\n');
    expect(source.manifestText).toBe('id: alpha\n');
    // Every entry's status is still observed (the build's change detection).
    expect(stats.sort()).toEqual(['', 'AGENTS.md', 'big.txt', 'loadout.yaml']);
  });

  it('reads nothing more once the files read hold the total limit, the manifest not counted', async () => {
    const dir = makeTempDir();
    const folder = join(dir, 'beta');
    mkdirSync(join(folder, 'rules'), { recursive: true });
    const manifest = `id: beta\n# ${'x'.repeat(200_000)}\n`;
    writeFileSync(join(folder, 'loadout.yaml'), manifest);
    // In path order: f1.md … f5.md, 60,000 bytes each (within the per-file limit), then rules/empty.md and rules/z.md.
    const names = ['f1', 'f2', 'f3', 'f4', 'f5'];
    for (const name of names) writeFileSync(join(folder, `${name}.md`), name.repeat(30_000));
    writeFileSync(join(folder, 'rules', 'z.md'), 'z'.repeat(100));
    writeFileSync(join(folder, 'rules', 'empty.md'), '');
    const source = await readLoadoutSource(dir, 'beta');
    expect(source.manifestText).toBe(manifest);
    const read = Object.fromEntries([...source.files].map(([path, bytes]) => [path, bytes.byteLength]));
    // 4 × 60,000 = 240,000 read whole; f5.md gets what is left of 256 KB; then nothing.
    expect(read).toEqual({ ...Object.fromEntries(names.slice(0, 4).map((name) => [`${name}.md`, 60_000])), 'f5.md': READ_LIMITS.totalBytes - 240_000, 'rules/empty.md': 0, 'rules/z.md': 0 });
    expect(source.oversized).toEqual(new Map([['f5.md', 60_000], ['rules/z.md', 100]]));
  });

  it('marks nothing when every file is within the read limits', async () => {
    const dir = makeTempDir();
    const folder = join(dir, 'gamma');
    mkdirSync(folder);
    // Four files at the per-file limit: the total limit exactly.
    const names = ['AGENTS.md', 'b.md', 'c.md', 'd.md'];
    for (const name of names) writeFileSync(join(folder, name), 'a'.repeat(READ_LIMITS.fileBytes));
    expect(names.length * READ_LIMITS.fileBytes).toBe(READ_LIMITS.totalBytes);
    const source = await readLoadoutSource(dir, 'gamma');
    expect(source.oversized).toBeUndefined();
    expect([...source.files.values()].map((bytes) => bytes.byteLength)).toEqual(names.map(() => READ_LIMITS.fileBytes));
  });
});
