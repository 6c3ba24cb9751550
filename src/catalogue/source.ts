/**
 * A loadout as bytes: its manifest text and every file of its folder, read from disk or
 * built in memory (submissions). The checks, the build and submissions all work on this one
 * shape, so that the same code judges a folder and a submission.
 */
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from './errors.js';
import { MANIFEST_FILE } from './manifest.js';

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
}

/** The display path of a file of `source` (`loadouts/<id>/<path>`). */
export function displayPath(source: LoadoutSource, path: string): string {
  return source.displayDir === '' ? path : `${source.displayDir}/${path}`;
}

/**
 * Reads the loadout folder `<catalogueDir>/<id>/`. Symbolic links are listed in `irregular`
 * and not followed (a link could point outside the catalogue). Reads synchronously inside
 * (see {@link walk}: an async stat alone cost more than the baseline's whole read).
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
  walk(root, '', source, observe);
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
function walk(dir: string, prefix: string, source: LoadoutSource, observe: StatObserver | undefined): void {
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
      walk(path, rel, source, observe);
    } else if (entry.isFile()) source.files.set(rel, observe === undefined ? readFileSync(path) : readObserved(path, rel, observe));
    else {
      observe?.(rel, lstatSync(path));
      source.irregular.push(rel);
    }
  }
}

/** Called with each entry's status: `rel` is its path in the loadout folder (`''`: the folder). */
export type StatObserver = (rel: string, stats: Stats) => void;

/** Reads a file, telling `observe` its status as it was opened (before the read). */
function readObserved(path: string, rel: string, observe: StatObserver): Buffer {
  const fd = openSync(path, 'r');
  try {
    observe(rel, fstatSync(fd));
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
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
