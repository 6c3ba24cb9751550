/**
 * A loadout as bytes: its manifest text and every file of its folder, read from disk or
 * built in memory (submissions). The checks, the build and submissions all work on this one
 * shape, so that the same code judges a folder and a submission.
 */
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from './errors.js';
import { MANIFEST_FILE } from './manifest.js';
import { LIMITS } from './vocabulary.js';

/** A loadout's folder contents. Paths are relative to the loadout folder, with forward slashes. */
export interface LoadoutSource {
  /** The folder name (for a submission, its loadout id). */
  id: string;
  /** Display prefix for diagnostics, e.g. `loadouts/<id>`. */
  displayDir: string;
  /** Text of `loadout.yaml`, or undefined when the folder has none. */
  manifestText: string | undefined;
  /** Every regular file except `loadout.yaml`, by relative path. */
  files: Map<string, Uint8Array>;
  /** Entries that are not regular files or folders (symbolic links, sockets): never published. */
  irregular: string[];
  /**
   * Files read only in part, past {@link READ_LIMITS} ({@link readLoadoutSource}): relative path
   * → size in bytes as the file's status gave it when opened. Their entry in `files` holds only
   * their first bytes; the checks read no text of them, and `size` reports them. Absent when
   * every file was read whole.
   */
  oversized?: Map<string, number>;
}

/**
 * The most {@link readLoadoutSource} reads of a loadout's files, in bytes: of one file
 * (`fileBytes`, 64 KB) and of all of them (`totalBytes`, 256 KB; the manifest not counted),
 * twice the size check's limits (spec "Limits", `LIMITS`: 32 KB a file, 128 KB in all). A
 * loadout past those is refused whatever the rest of its bytes say; up to twice them, its files
 * are still read whole, so that the other checks' findings come with the size finding (real
 * content over the limit is 34 to 54 KB a file in the corpus, docs/authoring.md), and its
 * checks stay well within their time budget (256 KB of risky lines, every one a finding: 0.5 s).
 * Reading every file whole let one of 300 MB grow `loadout dev` to 1.39 GB and run the checks
 * past their budget, which then blamed other loadouts (issue 53, point 16).
 */
export const READ_LIMITS = { fileBytes: 2 * LIMITS.fileBytes, totalBytes: 2 * LIMITS.totalBytes } as const;

/** The display path of a file of `source` (`loadouts/<id>/<path>`). */
export function displayPath(source: LoadoutSource, path: string): string {
  return source.displayDir === '' ? path : `${source.displayDir}/${path}`;
}

/**
 * Reads the loadout folder `<catalogueDir>/<id>/`. Symbolic links are listed in `irregular`
 * and not followed (a link could point outside the catalogue). Reads synchronously inside
 * (see {@link walk}: an async stat alone cost more than the baseline's whole read).
 * Reads at most {@link READ_LIMITS}: of a file over `READ_LIMITS.fileBytes`, its first
 * `READ_LIMITS.fileBytes`; once the files read (the manifest not counted, in path order) hold
 * `READ_LIMITS.totalBytes`, nothing of the later files. Such files are listed in `oversized`.
 * When `observe` is given it is called with the status of the folder and of everything in it
 * (relative path, `''` for the folder itself), each taken before it is read, so a change
 * made while reading shows in a later status (the build's change detection, tree/incremental/stamp.ts).
 * @throws LoadoutError `not_found` when the folder does not exist, `io` when it cannot be read.
 */
export async function readLoadoutSource(loadoutsDir: string, id: string, displayDir = `loadouts/${id}`, observe?: StatObserver): Promise<LoadoutSource> {
  const root = join(loadoutsDir, id);
  const stat = lstatSync(root, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) {
    throw new LoadoutError('not_found', `${displayDir}: no such loadout folder`, { hint: `Run \`loadout new ${id}\` to create it, or check the id.` });
  }
  const source: LoadoutSource = { id, displayDir, manifestText: undefined, files: new Map(), irregular: [] };
  observe?.('', stat);
  walk(root, '', source, observe, { read: 0 });
  const manifest = source.files.get(MANIFEST_FILE);
  if (manifest !== undefined) {
    source.files.delete(MANIFEST_FILE);
    source.manifestText = Buffer.from(manifest).toString('utf8');
  }
  return source;
}

/**
 * Reads a folder tree. Synchronous on purpose: a loadout is a few small files, and one
 * blocking read each costs far less than the four thread-pool round trips of an async read
 * (DESIGN.md section 7: a rebuild after one change under 2 s; `bench/build.ts` measures it).
 */
function walk(dir: string, prefix: string, source: LoadoutSource, observe: StatObserver | undefined, total: { read: number }): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (cause) {
    throw new LoadoutError('io', `${source.displayDir}/${prefix}: cannot read folder`, { cause });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (observe !== undefined) observe(rel, lstatSync(path));
      walk(path, rel, source, observe, total);
    } else if (entry.isFile()) readFile(path, rel, source, observe, total);
    else {
      observe?.(rel, lstatSync(path));
      source.irregular.push(rel);
    }
  }
}

/** Called with each entry's status: `rel` is its path in the loadout folder (`''`: the folder). */
export type StatObserver = (rel: string, stats: Stats) => void;

/**
 * Reads the file `rel` of `source` at `path` into `source.files`, telling `observe` its status
 * as it was opened (before the read): at most what {@link READ_LIMITS} leave it; a file larger
 * than that is `oversized`. `total.read` counts the bytes of the loadout's files read so far (the
 * manifest's not counted, nor limited).
 */
function readFile(path: string, rel: string, source: LoadoutSource, observe: StatObserver | undefined, total: { read: number }): void {
  const fd = openSync(path, 'r');
  try {
    const stats = fstatSync(fd);
    observe?.(rel, stats);
    if (rel === MANIFEST_FILE) {
      source.files.set(rel, readFileSync(fd));
      return;
    }
    const allowed = Math.min(READ_LIMITS.fileBytes, Math.max(0, READ_LIMITS.totalBytes - total.read));
    // As many bytes as its status gives (as readFileSync reads), and never more than allowed.
    const bytes = readUpTo(fd, Math.min(stats.size, allowed));
    total.read += bytes.byteLength;
    source.files.set(rel, bytes);
    if (stats.size > allowed) (source.oversized ??= new Map()).set(rel, stats.size);
  } finally {
    closeSync(fd);
  }
}

/** The first `max` bytes of the open file `fd` (fewer when it ends first). */
function readUpTo(fd: number, max: number): Buffer {
  // Not from the shared pool, as readFileSync's: the bytes may be copied to another thread.
  const buffer = Buffer.allocUnsafeSlow(max);
  let length = 0;
  while (length < max) {
    const read = readSync(fd, buffer, length, max - length, null);
    if (read === 0) break;
    length += read;
  }
  return length === max ? buffer : buffer.subarray(0, length);
}

/** `<root>/loadouts`: the folder of a catalogue's loadouts. */
export const loadoutsDirOf = (root: string): string => join(root, 'loadouts');

/**
 * Lists loadout ids: the names of the folders directly under `loadoutsDir`, sorted.
 * Hidden folders (starting with `.`) are ignored.
 * @throws LoadoutError `not_found` when `loadoutsDir` does not exist.
 */
export async function listLoadoutIds(loadoutsDir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(loadoutsDir, { withFileTypes: true });
  } catch (cause) {
    throw new LoadoutError('not_found', `${loadoutsDir}: no loadouts folder`, { cause, hint: 'Run the command at the catalogue root, or pass --root.' });
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

/** Decodes UTF-8 strictly: undefined when `bytes` is not valid UTF-8. A BOM is kept. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
