/**
 * Reading a file of the project (or of the home folder, for the user scope) that a command
 * may change: only a regular file is read (`catalogue/read-at-most.ts`), so a FIFO, socket or
 * device at `AGENTS.md` or another target is refused by name instead of hanging the command
 * forever (issue 35, point 9); and where a symbolic link at a target leads, so that a write
 * keeps the user's link (point 7).
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { readRegularFile } from '../../catalogue/read-at-most.js';

/**
 * The bytes of `target` (relative, `/`-separated) under `root`, or undefined when there is no
 * file there (nothing, a folder, or a file where a folder of the path should be).
 * @throws LoadoutError `invalid_content` when it is a FIFO, socket or device; `io` for another
 *   read error
 */
export async function readProjectFile(root: string, target: string): Promise<Uint8Array | undefined> {
  return readRegularFile(join(root, ...target.split('/')), target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return undefined;
    if (error instanceof LoadoutError) throw error;
    throw new LoadoutError('io', `cannot read ${target}: ${error.message}`, { cause: error });
  });
}

/**
 * Where a write to `target` under `root` lands: the file a symbolic link at `target` points to
 * (rule 3 of `target-rules.ts` has checked that it lies inside the project), else `target`
 * itself; absolute. Writing there keeps the user's link (`CLAUDE.md -> AGENTS.md`) a link
 * (issue 35, point 7), where a rename onto `target` would replace it with a file.
 * @throws the file system's error, other than for nothing at `target`
 */
export async function writePathOf(root: string, target: string): Promise<string> {
  const path = join(root, ...target.split('/'));
  const stats = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  return stats?.isSymbolicLink() === true ? realpath(path) : path;
}

/**
 * `target`'s place after a symbolic link at its end (`/`-separated, relative to `root`, whose
 * real path `root` is), when the link leads to another place inside the project; undefined
 * when `target` is no link, or leads outside (that is refused elsewhere) or nowhere.
 */
export async function linkedPlaceOf(root: string, target: string): Promise<string | undefined> {
  const path = join(root, ...target.split('/'));
  const link = await lstat(path).then((s) => s.isSymbolicLink(), () => false);
  if (!link) return undefined;
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const inside = relative(root, real);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const place = inside.split(sep).join('/');
  return place === target ? undefined : place;
}
