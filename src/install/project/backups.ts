/**
 * Pruning the backups of a scope once nothing is installed (issue 36, point 11). An install
 * copies the user's files it replaces to `<backupRoot>/<time>/<target>` (run-plan.ts), and
 * uninstalling puts them back; after the last uninstall the copies whose bytes the project
 * holds again at the same place are redundant, and `.loadout/backup/` would otherwise stay
 * behind in `git status` for ever. A copy that differs from what the project holds now (or
 * whose place is empty) is the only copy of something of the user's: it is kept and named.
 *
 * Only called when the lock is gone: a lock's `originals` may still point into the backups.
 * Never follows a symbolic link, in the backups or in the project.
 */
import { lstat, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { InstallScope } from './scope.js';

/** What {@link pruneBackups} did, paths relative to the scope's root with forward slashes. */
export interface PrunedBackups {
  /** Backup copies removed: the project holds the same bytes at the same place. */
  removed: string[];
  /** Backup copies kept: the project holds something else there, or nothing. */
  kept: string[];
}

/** The regular files below `dir` (relative, forward slashes); symbolic links and other kinds are left out. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
  const found: string[] = [];
  for (const entry of entries) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesBelow(join(dir, entry.name), path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** True when `a` and `b` are both regular files (not links) with the same bytes. */
async function sameRegularFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([lstat(a).catch(() => undefined), lstat(b).catch(() => undefined)]);
  if (sa?.isFile() !== true || sb?.isFile() !== true || sa.size !== sb.size) return false;
  const [ba, bb] = await Promise.all([readFile(a), readFile(b)]);
  return ba.equals(bb);
}

/** Removes the empty folders below and including `dir`, deepest first; leaves any that hold something. */
async function removeEmptyFolders(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return;
  for (const entry of entries) if (entry.isDirectory()) await removeEmptyFolders(join(dir, entry.name));
  await rmdir(dir).catch(() => undefined);
}

/**
 * Removes each backup copy of `scope` whose bytes the project holds again at the same place,
 * then the folders left empty: the backup folder, and its parent (`.loadout/`) when empty.
 * @throws the file system's error when a folder or file cannot be read or removed
 */
export async function pruneBackups(scope: InstallScope): Promise<PrunedBackups> {
  const root = join(scope.root, ...scope.backupRoot.split('/'));
  const result: PrunedBackups = { removed: [], kept: [] };
  for (const run of await readdir(root, { withFileTypes: true }).catch(() => [])) {
    if (!run.isDirectory()) continue;
    for (const path of await filesBelow(join(root, run.name))) {
      const copy = join(root, run.name, ...path.split('/'));
      const where = `${scope.backupRoot}/${run.name}/${path}`;
      if (await sameRegularFile(copy, join(scope.root, ...path.split('/')))) {
        await rm(copy);
        result.removed.push(where);
      } else result.kept.push(where);
    }
  }
  await removeEmptyFolders(root);
  await rmdir(dirname(root)).catch(() => undefined);
  return result;
}
