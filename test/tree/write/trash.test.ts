/**
 * Collecting many store entries through the trash (trash.ts, store.ts `collectGarbage`): the
 * entries leave the store at once, a detached process deletes them, a trash folder left before
 * goes with it, and a few entries are still removed in place.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectGarbage, listEntries } from '../../../src/tree/write/store.js';
import { deleteTrashLater, Trash, trashFolders } from '../../../src/tree/write/trash.js';
import { makeTempDir } from '../../helpers/temp.js';

/** Writes an entry named `name` as a build leaves one: its record and a file in each of its folders. */
function writeEntry(store: string, name: string): void {
  mkdirSync(join(store, 'api/loadouts'), { recursive: true });
  writeFileSync(join(store, 'api/loadouts', `${name}.json`), '{}\n');
  for (const parent of ['api/loadouts', 'raw', 'download', 'loadouts', 'plugins']) {
    mkdirSync(join(store, parent, name, '1.0.0'), { recursive: true });
    writeFileSync(join(store, parent, name, '1.0.0', 'AGENTS.md'), `# ${name}\n`);
  }
}

/** Resolves true once none of `paths` exists (checked every 50 ms, for at most 60 s). */
async function goneSoon(paths: readonly string[]): Promise<boolean> {
  for (let i = 0; i < 1200; i++) {
    if (paths.every((p) => !existsSync(p))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('the trash of the store', () => {
  it('moves paths under the same names, makes its folder only when it moves one, and skips a missing path', () => {
    const store = makeTempDir();
    writeEntry(store, 'alpha@1-aa');
    const trash = new Trash(store);
    trash.move('raw/missing@1-bb');
    expect(trashFolders(store)).toEqual([]);
    trash.move('api/loadouts/alpha@1-aa.json');
    trash.move('raw/alpha@1-aa');
    const [folder] = trashFolders(store);
    expect(readdirSync(join(folder ?? '', 'raw'))).toEqual(['alpha@1-aa']);
    expect(existsSync(join(folder ?? '', 'api/loadouts/alpha@1-aa.json'))).toBe(true);
    expect(existsSync(join(store, 'raw/alpha@1-aa'))).toBe(false);
  });

  it('collects many entries at once through the trash, which a detached process deletes with a trash folder left before', async () => {
    const store = makeTempDir();
    const names = Array.from({ length: 100 }, (_, n) => `loadout-${n}@1-${n.toString(16)}`);
    for (const name of names) writeEntry(store, name);
    // What a killed build left.
    mkdirSync(join(store, '.trash-left/raw/old@1-ff'), { recursive: true });
    const keep = new Set(names.slice(0, 3));
    expect(collectGarbage(store, listEntries(store), keep)).toBe(97);
    // Out of the store at once, and the kept entries whole.
    expect([...listEntries(store)].sort()).toEqual([...keep].sort());
    for (const name of keep) expect(existsSync(join(store, 'api/loadouts', `${name}.json`))).toBe(true);
    expect(readdirSync(join(store, 'download')).sort()).toEqual([...keep].sort());
    // Then deleted, the older trash with it.
    expect(await goneSoon([join(store, '.trash-left'), ...trashFolders(store)])).toBe(true);
    expect(trashFolders(store)).toEqual([]);
  });

  it('removes a few entries in place, with no trash', () => {
    const store = makeTempDir();
    for (const name of ['alpha@1-aa', 'beta@1-bb']) writeEntry(store, name);
    expect(collectGarbage(store, listEntries(store), new Set(['alpha@1-aa']))).toBe(1);
    expect(trashFolders(store)).toEqual([]);
    expect([...listEntries(store)]).toEqual(['alpha@1-aa']);
    expect(existsSync(join(store, 'plugins/beta@1-bb'))).toBe(false);
    expect(deleteTrashLater(store)).toEqual([]);
  });
});
