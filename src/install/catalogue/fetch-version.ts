/**
 * Reading one version of a loadout from a catalogue, for install and update: its entry in
 * `versions.json` and every file's bytes, each checked against the sha256 the version
 * publishes before anything is done with it (DESIGN.md section 8). The catalogue's own checks
 * (`catalogue-reader.ts`, `versions-document.ts`) have already made every address safe.
 *
 * A version over the record's size limits (the `size` check's: {@link LIMITS}, at most 30 files
 * of at most 32 KB, 128 KB in all) is refused before any of its files is laid out: no catalogue
 * that verified it could have published it, and the install layout's time grows with the text
 * (issue 53, point 8: an unsigned catalogue's 320 KB AGENTS.md held the CLI for 45 s). Declared
 * sizes are judged before any file is read, the bytes read after.
 */
import { sha256, type VersionEntry, type VersionsDocument } from '../../tree-format/index.js';
import type { FileEntry } from '../../catalogue/manifest.js';
import { decodeUtf8 } from '../../catalogue/source.js';
import { LIMITS } from '../../catalogue/vocabulary.js';
import { ConsumerError } from '../errors.js';
import type { CatalogueReader } from './catalogue-reader.js';

/** One version, read and checked. */
export interface FetchedVersion {
  id: string;
  version: string;
  /** Its entry in versions.json. */
  entry: VersionEntry;
  /** Its file entries, in the form the install layout takes. */
  files: FileEntry[];
  /** Each file's bytes, by loadout path. */
  bytes: Map<string, Uint8Array>;
  /** A file's text (undefined when not UTF-8). */
  text(path: string): string | undefined;
  /** A file's pinned raw address as the version publishes it (`raw_url`), where installed links to files not installed point. */
  rawUrl(path: string): string;
}

/**
 * The entry of `version` in `doc`.
 * @throws ConsumerError `UnknownVersion` naming the versions published
 */
export function findVersion(doc: VersionsDocument, version: string): VersionEntry {
  const entry = doc.versions.find((v) => v.version === version);
  if (entry === undefined) throw new ConsumerError('UnknownVersion', `${doc.id} has no version ${version} (published: ${doc.versions.map((v) => v.version).join(', ')})`);
  return entry;
}

/**
 * Refuses files over the record's size limits ({@link LIMITS}): more than 30, one over 32 KB,
 * or over 128 KB in all. `sizes` are bytes by loadout path (a size not known is not counted).
 * @throws ConsumerError `InvalidCatalogue` naming the file (or the count, or the total), its size and the limit
 */
export function checkSizeLimits(id: string, version: string, sizes: ReadonlyMap<string, number | undefined>): void {
  const refuse = (what: string): never => {
    throw new ConsumerError('InvalidCatalogue', `${id} ${version} cannot be installed: ${what} (the catalogue's size check allows at most ${LIMITS.files} files of at most ${LIMITS.fileBytes} bytes, ${LIMITS.totalBytes} bytes in all)`);
  };
  if (sizes.size > LIMITS.files) refuse(`it has ${sizes.size} files (expected at most ${LIMITS.files})`);
  let total = 0;
  for (const [path, bytes] of sizes) {
    if (bytes === undefined) continue;
    if (bytes > LIMITS.fileBytes) refuse(`${path} is ${bytes} bytes (expected at most ${LIMITS.fileBytes} bytes, 32 KB)`);
    total += bytes;
  }
  if (total > LIMITS.totalBytes) refuse(`its files total ${total} bytes (expected at most ${LIMITS.totalBytes} bytes, 128 KB)`);
}

/**
 * Reads every file of `version` of `doc.id` from `catalogue` and checks it.
 * Each file is read capped at the size its entry declares.
 * @throws ConsumerError `UnknownVersion`, `HashMismatch`, `InvalidCatalogue` (the version's
 *   manifest was invalid so a file has no role, or it is over the size limits:
 *   {@link checkSizeLimits}), and the reader's errors
 */
export async function fetchVersion(catalogue: CatalogueReader, doc: VersionsDocument, version: string): Promise<FetchedVersion> {
  const entry = findVersion(doc, version);
  const unplaceable = entry.files.find((f) => f.role === null);
  if (unplaceable !== undefined) throw new ConsumerError('InvalidCatalogue', `${doc.id} ${version} cannot be installed: its manifest was not valid, so ${unplaceable.path} has no role`);
  checkSizeLimits(doc.id, version, new Map(entry.files.map((f) => [f.path, typeof f.bytes === 'number' ? f.bytes : undefined])));
  const bytes = new Map<string, Uint8Array>();
  await Promise.all(
    entry.files.map(async (f) => {
      const data = await catalogue.readRaw(doc.id, version, f.path, typeof f.bytes === 'number' ? f.bytes : undefined);
      if (sha256(data) !== f.sha256) {
        throw new ConsumerError('HashMismatch', `${doc.id} ${version} ${f.path} does not match its published sha256 (expected ${f.sha256})`);
      }
      bytes.set(f.path, data);
    }),
  );
  // A catalogue made by hand may declare no sizes: the bytes read are judged too.
  checkSizeLimits(doc.id, version, new Map([...bytes].map(([path, data]) => [path, data.byteLength])));
  const files = entry.files.map((f) => ({ path: f.path, role: f.role, description: f.path, ...(f.agent === null ? {} : { agent: f.agent }), ...(f.skill === null ? {} : { skill: f.skill }), ...(f.install_to === undefined ? {} : { install_to: f.install_to }) }) as FileEntry);
  const raw = new Map(entry.files.map((f) => [f.path, f.raw_url]));
  return { id: doc.id, version, entry, files, bytes, text: (path) => decodeUtf8(bytes.get(path) ?? new Uint8Array()), rawUrl: (path) => raw.get(path) ?? path };
}
