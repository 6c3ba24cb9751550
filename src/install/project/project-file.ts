/**
 * Reading a file of the project (or of the home folder, for the user scope) that a command
 * may change: only a regular file is read (`catalogue/read-at-most.ts`), so a FIFO, socket or
 * device at `AGENTS.md` or another target is refused by name instead of hanging the command
 * forever (issue 35, point 9).
 */
import { join } from 'node:path';
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
