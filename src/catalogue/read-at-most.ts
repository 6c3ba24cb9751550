/**
 * Reading a file with a bound on what it may cost: never more than one byte past the bound,
 * however large the file is or grows while it is read. The installer reads a built tree's files
 * this way, and `loadout import` the files it is given.
 */
import type { FileHandle } from 'node:fs/promises';

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
