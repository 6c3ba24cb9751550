/**
 * The store of loadout entries shared by the trees of one output folder (docs/architecture.md).
 *
 * Everything a tree holds for one loadout lies below five paths named by its id (its record
 * `api/loadouts/<id>.json` and the folders `api/loadouts/<id>/`, `raw/<id>/`, `download/<id>/`
 * and `loadouts/<id>/`; {@link loadoutOutputPaths}). The build writes them once, as an entry
 * of the store `.<out>.trees/store/`, under the same paths with the id replaced by the entry's
 * name `<id>@<tag>` (`raw/<id>@<tag>/1.0.0/AGENTS.md`), and a tree holds the loadout by four
 * symbolic links to the entry's folders and a hard link to its record (`raw/<id>` →
 * `../../store/raw/<id>@<tag>`). An entry never changes once written; a changed loadout gets
 * a new entry (a new tag), and the trees are re-pointed.
 *
 * So a tree costs five directory entries per loadout instead of about 35 files and folders,
 * and a second tree costs five hard links per loadout (a hard link to a symbolic link is the
 * same link, whose relative target resolves the same at the same depth): the build keeps a
 * standby tree beside the live one from its first build on, and a rebuild re-points the few
 * links of the changed loadouts in the standby and switches to it (output.ts). A new file or
 * folder costs an inode where a link costs a directory entry, and writing every folder of a
 * whole new tree was most of a large catalogue's rebuild time (docs/performance.md).
 *
 * An entry is complete when its record exists: the record is written last, and removed first.
 * Entries no tree refers to are removed after each build ({@link collectGarbage}).
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { checkpoint } from './crash-points.js';
import { dataOf, outputOver, TreeFiles, wholeOf, type OutputTree } from './tree-files.js';
import { deleteTrashLater, Trash } from './trash.js';

/** The store's folder name inside the trees folder (`.<out>.trees/store`): part of the tree format. */
export { STORE_FOLDER } from '../../tree-format/tree-region.js';

/**
 * The folders of a tree whose children are the loadouts' own, `<parent>/<id>`. `plugins/`
 * (render/plugins.ts) also holds the marketplace documents, whose names are never a loadout id
 * (`marketplace.json`, `.claude-plugin`, …: {@link documentPathsOf}); a build without plugins
 * writes no `plugins/<id>`, so that link is made only where the entry has the folder.
 */
const LOADOUT_PARENTS = ['api/loadouts', 'raw', 'download', 'loadouts', 'plugins'] as const;
/** The parents whose folder an entry may lack, and which also hold catalogue documents. */
const OPTIONAL_PARENTS: ReadonlySet<string> = new Set(['plugins']);
/** A loadout id (catalogue/schema: a slug): a child of a loadout parent by this name is a loadout's. */
const LOADOUT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;

/** The files and folders of the tree that belong to loadout `id` alone. */
export function loadoutOutputPaths(id: string): { files: string[]; folders: string[] } {
  return { files: [`api/loadouts/${id}.json`], folders: LOADOUT_PARENTS.map((parent) => `${parent}/${id}`) };
}

/** The name of a loadout's entry written by the build tagged `tag` (`<pid>-<hex>`). */
export const entryNameOf = (id: string, tag: string): string => `${id}@${tag}`;

/** True when `name` is the name of an entry of loadout `id` (as {@link entryNameOf} makes them). */
export const isEntryNameOf = (id: string, name: string): boolean => name.startsWith(`${id}@`) && /^\d+-[0-9a-f]+$/u.test(name.slice(id.length + 1));

/** How a tree holds one of a loadout's paths: `path` in the tree, `stored` in the store; a folder by a symbolic link, the record by a hard link. */
export interface EntryLink {
  path: string;
  stored: string;
  folder: boolean;
  /** True when the entry may lack it (linked only where it exists). */
  optional: boolean;
}

/** The links by which a tree holds loadout `id` from its entry `name`. */
export function entryLinks(id: string, name: string): EntryLink[] {
  return [
    { path: `api/loadouts/${id}.json`, stored: `api/loadouts/${name}.json`, folder: false, optional: false },
    ...LOADOUT_PARENTS.map((parent) => ({ path: `${parent}/${id}`, stored: `${parent}/${name}`, folder: true, optional: OPTIONAL_PARENTS.has(parent) })),
  ];
}

