/**
 * Reading a file with a bound on what it may cost: never more than one byte past the bound,
 * however large the file is or grows while it is read, and only a regular file (a FIFO or a
 * device at a file's place would block the read forever or never end; issue 35, point 9). The
 * installer reads a built tree's files this way, and `loadout import` the files it is given. A
 * project's files are read through the installer's handle on the project
 * (`install/project/project-root.ts`), which walks the path first and opens it with
 * `O_NOFOLLOW`, and takes only {@link readAtMost} from here (issue 53, point 1).
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { LoadoutError } from './errors.js';

/** What a file system entry is, for messages: `a FIFO`, `a socket`, `a device`. */
function kindOf(stats: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  return stats.isFIFO() ? 'a FIFO (named pipe)' : stats.isSocket() ? 'a socket' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : 'not a file';
}

/**
 * Opens `path` for reading only when it is a regular file (after symbolic links). It is opened
 * with `O_NONBLOCK`, so opening a FIFO returns at once instead of waiting for a writer (POSIX
 * `open()`); the kind is then read from the open file, so it cannot change between the check
 * and the read. The caller closes the handle. `name` names the file in messages (default `path`).
 * @returns the handle and the file's size in bytes
 * @throws LoadoutError `invalid_content` naming the file when it is a FIFO, socket or device;
 *   the file system's error otherwise (a folder: `EISDIR`, as `readFile` gives)
 */
export async function openRegularFile(path: string, name = path): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, size: stats.size };
    if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR' });
    throw new LoadoutError('invalid_content', `${name} is ${kindOf(stats)}, not a regular file; nothing was read`, { hint: 'Replace it with a file, or remove it.' });
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Reads `handle` from its start until its end or until `max + 1` bytes are in.
 * @returns the bytes read: at most `max` when the file ends by then; `max + 1` means the file
 *   holds more than `max` (nothing past that byte is read)
 * @throws the file system's error
 */
export async function readAtMost(handle: FileHandle, max: number): Promise<Buffer> {
  const buffer = Buffer.alloc(max + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length === buffer.length) break;
  }
  return buffer.subarray(0, length);
}
