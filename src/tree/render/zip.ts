/**
 * Deterministic zip archives: the same entries give the same bytes. Entries are sorted by
 * path, every entry has the same fixed date (DOS format only, no extended time stamp) and
 * Unix mode 0644, and no folder entries are written (DESIGN.md section 9).
 *
 * Each entry is compressed by Node's zlib (raw DEFLATE, level 3) on the calling thread (the build's
 * worker threads, pool/pool.ts), and a {@link ZipContents} compresses each distinct content once:
 * a loadout's six per-agent zips and its source zip hold the same few files under other names, so a
 * loadout costs one compression per file, not one per entry (docs/architecture.md). The archive
 * around the compressed data is written by fflate's `Zip`, which takes entries compressed elsewhere
 * (its `ZipInputFile`), and marks their sizes in a data descriptor after the data (APPNOTE 4.3.9).
 *
 * zlib in libuv's thread pool (yazl's way) was tried and dropped: every call there sets
 * up zlib's 256 KiB of state on a pool thread whose memory the allocator hands back at once,
 * so every entry page-faults, which costs more system time than the compression.
 *
 * The compressed bytes are zlib's: the same on every run of one Node version. A Node release
 * that changes its bundled zlib may change them, and a rebuild then writes, and
 * `loadout publish` uploads, new zips with the same contents.
 */
import { Zip, type ZipInputFile } from 'fflate';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * The date stored in every entry: 1980-01-01 00:00:00, the earliest a zip can hold (like
 * `zip -X` with SOURCE_DATE_EPOCH). fflate writes a DOS date from local-time fields, so this
 * is built from local-time fields too: every time zone stores the same bytes.
 */
export const ZIP_DATE = new Date(1980, 0, 1, 0, 0, 0);

/** One file of an archive: its path inside the archive (forward slashes) and its bytes. */
export interface ZipEntry {
  path: string;
  /** The bytes, or text stored as UTF-8. */
  data: Uint8Array | string;
}

/** `external file attributes` of every entry: a regular file, mode 0644 in the high 16 bits (APPNOTE 4.4.15, Unix). */
const FILE_ATTRIBUTES = 0o100644 * 0x10000;
/** `version made by`: Unix (APPNOTE 4.4.2.2), so that readers take the mode from the attributes. */
const MADE_ON_UNIX = 3;
/** Compression method 8, DEFLATE (APPNOTE 4.4.5). */
const DEFLATE = 8;

/** A content compressed: CRC-32 and size (bytes) before compression, and the raw DEFLATE stream (RFC 1951). */
export interface Deflated {
  crc: number;
  size: number;
  data: Uint8Array<ArrayBuffer>;
}

/**
 * The compression level: the zips' bytes depend on it. Level 3, not zlib's default 6: on a
 * catalogue's files (a few KB of text each) it takes a fifth less time for 1.8 % more bytes
 * (zlib spends the difference on lazy matching; docs/performance.md), and compression was 11 %
 * of the build threads' time at 10,000 loadouts.
 */
const LEVEL = 3;

/** zlib's smallest and largest window (`windowBits`, log2 of bytes; zlib.h `deflateInit2`). */
const WINDOW_BITS = { min: 9, max: 15 };
/** zlib's lookahead past the input it matches at (`MIN_LOOKAHEAD` in deflate.h: MAX_MATCH + MIN_MATCH + 1), in bytes. */
const LOOKAHEAD = 262;

/**
 * The window for `size` bytes of input: the smallest that holds all of it with zlib's lookahead,
 * at most zlib's default 32 KiB. A match never reaches further back than the input's start,
 * so the stream is the same bytes as with the default window (a test compares them), while
 * zlib allocates and clears a window of this size, not 64 KiB, for each of the build's small
 * files: a catalogue's files are a few KB, and each compression cost 10 µs before its first byte.
 */
export function windowBitsFor(size: number): number {
  return Math.min(WINDOW_BITS.max, Math.max(WINDOW_BITS.min, Math.ceil(Math.log2(size + LOOKAHEAD + 1))));
}

/**
 * Compresses `content` (text as UTF-8) at {@link LEVEL}, with the window {@link windowBitsFor}
 * its size. `zlib.crc32` needs Node 20.15 or 22.2 (package.json `engines`).
 */
export function deflate(content: string | Uint8Array): Deflated {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const out = deflateRawSync(bytes, { level: LEVEL, windowBits: windowBitsFor(bytes.byteLength) });
  // zlib's output is never a SharedArrayBuffer; the view is what fflate's types ask for.
  return { crc: crc32(bytes), size: bytes.byteLength, data: new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength) };
}

/**
 * Compressed contents, kept so that the same content is compressed once across the archives
 * written with this object. Text is looked up by value, bytes by identity. Holds every
 * content it has seen: make one per loadout, not one per build.
 */
export class ZipContents {
  readonly #deflated = new Map<string | Uint8Array, Deflated>();

  /** `data` compressed at {@link LEVEL} (compressed the first time it is seen). */
  deflate(data: string | Uint8Array): Deflated {
    let deflated = this.#deflated.get(data);
    if (deflated === undefined) {
      deflated = deflate(data);
      this.#deflated.set(data, deflated);
    }
    return deflated;
  }
}

/**
 * Writes a zip of `entries`, every one DEFLATE-compressed (level 3).
 * @param contents where compressed contents are shared with other archives of the same files; a new one by default.
 * @returns the archive bytes.
 * @throws Error when two entries share a path (a bug in the caller: install targets are checked for collisions).
 */
export function writeZip(entries: readonly ZipEntry[], contents = new ZipContents()): Buffer {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.path === sorted[i - 1]?.path) throw new Error(`internal error: two zip entries at ${sorted[i]?.path ?? ''}`);
  }
  const chunks: Buffer[] = [];
  let failure: Error | undefined;
  // fflate calls back synchronously for entries whose data is pushed at once, as here.
  const zip = new Zip((error, chunk) => {
    if (error !== null) failure ??= error;
    else chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
  for (const entry of sorted) {
    const { crc, size, data } = contents.deflate(entry.data);
    const file: ZipInputFile = { filename: entry.path, size, crc, compression: DEFLATE, mtime: ZIP_DATE, os: MADE_ON_UNIX, attrs: FILE_ATTRIBUTES };
    zip.add(file);
    file.ondata?.(null, data, true);
  }
  zip.end();
  if (failure !== undefined) throw failure;
  return Buffer.concat(chunks);
}