/** The path of a loadout's record in the store: it marks the entry complete. */
const recordOf = (name: string): string => `api/loadouts/${name}.json`;
/** The paths of the entry `name` in the store, its record first (the order they are removed in). */
const entryPaths = (name: string): string[] => [recordOf(name), ...LOADOUT_PARENTS.map((parent) => `${parent}/${name}`)];

/**
 * The store path of `path`, a tree path that loadout `id` owns, in its entry `name`.
 * @throws LoadoutError `internal` for a path the loadout does not own (a bug).
 */
export function storedPathOf(id: string, name: string, path: string): string {
  if (path === `api/loadouts/${id}.json`) return recordOf(name);
  for (const parent of LOADOUT_PARENTS) {
    const folder = `${parent}/${id}`;
    if (path === folder || path.startsWith(`${folder}/`)) return `${parent}/${name}${path.slice(folder.length)}`;
  }
  throw new LoadoutError('internal', `refused to write ${JSON.stringify(path)} in the entry of loadout ${id}: not a path of that loadout`);
}

/** The stores whose {@link LOADOUT_PARENTS} this thread has made. */
const parentsMade = new Set<string>();

/**
 * The store's {@link LOADOUT_PARENTS}, made the first time this thread asks about the store:
 * every entry writes below them, and knowing them saves each entry a `mkdir` apiece.
 */
function storeParents(storeDir: string): readonly string[] {
  if (!parentsMade.has(storeDir)) {
    for (const parent of LOADOUT_PARENTS) mkdirSync(join(storeDir, parent), { recursive: true });
    parentsMade.add(storeDir);
  }
  return LOADOUT_PARENTS;
}

/** An entry being written: an {@link OutputTree} whose paths are the tree's; the record is held back until {@link StoreEntry.complete}. */
export interface StoreEntry extends OutputTree {
  /** Writes the record last, which makes the entry complete. @throws LoadoutError `internal` when no record was written. */
  complete(): number;
}

/**
 * Opens the entry `name` of loadout `id` in the store at `storeDir` for writing (its paths are
 * still `raw/<id>/…`). The entry must not exist: names carry the writing build's tag.
 */
export function openStoreEntry(storeDir: string, id: string, name: string): StoreEntry {
  const files = new TreeFiles(storeDir, { folders: storeParents(storeDir) });
  const output = outputOver(files, { place: (path) => storedPathOf(id, name, path) });
  const recordPath = `api/loadouts/${id}.json`;
  let record: string | Uint8Array | undefined;
  return {
    ...output,
    get bytes() {
      return output.bytes;
    },
    async write(path, data) {
      if (path === recordPath) record = wholeOf(dataOf(data));
      else await output.write(path, data);
    },
    async writeJson(path, value) {
      await this.write(path, `${JSON.stringify(value, null, 2)}\n`);
    },
    complete() {
      if (record === undefined) throw new LoadoutError('internal', `the entry of loadout ${id} has no record`);
      return output.bytes + files.write(recordOf(name), record);
    },
  };
}

/**
 * Links loadout `id` into the tree of `files` from its entry `name` in `storeDir`, replacing
 * what the tree held for it.
 */
export function linkEntry(files: TreeFiles, storeDir: string, id: string, name: string): void {
  for (const link of entryLinks(id, name)) {
    const stored = join(storeDir, link.stored);
    if (link.optional && !existsSync(stored)) files.remove(link.path);
    else if (link.folder) files.symlink(link.path, stored);
    else files.link(link.path, stored);
  }
}

/**
 * Makes the tree of `files` hold loadout `id` as the tree at `from` holds it, by hard links to
 * that tree's links (a hard link to a symbolic link is the same link, and resolves the same at
 * the same depth): a copy of a tree costs a directory entry per path, no inode.
 */
export function copyEntryLinks(files: TreeFiles, from: string, id: string): void {
  for (const link of entryLinks(id, '')) {
    const existing = join(from, link.path);
    if (!link.optional || lstatSync(existing, { throwIfNoEntry: false }) !== undefined) files.link(link.path, existing);
  }
}

/** Removes loadout `id` from the tree of `files`. */
export function unlinkEntry(files: TreeFiles, id: string): void {
  for (const link of entryLinks(id, '')) files.remove(link.path);
}

