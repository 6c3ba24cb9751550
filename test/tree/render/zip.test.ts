/**
 * `writeZip` (src/tree/render/zip.ts): deterministic archives that another library (JSZip) and
 * Info-ZIP's `unzip` read back, with the fixed date and mode in every time zone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import JSZip from 'jszip';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflate, windowBitsFor, writeZip, ZipContents, type ZipEntry } from '../../../src/tree/render/zip.js';
import { runProcess } from '../../helpers/cli.js';

const ENTRIES: ZipEntry[] = [
  { path: 'skills/b/SKILL.md', data: '---\nname: b\n---\n' },
  { path: 'AGENTS.md', data: `# Agents\n\n${'Repeat this line so that it compresses.\n'.repeat(200)}` },
  { path: 'bin/data.bin', data: new Uint8Array([0, 1, 2, 255, 254]) },
  { path: 'empty.md', data: '' },
  { path: 'ünïcode/名前.md', data: 'é\n' },
];

describe('writeZip', () => {
  it('gives the same bytes for the same entries in any order', async () => {
    const a = writeZip(ENTRIES);
    const b = writeZip([...ENTRIES].reverse());
    expect(a.equals(b)).toBe(true);
  });

  it('writes entries sorted by path, deflated, with the fixed date and mode 0644, that JSZip reads back', async () => {
    const zip = await JSZip.loadAsync(writeZip(ENTRIES));
    const names = Object.keys(zip.files);
    expect(names).toEqual([...ENTRIES.map((e) => e.path)].sort());
    for (const entry of ENTRIES) {
      const file = zip.files[entry.path];
      expect(file?.dir).toBe(false);
      expect(file?.unixPermissions).toBe(0o100644);
      // JSZip reads the DOS date as UTC: the fields are 1980-01-01 00:00:00.
      expect(file?.date.toISOString()).toBe('1980-01-01T00:00:00.000Z');
      const data = await file?.async('uint8array');
      expect(Buffer.from(data ?? []).equals(Buffer.from(typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data))).toBe(true);
    }
  });

  it('compresses what compresses', async () => {
    const zip = writeZip([ENTRIES[1] as ZipEntry]);
    expect(zip.length).toBeLessThan(Buffer.byteLength(ENTRIES[1]?.data as string) / 4);
  });

  it('compresses a content once for every archive written with one ZipContents, and every archive reads back whole', async () => {
    const contents = new ZipContents();
    const text = ENTRIES[1]?.data as string;
    const first = writeZip([{ path: 'AGENTS.md', data: text }, { path: 'b.md', data: 'b' }], contents);
    const second = writeZip([{ path: 'x/AGENTS.md', data: `${text}` }, { path: 'c.md', data: 'b' }], contents);
    // One compressed content for both archives: the same object, found by value.
    expect(contents.deflate(`${text.slice(0, 5)}${text.slice(5)}`)).toBe(contents.deflate(text));
    // The same archive as one written with its own contents.
    expect(first.equals(writeZip([{ path: 'b.md', data: 'b' }, { path: 'AGENTS.md', data: text }]))).toBe(true);
    const zip = await JSZip.loadAsync(second);
    expect(await zip.files['x/AGENTS.md']?.async('string')).toBe(text);
    expect(await zip.files['c.md']?.async('string')).toBe('b');
  });

  it('sizes the window to the content and gives the bytes of the default window (level 3, 32 KiB)', () => {
    expect([0, 249, 250, 761, 762, 4096, 32_505, 1_000_000].map(windowBitsFor)).toEqual([9, 9, 10, 10, 11, 13, 15, 15]);
    // Text that repeats at every distance, up to past the default window, and sizes at the windows' edges.
    const sizes = fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(249, 250, 251, 761, 762, 763, 16_121, 16_122, 16_123, 32_505, 32_506, 32_507));
    const contents = fc.tuple(sizes, fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 2 ** 31 })).map(([size, words, seed]) => {
      let text = '';
      for (let i = seed; text.length < size; i = (i * 1_103_515_245 + 12_345) % 2 ** 31) text += words[i % words.length] as string;
      return text.slice(0, size);
    });
    fc.assert(
      fc.property(contents, (text) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(Buffer.from(deflate(text).data).equals(deflateRawSync(bytes, { level: 3 }))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses two entries at one path', async () => {
    expect(() => writeZip([{ path: 'a.md', data: '1' }, { path: 'a.md', data: '2' }])).toThrow('two zip entries at a.md');
  });

  it('writes the same bytes in every time zone', async () => {
    const here = writeZip(ENTRIES);
    const script = `import { writeZip } from ${JSON.stringify(new URL('../../../src/tree/render/zip.ts', import.meta.url).href)};
const entries = ${JSON.stringify(ENTRIES.map((e) => ({ path: e.path, data: typeof e.data === 'string' ? e.data : [...e.data] })))};
const zip = writeZip(entries.map((e) => ({ path: e.path, data: typeof e.data === 'string' ? e.data : new Uint8Array(e.data) })));
process.stdout.write(zip.toString('base64'));`;
    const dir = mkdtempSync(join(tmpdir(), 'loadout-zip-tz-'));
    try {
      const file = join(dir, 'zip.mts');
      writeFileSync(file, script);
      const tsx = new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname;
      for (const tz of ['America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Kiritimati', 'UTC']) {
        const run = await runProcess(process.execPath, [tsx, file], dir, { PATH: process.env['PATH'] ?? '', TZ: tz });
        expect(run.code, run.stderr).toBe(0);
        expect(Buffer.from(run.stdout, 'base64').equals(here), tz).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is read by Info-ZIP unzip, with the date and mode it stores', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadout-zip-unzip-'));
    try {
      writeFileSync(join(dir, 'a.zip'), writeZip(ENTRIES));
      execFileSync('unzip', ['-t', '-qq', 'a.zip'], { cwd: dir });
      const listing = execFileSync('zipinfo', ['a.zip', 'AGENTS.md'], { cwd: dir, encoding: 'utf8' });
      expect(listing).toMatch(/^-rw-r--r--.* defN 80-Jan-01 00:00 AGENTS\.md$/mu);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
