/**
 * Collecting many store entries through the trash (trash.ts, store.ts `collectGarbage`): the
 * entries leave the store at once, a detached process deletes them, a trash folder left before
 * goes with it, a folder a running deleter has claimed is left to it, and a few entries are
 * still removed in place.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectGarbage, listEntries } from '../../../src/tree/write/store.js';
import { deleteTrashLater, deleteTrashNow, Trash, trashFolders, unclaimedTrashFolders } from '../../../src/tree/write/trash.js';
import { soon } from '../../helpers/soon.js';
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
    // Then deleted, the older trash with it (each folder claimed by a rename first).
    expect(await soon(() => trashFolders(store).length === 0)).toBe(true);
    expect(existsSync(join(store, '.trash-left'))).toBe(false);
  });

  it('deletes a trash folder now, in this process, and leaves one that is gone or taken by a deleter (no error)', () => {
    const store = makeTempDir();
    writeEntry(store, 'alpha@1-aa');
    const trash = new Trash(store);
    expect(trash.folder).toBeUndefined();
    trash.take(join(store, 'raw'));
    const folder = trash.folder ?? '';
    expect(trashFolders(store)).toEqual([folder]);
    deleteTrashNow(folder);
    expect(trashFolders(store)).toEqual([]);
    expect(readdirSync(store).sort()).toEqual(['api', 'download', 'loadouts', 'plugins']);
    deleteTrashNow(folder);
    // Claimed by a running deleter (this process stands in for it): not this call's to delete.
    const other = new Trash(store);
    other.take(join(store, 'download'));
    const claimed = `${other.folder ?? ''}.deleting-${process.pid}`;
    renameSync(other.folder ?? '', claimed);
    deleteTrashNow(other.folder ?? '');
    expect(existsSync(join(claimed, 'taken-0', 'alpha@1-aa'))).toBe(true);
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

  it('starts no deleter for a folder a running deleter has claimed, and takes over one whose deleter has ended', async () => {
    const store = makeTempDir();
    const trash = (name: string): string => {
      mkdirSync(join(store, name, 'raw/old@1-ff'), { recursive: true });
      writeFileSync(join(store, name, 'raw/old@1-ff/AGENTS.md'), '# old\n');
      return join(store, name);
    };
    // Claimed by a process that runs (this one): another deleter is deleting it.
    const running = trash(`.trash-aaaaaa.deleting-${process.pid}`);
    expect(deleteTrashLater(store)).toEqual([]);
    // Claimed by a deleter that has ended, and one never claimed: both go.
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const left = trash(`.trash-bbbbbb.deleting-${ended}`);
    const fresh = trash('.trash-cccccc');
    expect(unclaimedTrashFolders(store).sort()).toEqual([left, fresh]);
    expect(deleteTrashLater(store).sort()).toEqual([left, fresh]);
    // Claimed (renamed) by the new deleter, then deleted: only the running deleter's folder stays.
    expect(await soon(() => trashFolders(store).length === 1)).toBe(true);
    expect(trashFolders(store)).toEqual([running]);
    expect(existsSync(join(running, 'raw/old@1-ff/AGENTS.md'))).toBe(true);
  });
});
