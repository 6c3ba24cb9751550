/**
 * The container of the search's binary files (ranking-file.ts, inverted-index.ts): typed
 * arrays laid out in one buffer after a JSON header, so that a reader maps them as views of
 * the file's bytes instead of parsing them.
 *
 *   bytes 0-3   the file's magic (4 ASCII characters)
 *   bytes 4-7   header length H (uint32, in the byte order the header names)
 *   bytes 8-    header: JSON, padded with spaces to a multiple of 8; its `endianness` is the
 *               writer's (`os.endianness()`) and its `sections` give each section's byte
 *               offset and length in elements
 *   then        the sections, each at a multiple of 8
 */
import { endianness } from 'node:os';
import { LoadoutError } from '../catalogue/errors.js';

/** The element types a section may have. */
export type SectionType = Uint8ArrayConstructor | Uint32ArrayConstructor;

/** A section to write: its name, element type and elements. */
export interface SectionContent {
  name: string;
  type: SectionType;
  data: ArrayLike<number>;
}

/** Where a section is: byte offset and length in elements. */
type Places = Record<string, { offset: number; length: number }>;

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The bytes of `pieces` (as {@link sectionPieces} gives them) in one buffer; the empty pauses hold none. */
export function joinPieces(pieces: Iterable<Uint8Array | ''>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const piece of pieces) if (piece !== '') parts.push(piece);
  return Buffer.concat(parts);
}

/**
 * Lays out `sections` after `header` (any JSON-safe object; `endianness` and `sections` are
 * added) a section at a time, each as a view of its elements where
 * they are a typed array of its type already (a file of 10 MB is never made in one buffer), an
 * empty text piece before each section, where a writer may pause (tree-files.ts
 * `ContentPieces`). Pure: the same input gives the same bytes.
 */
export function* sectionPieces(magic: string, header: Record<string, unknown>, sections: readonly SectionContent[]): Generator<Uint8Array | '', void, undefined> {
  // The header's length depends on the offsets it lists: lay the sections out after a header
  // of the final length (offsets have more digits than zeros: grow until the header fits).
  const headerFor = (start: number): { text: string; places: Places } => {
    let offset = start;
    const places: Places = {};
    for (const { name, type, data } of sections) {
      places[name] = { offset, length: data.length };
      offset = align8(offset + data.length * type.BYTES_PER_ELEMENT);
    }
    return { text: JSON.stringify({ ...header, endianness: endianness(), sections: places }), places };
  };
  let headerBytes = align8(8 + Buffer.byteLength(headerFor(0).text));
  let laid = headerFor(headerBytes);
  while (align8(8 + Buffer.byteLength(laid.text)) > headerBytes) {
    headerBytes = align8(8 + Buffer.byteLength(laid.text));
    laid = headerFor(headerBytes);
  }
  const head = Buffer.alloc(headerBytes, 0);
  head.write(magic, 0, 'latin1');
  const headerText = laid.text.padEnd(headerBytes - 8, ' ');
  new DataView(head.buffer, head.byteOffset, 8).setUint32(4, Buffer.byteLength(headerText), endianness() === 'LE');
  head.write(headerText, 8, 'utf8');
  yield head;
  let at = headerBytes;
  for (const { name, type, data } of sections) {
    yield '';
    const place = laid.places[name] as { offset: number; length: number };
    if (place.offset > at) yield new Uint8Array(place.offset - at);
    const elements = data instanceof type ? data : type.from(data);
    yield new Uint8Array(elements.buffer, elements.byteOffset, elements.byteLength);
    at = place.offset + elements.byteLength;
  }
  if (align8(at) > at) yield new Uint8Array(align8(at) - at);
}

/** A file read by {@link decodeSections}: its header, and its sections as views of its bytes. */
export interface SectionsFile {
  header: Record<string, unknown>;
  /** The section `name` as a view of the file's bytes. @throws LoadoutError `invalid_content` when it is missing or runs past the end. */
  section<T extends SectionType>(name: string, type: T): InstanceType<T>;
}

/**
 * Reads a file written by {@link sectionPieces} with `magic`. The sections are views of
 * `bytes` (copied once when `bytes` is not 8-aligned), so the caller must not change them.
 * @param what the file, as error messages name it (e.g. `the search ranking file`).
 * @throws LoadoutError `invalid_content` when the file has another magic, was written with
 *   the other byte order, or is truncated.
 */
export function decodeSections(bytes: Uint8Array, magic: string, what: string): SectionsFile {
  const bad = (problem: string): LoadoutError => new LoadoutError('invalid_content', `${what} ${problem}`, { hint: 'Run `loadout build` again.' });
  const data = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (view.byteLength < 8 || view.toString('latin1', 0, 4) !== magic) throw bad(`does not start with ${magic} (expected a file written by loadout build)`);
  const headerLength = new DataView(data.buffer, data.byteOffset, 8).getUint32(4, endianness() === 'LE');
  if (8 + headerLength > view.byteLength) throw bad(`is ${view.byteLength} bytes long (expected a header of ${headerLength} bytes after the first 8)`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(view.toString('utf8', 8, 8 + headerLength)) as Record<string, unknown>;
  } catch {
    throw bad('has a header that is not JSON');
  }
  if (header['endianness'] !== endianness()) throw bad(`was written on a ${String(header['endianness'])} machine (expected ${endianness()})`);
  const places = (header['sections'] ?? {}) as Places;
  return {
    header,
    section(name, type) {
      const place = places[name];
      if (place === undefined || place.offset % 8 !== 0 || place.offset + place.length * type.BYTES_PER_ELEMENT > view.byteLength) throw bad(`has no whole section ${name} (expected it within the file's ${view.byteLength} bytes)`);
      // A file read from disk is backed by an ArrayBuffer (never shared memory).
      return new type(data.buffer as ArrayBuffer, data.byteOffset + place.offset, place.length) as InstanceType<typeof type>;
    },
  };
}
