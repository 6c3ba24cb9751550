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
 *
 * Checking the 150,000 entries of 10,000 loadouts is 150,000 `lstat` calls, about 3.5 µs each
 * on this machine: the status numbers are hashed once per loadout as binary (not as a line
 * of text per entry), which took the check from 5.3 to 3.6 µs an entry.
 */
import { createHash } from 'node:crypto';
import { lstatSync, type Stats } from 'node:fs';
import type { StatObserver } from '../../catalogue/source.js';

/**
 * How recent a change makes a stamp unsafe, in ms: above the coarsest time stamps of the file
 * systems a catalogue lives on (FAT's 2 s; ext4 and APFS keep nanoseconds, updated per tick).
 */
export const RACY_MS = 3000;

/** A loadout folder's stamp: the entries it covers (relative paths, `''` for the folder) and a digest of their status. */
export interface FolderStamp {
  paths: string[];
  /** Hex sha256 over the status numbers of the entries, in `paths` order ({@link STATUS_FIELDS} each, as float64). */
  digest: string;
}

/** Numbers of an entry's status that a stamp covers: inode, mode, size, modification and change times (ms). */
const STATUS_FIELDS = 5;

function putStatus(numbers: Float64Array, at: number, s: Stats): void {
  numbers[at] = s.ino;
  numbers[at + 1] = s.mode;
  numbers[at + 2] = s.size;
  numbers[at + 3] = s.mtimeMs;
  numbers[at + 4] = s.ctimeMs;
}

const digestOf = (numbers: Float64Array): string => createHash('sha256').update(numbers).digest('hex');

/**
 * Collects the status of a folder's entries while it is read (pass `observe` to
 * `readLoadoutSource`), then gives the stamp, or undefined when an entry changed less than
 * {@link RACY_MS} before `takenAt` (ms since the epoch, read before the folder was).
 */
export function stampCollector(takenAt: number): { observe: StatObserver; stamp: () => FolderStamp | undefined } {
  const paths: string[] = [];
  const statuses: Stats[] = [];
  let racy = false;
  return {
    observe: (rel, stats) => {
      paths.push(rel);
      statuses.push(stats);
      racy ||= Math.max(stats.mtimeMs, stats.ctimeMs) > takenAt - RACY_MS;
    },
    stamp: () => {
      if (racy) return undefined;
      const numbers = new Float64Array(statuses.length * STATUS_FIELDS);
      statuses.forEach((s, i) => putStatus(numbers, i * STATUS_FIELDS, s));
      return { paths, digest: digestOf(numbers) };
    },
  };
}

/**
 * True when the folder `dir` still has the stamp `stamp`: every entry it covers is there with
 * the same status. A new or removed entry changes its folder's modification time, so it shows
 * too. Reads status only (one `lstat` per entry).
 */
export function stampHolds(dir: string, stamp: FolderStamp): boolean {
  const numbers = new Float64Array(stamp.paths.length * STATUS_FIELDS);
  for (let i = 0; i < stamp.paths.length; i++) {
    const rel = stamp.paths[i] as string;
    // The paths are a folder's own (no `..`): plain concatenation is the path.
    const stats = lstatSync(rel === '' ? dir : `${dir}/${rel}`, { throwIfNoEntry: false });
    if (stats === undefined) return false;
    putStatus(numbers, i * STATUS_FIELDS, stats);
  }
  return digestOf(numbers) === stamp.digest;
}
