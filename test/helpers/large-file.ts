/**
 * Test helper: a large file that costs no disk, for the limits on what is read (catalogue/source.ts).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `path` of `size` bytes: `head`, then NUL bytes left as a sparse gap (`ftruncate`), then
 * `tail`, which ends at byte `size`: what lies past the limits is the NUL bytes and `tail`.
 */
export function writeLargeFile(path: string, head: string, size: number, tail: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size - Buffer.byteLength(tail));
    writeSync(fd, tail, size - Buffer.byteLength(tail));
  } finally {
    closeSync(fd);
  }
}
