/**
 * The build cache file (cache.ts): what buildCachePieces writes, readBuildCache reads back, the
 * states at once and the listings when asked for, whatever the text holds (UTF-8 of several
 * bytes a character) and however the file was cut short.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILD_CACHE_FILE, buildCachePieces, readBuildCache, type CachedLoadout } from '../../../src/tree/incremental/cache.js';
import type { CatalogueListing } from '../../../src/tree/render/catalogue-entry.js';
import { makeTempDir } from '../../helpers/temp.js';

const FINGERPRINT = 'f'.repeat(64);

/** A loadout as the cache keeps it: the fields the reader checks, and `text` in its state and listing. */
function cached(id: string, text: string): CachedLoadout {
  // The reader checks the listing's shape only where it reads (row.id, skills, discovery).
  const listing = { row: { id, title: text }, skills: text, discovery: { skills: [], legacy: [] } } as unknown as CatalogueListing;
  return { state: { key: `key ${text}`, name: `${id}@1-ab`, versions: ['1.0.0'], warnings: [text], dirty: false, stamp: { tree: 'a'.repeat(40) } }, listing };
}

function write(dir: string, text: string | Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, BUILD_CACHE_FILE), text);
}

describe('the build cache file', () => {
  it('reads back the states and listings it was written with, for any texts and any number of loadouts', () => {
    const root = makeTempDir();
    let n = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/u), { maxLength: 12 }), fc.array(fc.string({ unit: 'binary' }), { minLength: 12, maxLength: 12 }), (ids, texts) => {
        const loadouts = new Map(ids.sort().map((id, i) => [id, cached(id, texts[i] ?? '')]));
        const dir = join(root, String(n++));
        write(dir, [...buildCachePieces(FINGERPRINT, 'c'.repeat(40), loadouts)].join(''));
        const cache = readBuildCache(dir, FINGERPRINT);
        expect(cache?.head).toBe('c'.repeat(40));
        expect(new Map(cache?.states)).toEqual(new Map([...loadouts].map(([id, l]) => [id, l.state])));
        expect(new Map(cache?.listings())).toEqual(new Map([...loadouts].map(([id, l]) => [id, l.listing])));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps what a file cut short still holds whole: the states before the cut, the listings before it', () => {
    const root = makeTempDir();
    const loadouts = new Map(['alpha', 'beta', 'gamma'].map((id) => [id, cached(id, `${id} — café ✓ 日本`)]));
    const text = [...buildCachePieces(FINGERPRINT, undefined, loadouts)].join('');
    const lines = text.split('\n');
    // Cut inside beta's state line: alpha's state alone, and no listing (none is in the file).
    write(join(root, 'states'), `${lines.slice(0, 2).join('\n')}\n${(lines[2] ?? '').slice(0, 20)}`);
    const cutInStates = readBuildCache(join(root, 'states'), FINGERPRINT);
    expect([...(cutInStates?.states.keys() ?? [])]).toEqual(['alpha']);
    expect(cutInStates?.listings().size).toBe(0);
    // Cut inside gamma's listing line, within a character of several bytes: every state, two listings.
    const cut = Buffer.from(text).subarray(0, Buffer.byteLength(text) - Buffer.byteLength('本"}}\n'));
    write(join(root, 'listings'), cut);
    const cutInListings = readBuildCache(join(root, 'listings'), FINGERPRINT);
    expect([...(cutInListings?.states.keys() ?? [])]).toEqual(['alpha', 'beta', 'gamma']);
    expect([...(cutInListings?.listings().keys() ?? [])]).toEqual(['alpha', 'beta']);
    expect(cutInListings?.listings().get('beta')?.skills).toBe('beta — café ✓ 日本');
    // Another build's settings: nothing.
    expect(readBuildCache(join(root, 'listings'), 'e'.repeat(64))).toBeUndefined();
  });

  it('reads the listings from the file the states came from, and gives none when another file has replaced it since', () => {
    const root = makeTempDir();
    const text = (suffix: string): string => [...buildCachePieces(FINGERPRINT, undefined, new Map(['alpha', 'beta'].map((id) => [id, cached(id, `${id}${suffix}`)])))].join('');
    write(join(root, 'kept'), text(''));
    const kept = readBuildCache(join(root, 'kept'), FINGERPRINT);
    expect([...(kept?.listings().keys() ?? [])]).toEqual(['alpha', 'beta']);
    // Replaced (a new file renamed over it, as a tree's writer does) between the states and the listings.
    write(join(root, 'replaced'), text(''));
    const replaced = readBuildCache(join(root, 'replaced'), FINGERPRINT);
    write(join(root, 'next'), text(' and more'));
    renameSync(join(root, 'next', BUILD_CACHE_FILE), join(root, 'replaced', BUILD_CACHE_FILE));
    expect([...(replaced?.states.keys() ?? [])]).toEqual(['alpha', 'beta']);
    expect(replaced?.listings().size).toBe(0);
    // A header whose length of the states is not a length: nothing.
    write(join(root, 'bad'), text('').replace(/"statesBytes":\d+/u, '"statesBytes":-1'));
    expect(readBuildCache(join(root, 'bad'), FINGERPRINT)).toBeUndefined();
  });
});
