/**
 * `loadout.lock.json`: what `loadout install` put into a project (DESIGN.md section 8), so an
 * install can be repeated exactly (`--frozen`) and a file the user edited since is never
 * overwritten without `--force`. Deterministic: no timestamps, entries sorted.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';

/** The lock file's name, at the project root. */
export const LOCK_FILE = 'loadout.lock.json';

/** One installed loadout for one agent. */
export interface LockEntry {
  id: string;
  agent: string;
  version: string;
  /** The catalogue it came from (base URL or folder). */
  source: string;
  /** Every file written, by target, with the sha256 of the bytes written. */
  files: { target: string; path: string; sha256: string }[];
}

/** The lock document. */
export interface LockFile {
  lockfileVersion: 1;
  installs: LockEntry[];
}

/**
 * Reads the project's lock; an empty one when there is none.
 * @throws LoadoutError `invalid_content` naming the file when it is not a lock document.
 */
export async function readLock(projectDir: string): Promise<LockFile> {
  const path = join(projectDir, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfileVersion: 1, installs: [] };
    throw new LoadoutError('io', `cannot read ${path}`, { cause: error });
  }
  try {
    const lock = JSON.parse(text) as LockFile;
    if (lock.lockfileVersion !== 1 || !Array.isArray(lock.installs)) throw new Error('expected {"lockfileVersion": 1, "installs": [...]}');
    return lock;
  } catch (cause) {
    throw new LoadoutError('invalid_content', `${path} is not a loadout lock file (${(cause as Error).message})`, { cause, hint: 'Fix or delete it; it is rewritten on the next install.' });
  }
}

/** Replaces the entry for (`entry.id`, `entry.agent`) and writes the lock. */
export async function writeLock(projectDir: string, lock: LockFile, entry: LockEntry): Promise<void> {
  const installs = [...lock.installs.filter((e) => !(e.id === entry.id && e.agent === entry.agent)), entry].sort((a, b) => (a.id === b.id ? (a.agent < b.agent ? -1 : 1) : a.id < b.id ? -1 : 1));
  await writeFile(join(projectDir, LOCK_FILE), `${JSON.stringify({ lockfileVersion: 1, installs }, null, 2)}\n`);
}

/** The sha256 the lock recorded for `target` (any install), or undefined. */
export function lockedHash(lock: LockFile, target: string): string | undefined {
  for (const entry of lock.installs) {
    const file = entry.files.find((f) => f.target === target);
    if (file !== undefined) return file.sha256;
  }
  return undefined;
}
