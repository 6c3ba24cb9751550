/**
 * Change detection from file status, as git's index does it (git's "racy git" note,
 * Documentation/technical/racy-git.txt): a rebuild tells that a loadout folder is unchanged
 * from the status of its folders and files (inode, size, mode, modification and change
 * times) without reading them, so the unchanged loadouts of a large catalogue cost a few
 * `lstat` calls each instead of a read, a hash and a git query (issue 13).
 *
 * A folder's modification time changes when an entry is added, removed or renamed in it, a
 * file's when its bytes change, and its change time on any change of its status, so the
 * status of every folder and file of the loadout covers everything it reads. An entry
 * changed less than {@link RACY_MS} before the stamp was taken could change again within the
 * same time-stamp tick without its status showing it: such a folder gets no stamp, and the
 * next build reads it again.
 */
import { createHash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { StatObserver } from '../catalogue/source.js';

/**
 * How recent a change makes a stamp unsafe, in ms: above the coarsest time stamps of the file
 * systems a catalogue lives on (FAT's 2 s; ext4 and APFS keep nanoseconds, updated per tick).
 */
export const RACY_MS = 3000;

/** A loadout folder's stamp: the entries it covers (relative paths, `''` for the folder) and a digest of their status. */
export interface FolderStamp {
  paths: string[];
  /** Hex sha256 over each entry's path and status, in `paths` order. */
  digest: string;
}

/**
 * Collects the status of a folder's entries while it is read (pass `observe` to
 * `readLoadoutSource`), then gives the stamp, or undefined when an entry changed less than
 * {@link RACY_MS} before `takenAt` (ms since the epoch, read before the folder was).
 */
export function stampCollector(takenAt: number): { observe: StatObserver; stamp: () => FolderStamp | undefined } {
  const paths: string[] = [];
  const hash = createHash('sha256');
  let racy = false;
  return {
    observe: (rel, stats) => {
      paths.push(rel);
      hash.update(statusLine(rel, stats));
      racy ||= Math.max(stats.mtimeMs, stats.ctimeMs) > takenAt - RACY_MS;
    },
    stamp: () => (racy ? undefined : { paths, digest: hash.digest('hex') }),
  };
}

/**
 * True when the folder `dir` still has the stamp `stamp`: every entry it covers is there with
 * the same status. A new or removed entry changes its folder's modification time, so it shows
 * too. Reads status only (one `lstat` per entry).
 */
export function stampHolds(dir: string, stamp: FolderStamp): boolean {
  const hash = createHash('sha256');
  for (const rel of stamp.paths) {
    const stats = lstatSync(rel === '' ? dir : join(dir, rel), { throwIfNoEntry: false });
    if (stats === undefined) return false;
    hash.update(statusLine(rel, stats));
  }
  return hash.digest('hex') === stamp.digest;
}

function statusLine(rel: string, s: Stats): string {
  return `${rel}\0${s.ino}\0${s.mode}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\n`;
}