/**
 * The catalogue documents of the tree at `dir`: its paths outside the folders whose children
 * are the loadouts' links (`raw/`, `download/`, `loadouts/`, `api/loadouts/`, `plugins/`), and
 * the children of those folders that are not a loadout's: in `plugins/`, the marketplaces and
 * the bundles' plugin folders (tree/render/bundles.ts), which are folders of the tree where a
 * loadout's is a symbolic link to its entry ({@link linkEntry}; a hard link to that link is one
 * too). Tree paths, for `TreeFiles.remove`; an update of the standby removes them before
 * writing the documents again.
 */
export function documentPathsOf(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    // The entries' types come with the listing (no `lstat` a loadout).
    for (const entry of readdirSync(path === '' ? dir : join(dir, path), { withFileTypes: true })) {
      const name = entry.name;
      const child = path === '' ? name : `${path}/${name}`;
      if (OPTIONAL_PARENTS.has(path) && LOADOUT_ID.test(name) && entry.isSymbolicLink()) continue;
      if (OPTIONAL_PARENTS.has(child) || LOADOUT_PARENTS.some((p) => p.startsWith(`${child}/`))) visit(child);
      else if ((LOADOUT_PARENTS as readonly string[]).includes(child)) continue;
      else found.push(child);
    }
  };
  visit('');
  return found;
}

/**
 * The store entries that the tree at `dir` links to, by loadout id (read from its `raw/<id>`
 * links: {@link linkEntry} links a loadout's five paths to one entry), of every loadout it
 * holds or of `only`. A tree written before the store has none.
 */
export function entriesLinkedBy(dir: string, only?: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  let ids: readonly string[];
  try {
    ids = only ?? readdirSync(join(dir, 'raw'));
  } catch {
    return names;
  }
  for (const id of ids) {
    try {
      names.set(id, basename(readlinkSync(join(dir, 'raw', id))));
    } catch {
      // not a link: a tree written before the store
    }
  }
  return names;
}

/**
 * The names of the entries in the store, complete or not: every entry's first part is its
 * `raw/<name>` folder (a loadout's raw files are written before anything else of it, and
 * its `latest` link makes the folder even without files), so listing that folder finds them.
 */
export function listEntries(storeDir: string): Set<string> {
  try {
    return new Set(readdirSync(join(storeDir, 'raw')).filter((name) => name.includes('@')));
  } catch {
    return new Set(); // not made yet
  }
}

/**
 * Removes the entry `name` from the store: its record first, so that an entry removed in part
 * (a build killed meanwhile) is incomplete, never taken for a whole one.
 */
export function removeEntry(storeDir: string, name: string): void {
  for (const path of entryPaths(name)) {
    rmSync(join(storeDir, path), { recursive: true, force: true });
    checkpoint();
  }
}

/**
 * Entries removed one `rm` after another by {@link collectGarbage}; more go through the trash
 * (trash.ts): a save of `loadout dev` leaves one or two, the first build after the builder's
 * code changed leaves every loadout's.
 */
const REMOVED_IN_PLACE = 64;

/**
 * Removes every entry of `found` (names listed by {@link listEntries}) that is not in `keep`
 * (the entries the live and standby trees link to): those of replaced loadouts, and what
 * killed or refused builds left. Up to {@link REMOVED_IN_PLACE} entries are removed here; more
 * are moved into a trash folder of the store (a `rename` per folder, the record first, as
 * {@link removeEntry} removes them), which a detached process deletes afterwards
 * (trash.ts `deleteTrashLater`), with any trash folder left before. Run under the build lock
 * (output.ts), so no other build is writing.
 * @returns the number of entries removed.
 */
export function collectGarbage(storeDir: string, found: Iterable<string>, keep: ReadonlySet<string>): number {
  const garbage = [...found].filter((name) => !keep.has(name));
  if (garbage.length <= REMOVED_IN_PLACE) for (const name of garbage) removeEntry(storeDir, name);
  else {
    const trash = new Trash(storeDir);
    for (const name of garbage) {
      for (const path of entryPaths(name)) {
        trash.move(path);
        checkpoint();
      }
    }
  }
  deleteTrashLater(storeDir);
  return garbage.length;
}
