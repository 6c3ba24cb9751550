/**
 * The digest the published tree names its files by: the hex sha256 of their bytes (DESIGN.md
 * section 8, `files[].sha256` of records and versions documents; FIPS 180-4). The build
 * writes it, the installer checks it.
 */
import { createHash } from 'node:crypto';

/** Hex sha256 (64 lowercase hex digits) of a string's UTF-8 bytes or of raw bytes. Pure. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
