/**
 * Deterministic zip archives (jszip): the same entries give the same bytes. Entries are
 * sorted by path, every entry has the same fixed date and Unix mode 0644, and no folder
 * entries are written (jszip is byte-deterministic only with a fixed `date` and
 * `createFolders: false`; DESIGN.md section 9).
 */
import JSZip from 'jszip';

/** The date stored in every entry: 1980-01-01, the earliest date a zip can hold (like `zip -X` with SOURCE_DATE_EPOCH). */
export const ZIP_DATE = new Date(Date.UTC(1980, 0, 1, 0, 0, 0));

/** One file of an archive: its path inside the archive (forward slashes) and its bytes. */
export interface ZipEntry {
  path: string;
  data: Uint8Array | string;
}

/**
 * Writes a zip of `entries` with DEFLATE compression.
 * @returns the archive bytes.
 * @throws Error when two entries share a path (a bug in the caller: install targets are checked for collisions).
 */
export async function writeZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const zip = new JSZip();
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.path === sorted[i - 1]?.path) throw new Error(`internal error: two zip entries at ${sorted[i]?.path ?? ''}`);
  }
  for (const entry of sorted) {
    zip.file(entry.path, entry.data, { date: ZIP_DATE, createFolders: false, unixPermissions: 0o644, binary: typeof entry.data !== 'string' });
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 }, platform: 'UNIX' });
}
