/**
 * A minimal, deterministic tar writer (POSIX ustar, IEEE Std 1003.1-2008 "pax" format's
 * ustar header) for the consumer CLI's npm package: regular files only, a fixed owner and
 * time, entries in the order given. npm reads it like the tarballs `npm pack` writes.
 */

/** One regular file of the archive. */
export interface TarFile {
  /** Path inside the archive, forward slashes, at most 100 bytes (no prefix field is used). */
  path: string;
  data: Uint8Array;
  /** Permission bits, such as 0o644 or 0o755. */
  mode: number;
}

/** The time every entry carries: npm's own fixed pack time, 1985-10-26T08:15:00Z, in seconds. */
export const TAR_MTIME = 499162500;

const BLOCK = 512;

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`internal error: tar field "${value}" longer than ${length} bytes`);
  bytes.copy(header, offset);
}

/** An octal number field: zero-padded digits and a NUL, as ustar writes it. */
const writeOctal = (header: Buffer, offset: number, length: number, value: number): void => writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);

/** The 512-byte ustar header of `file`. */
function headerOf(file: TarFile): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeString(header, 0, 100, file.path);
  writeOctal(header, 100, 8, file.mode);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, file.data.byteLength);
  writeOctal(header, 136, 12, TAR_MTIME);
  header.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  writeString(header, 156, 1, '0');
  writeString(header, 257, 6, 'ustar\0');
  writeString(header, 263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/** The tar archive of `files`, in their order, ended by two zero blocks. Pure. */
export function writeTar(files: readonly TarFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(headerOf(file), Buffer.from(file.data));
    const pad = (BLOCK - (file.data.byteLength % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
