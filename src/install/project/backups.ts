/**
 * Pruning the backups of a scope once nothing is installed (issue 36, point 11). An install
 * copies the user's files it replaces to `<backupRoot>/<time>/<target>` (run-plan.ts), and
 * uninstalling puts them back; after the last uninstall the copies whose bytes the project
 * holds again at the same place are redundant, and `.loadout/backup/` would otherwise stay
 * behind in `git status` for ever. A copy that differs from what the project holds now (or
 * whose place is empty) is the only copy of something of the user's: it is kept and named.
 *
 * Only called when the lock is gone: a lock's `originals` may still point into the backups.
 * Everything goes through the project's handle (`project-root.ts`): the backup folder is one
 * of the installer's own, so neither it nor `.loadout/` nor anything below may be a symbolic
 * link; a backup folder reached through one is left alone and said so (issue 53, point 1: a
 * cloned repository's `.loadout/backup -> ../../..` made this walk and empty the user's home).
 * A link inside the backups is never followed nor removed, and a copy is compared only with a
 * regular file of the project that no link leads out of it to.
 */
import { posix } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { RefusedPath, type ProjectRoot } from './project-root.js';
import { openScope, type InstallScope } from './scope.js';

/** What {@link pruneBackups} did, paths relative to the scope's root with forward slashes. */
export interface PrunedBackups {
  /** Backup copies removed: the project holds the same bytes at the same place. */
  removed: string[];
  /** Backup copies kept: the project holds something else there, or nothing. */
  kept: string[];
  /** Why the backup folder was not looked into at all (it is reached through a symbolic link), when it was not. */
  refused?: string;
}

/** True when the project holds, at `path`, a regular file (no link at its end) with the bytes of the backup copy `copy`. */
async function heldAgain(project: ProjectRoot, copy: string, path: string): Promise<boolean> {
  try {
    if ((await project.kindOf(path)) !== 'file') return false;
    const [saved, now] = await Promise.all([project.read(copy, { own: true }), project.read(path)]);
    return saved !== undefined && now !== undefined && Buffer.compare(saved, now) === 0;
  } catch (error) {
    // A place the handle refuses (a link out of the project, a FIFO) holds nothing of the copy's.
    if (error instanceof LoadoutError) return false;
    throw error;
  }
}

/**
 * Removes each backup copy of `scope` whose bytes the project holds again at the same place,
 * then the folders left empty: the backup folder, and its parent (`.loadout/`) when empty.
 * `project` is the scope's handle (opened here when not given).
 * @throws the file system's error when a folder or file cannot be read or removed
 */
export async function pruneBackups(scope: InstallScope, project?: ProjectRoot): Promise<PrunedBackups> {
  const handle = project ?? (await openScope(scope));
  const root = scope.backupRoot;
  const result: PrunedBackups = { removed: [], kept: [] };
  let entries;
  try {
    entries = await handle.list(root, { own: true });
  } catch (error) {
    if (error instanceof RefusedPath) return { ...result, refused: `${error.message}; the backups were not looked into` };
    throw error;
  }
  for (const entry of entries) {
    // A copy is a regular file below a run's folder; links and files at the top are not copies.
    const slash = entry.path.indexOf('/');
    if (entry.kind !== 'file' || slash < 0) continue;
    const copy = `${root}/${entry.path}`;
    if (await heldAgain(handle, copy, entry.path.slice(slash + 1))) {
      await handle.remove(copy, { own: true });
      result.removed.push(copy);
    } else result.kept.push(copy);
  }
  const folders = entries.filter((e) => e.kind === 'folder').map((e) => `${root}/${e.path}`);
  for (const folder of folders.sort((a, b) => b.split('/').length - a.split('/').length)) await handle.removeEmptyFolder(folder, { own: true });
  await handle.removeEmptyFolder(root, { own: true });
  const parent = posix.dirname(root);
  if (parent !== '.') await handle.removeEmptyFolder(parent, { own: true });
  return result;
}
