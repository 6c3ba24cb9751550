/**
 * Deterministic zip archives (yazl): the same entries give the same bytes. Entries are sorted
 * by path, every entry has the same fixed date (DOS format only, no extended time stamp) and
 * Unix mode 0644, and no folder entries are written (DESIGN.md section 9).
 *
 * yazl compresses with Node's own zlib, in libuv's thread pool, so the build's zips use the
 * second core while the main thread checks and writes (issue 13: JavaScript deflate set up
 * afresh for every file was the largest CPU cost of a build). The compressed bytes are
 * zlib's at level 6: the same on every run of one Node version. A Node release that changes
 * its bundled zlib may change them, and a rebuild then writes, and `loadout publish` uploads,
 * new zips with the same contents.
 */
import yazl from 'yazl';

/**
 * The date stored in every entry: 1980-01-01 00:00:00, the earliest a zip can hold (like
 * `zip -X` with SOURCE_DATE_EPOCH). yazl writes a DOS date from local-time fields, so this is
 * built from local-time fields too: every time zone stores the same bytes.
 */
export const ZIP_DATE = new Date(1980, 0, 1, 0, 0, 0);

/** One file of an archive: its path inside the archive (forward slashes) and its bytes. */
export interface ZipEntry {
  path: string;
  data: Uint8Array | string;
}

/** `external file attributes` of every entry: a regular file, mode 0644 (zip APPNOTE 4.4.15, Unix). */
const FILE_MODE = 0o100644;

/**
 * Writes a zip of `entries` with DEFLATE compression (level 6).
 * @returns the archive bytes.
 * @throws Error when two entries share a path (a bug in the caller: install targets are checked for collisions).
 */
export async function writeZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.path === sorted[i - 1]?.path) throw new Error(`internal error: two zip entries at ${sorted[i]?.path ?? ''}`);
  }
  const zip = new yazl.ZipFile();
  for (const entry of sorted) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
    zip.addBuffer(data, entry.path, { mtime: ZIP_DATE, mode: FILE_MODE, compress: true, compressionLevel: 6, forceDosTimestamp: true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
