/**
 * Writing the static tree so that a build, failed or killed at any point, never leaves a
 * half-written or mixed `--out` (docs/architecture.md; POSIX `rename()` replaces the link
 * atomically).
 *
 * `--out` is a symbolic link to one complete tree in the folder `.<out>.trees/` beside it.
 * A build writes the next tree there whole, then one `rename` of a new link over `--out`
 * switches readers from one whole tree to the other. A build killed before the switch
 * leaves the old tree live; killed after it, the new one. Whatever an earlier build left
 * behind (its unfinished tree, a link, or the `.<out>.tmp-*` and `.<out>.old-*` folders of
 * earlier versions of this code) is removed by the next build.
 *
 * The trees hold the loadouts by links into the store of loadout entries beside them
 * (store.ts), so a tree is small. The tree that was live stays beside the new one as a
 * standby (the first build makes its standby as a copy by hard links), and the next build
 * brings that standby up to date in place (the links of the changed loadouts, and the
 * catalogue documents) and switches to it. Its `.complete` marker is removed before the first
 * change, so a standby left half-updated by a killed build is removed like any unfinished
 * tree, and readers only ever see the live tree.
 *
 * One build at a time writes an output folder: {@link openTrees} takes a lock beside the
 * trees, since builds share the store and remove the entries no tree needs.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { listFolderEntries } from '../../catalogue/folder-entries.js';
import { checkpoint } from './crash-points.js';
import { STORE_FOLDER } from './store.js';
import { outputOver, TreeFiles, type OutputTree, type TreeOrigin } from './tree-files.js';

/** Name of the folder beside `--out` that holds the trees. */
export const treesFolderOf = (target: string): string => join(dirname(target), `.${basename(target)}.trees`);

/** Marker written into a tree once it is complete (a dot file: never served nor published). */
export const COMPLETE_MARKER = '.complete';

/** The lock file in the trees folder: the id of the process that builds. */
const LOCK_FILE = '.lock';

/** Names of trees in the trees folder: `<pid>-<hex>`, with a suffix for replaced or restored ones. */
const TREE_NAME = /^(\d+)-[0-9a-z-]+$/u;

/** Options of {@link TreeSet.write}. */
export interface WriteTreeOptions {
  /**
   * Start the next tree from an existing one and keep a standby (writing every folder of a tree
   * again was most of a large catalogue's rebuild time; DESIGN.md section 7 sets the rebuild
   * target and docs/architecture.md describes the standby). Called with
   * the standby's folder when there is one, else with the live tree's; true lets the fill
   * update that tree: the standby is taken over in place, the live tree copied by hard links
   * (`tree.origin` says which). After the switch, the tree that was live stays beside the new
   * one as the standby (complete, never served; the first build copies its own tree).
   */
  startFrom?: (dir: string, origin: TreeOrigin) => Promise<boolean>;
  /**
   * How the first build copies its own tree as the standby: makes the empty folder `to` hold what the
   * complete tree `from` holds, by hard links, but its complete marker. Default: one listing of
   * `from` and a link per file on this thread; the build's pool links the loadouts' paths while its
   * main thread links the documents (build.ts).
   */
  copy?: (from: string, to: string) => Promise<void>;
}

/** The trees of one output folder, locked for one build. */
export interface TreeSet {
  /** `--out`, resolved. */
  readonly target: string;
  /** The store of loadout entries (store.ts). */
  readonly store: string;
  /** The folder of the tree `--out` serves now, if any. */
  readonly live: string | undefined;
  /** The standby tree (see {@link WriteTreeOptions}), if any. */
  readonly standby: string | undefined;
  /**
   * Runs `fill` on a new tree (or on the standby, see {@link WriteTreeOptions}) and, when it
   * resolves, makes that tree the one `--out` points at, then removes the trees that are
   * neither live nor the standby. When `fill` throws, the tree it was filling is removed and
   * `--out` is left as it was.
   * @returns what `fill` returned, and the standby now beside the live tree.
   */
  write<T>(fill: (tree: OutputTree, files: TreeFiles) => Promise<T>, options?: WriteTreeOptions): Promise<{ result: T; live: string; standby: string | undefined }>;
  /** Releases the lock. */
  close(): void;
}

/**
 * Takes the output folder `out` for one build: makes its trees folder and store, takes the
 * lock, removes what killed builds left behind, and finds the live and standby trees.
 * @throws LoadoutError `io` when another build holds the lock, or when `out` exists and is
 *   neither a folder nor a link to one.
 */
export async function openTrees(out: string): Promise<TreeSet> {
  const target = resolve(out);
  const trees = treesFolderOf(target);
  mkdirSync(join(trees, STORE_FOLDER), { recursive: true });
  const unlock = lockTrees(trees, target);
  try {
    removeLeftovers(target);
    const live = liveTreeOf(target);
    const standby = standbyOf(target, live);
    return {
      target,
      store: join(trees, STORE_FOLDER),
      live,
      standby,
      write: (fill, options = {}) => writeNextTree(target, live, standby, fill, options),
      close: unlock,
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Runs `fill` on a new tree of `out` and switches `out` to it ({@link TreeSet.write}), under
 * the lock. No standby is kept unless `options` asks for one.
 */
export async function writeTree<T>(out: string, fill: (tree: OutputTree) => Promise<T>, options: WriteTreeOptions = {}): Promise<T> {
  const trees = await openTrees(out);
  try {
    return (await trees.write(fill, options)).result;
  } finally {
    trees.close();
  }
}

async function writeNextTree<T>(target: string, live: string | undefined, standby: string | undefined, fill: (tree: OutputTree, files: TreeFiles) => Promise<T>, options: WriteTreeOptions): Promise<{ result: T; live: string; standby: string | undefined }> {
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(treesFolderOf(target), tag);
  let origin: TreeOrigin | undefined;
  let result: T;
  try {
    if (options.startFrom !== undefined && standby !== undefined && (await options.startFrom(standby, 'standby'))) {
      claimStandby(standby, dir);
      origin = 'standby';
    } else if (options.startFrom !== undefined && live !== undefined && (await options.startFrom(live, 'live'))) {
      copyByLinks(live, dir);
      origin = 'live';
    } else mkdirSync(dir);
    const files = new TreeFiles(dir);
    result = await fill(outputOver(files, { origin }), files);
    writeFileSync(join(dir, COMPLETE_MARKER), '');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const replaced = switchTo(target, dir, tag);
  let kept: string | undefined;
  if (options.startFrom !== undefined) {
    // The tree that was live becomes the standby; the first build copies its own.
    kept = replaced ?? (live !== dir ? live : undefined);
    if (kept === undefined) {
      kept = join(treesFolderOf(target), `${process.pid}-${randomBytes(4).toString('hex')}`);
      if (options.copy === undefined) copyByLinks(dir, kept);
      else {
        mkdirSync(kept);
        await options.copy(dir, kept);
      }
      writeFileSync(join(kept, COMPLETE_MARKER), '');
    }
  }
  for (const entry of readdirSync(treesFolderOf(target))) {
    const other = join(treesFolderOf(target), entry);
    if (TREE_NAME.test(entry) && other !== dir && other !== kept) rmSync(other, { recursive: true, force: true });
  }
  return { result, live: dir, standby: kept };
}

/**
 * Makes `to` a copy of the tree `from` by hard links: its folders made again, its files and
 * symbolic links linked (copied where the file system has no hard links). A tree holds its
 * loadouts by links into the store, so this is a few folders and five links per loadout.
 */
function copyByLinks(from: string, to: string): void {
  const files = new TreeFiles(to);
  mkdirSync(to);
  // One listing of the whole tree and a link per file: the copy is new, nothing to compare. The
  // links to the store's folders are linked, not followed (folder-entries.ts).
  for (const { path, dirent } of listFolderEntries(from)) {
    if (path === COMPLETE_MARKER) continue; // the copy is complete when its writer says so
    if (dirent.isDirectory()) files.mkdir(path);
    else if (dirent.isFile() || dirent.isSymbolicLink()) files.link(path, join(from, path));
  }
}

/** The standby of the output folder `out` (see {@link WriteTreeOptions}), or undefined when there is none. */
export function findStandby(out: string): string | undefined {
  const target = resolve(out);
  if (!existsSync(treesFolderOf(target))) return undefined;
  return standbyOf(target, liveTreeOf(target));
}

/** The newest complete tree beside `target` that is not `live`, or undefined. */
function standbyOf(target: string, live: string | undefined): string | undefined {
  return completeTrees(target).find((t) => t !== live);
}

/** The complete trees beside `target`, newest first. */
function completeTrees(target: string): string[] {
  const trees = treesFolderOf(target);
  return readdirSync(trees)
    .filter((entry) => TREE_NAME.test(entry))
    .map((entry) => ({ dir: join(trees, entry), marker: statSync(join(trees, entry, COMPLETE_MARKER), { throwIfNoEntry: false }) }))
    .filter((t) => t.marker !== undefined)
    .sort((a, b) => (b.marker?.mtimeMs ?? 0) - (a.marker?.mtimeMs ?? 0))
    .map((t) => t.dir);
}

/**
 * Takes the standby over for this build: renames it to `dir` (its name carries this process's
 * id) and removes its complete marker before anything in it changes.
 */
function claimStandby(standby: string, dir: string): void {
  renameSync(standby, dir);
  checkpoint();
  rmSync(join(dir, COMPLETE_MARKER), { force: true });
  checkpoint();
}

/** The folder of the tree that `target` serves now, or undefined when there is none. */
function liveTreeOf(target: string): string | undefined {
  const info = lstatSync(target, { throwIfNoEntry: false });
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) {
    try {
      return realpathSync(target);
    } catch {
      return undefined; // a dangling link: no live tree
    }
  }
  if (info.isDirectory()) return target;
  throw new LoadoutError('io', `${target} is a file (expected the build's output folder, or nothing there)`, { hint: 'Remove it or pass another --out.' });
}

/**
 * Points `target` at the tree `dir` with one atomic rename of a new symbolic link. A real
 * folder at `target` (a tree of an earlier version of this code, or a copy) is first moved
 * into the trees folder (its new place is returned); from then on every switch is one rename.
 */
function switchTo(target: string, dir: string, tag: string): string | undefined {
  const link = join(dirname(target), `.${basename(target)}.link-${tag}`);
  checkpoint();
  symlinkSync(relative(dirname(target), dir), link, process.platform === 'win32' ? 'junction' : 'dir');
  checkpoint();
  const info = lstatSync(target, { throwIfNoEntry: false });
  let replaced: string | undefined;
  if (info !== undefined && !info.isSymbolicLink()) {
    replaced = join(treesFolderOf(target), `${tag}-replaced`);
    renameSync(target, replaced);
    checkpoint();
  }
  renameSync(link, target);
  checkpoint();
  return replaced;
}

/**
 * Takes the lock of the trees folder `trees` for this process, breaking one left by a process
 * that is gone. Returns the function that releases it.
 * @throws LoadoutError `io` when a running build (this process or another) holds it.
 */
function lockTrees(trees: string, target: string): () => void {
  const lock = join(trees, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim());
    if (holder === process.pid || isOtherLiveProcess(holder)) {
      throw new LoadoutError('io', `another build is writing ${target} (process ${holder})`, { hint: 'Wait for it to finish; builds of one output folder run one at a time.' });
    }
    // Left by a process that is gone: read again just before removing, so that a lock another
    // build took meanwhile stays.
    if (Number(readFileSync(lock, 'utf8').trim()) === holder) rmSync(lock, { force: true });
  }
  throw new LoadoutError('io', `could not take the build lock ${lock}`, { hint: 'Another build keeps taking it; try again.' });
}

/**
 * Removes what earlier builds left beside `target`: trees that are neither live nor the
 * standby, links never switched in, and `.tmp-*` / `.old-*` folders of earlier versions of
 * this code. When `target` itself is missing (a build of an earlier version killed between
 * its two renames), the newest complete tree becomes live again. Runs under the lock.
 */
function removeLeftovers(target: string): void {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.`;
  for (const entry of readdirSync(parent)) {
    const leftover = entry.startsWith(prefix) ? /^(?:tmp|old|link)-(\d+)-/u.exec(entry.slice(prefix.length)) : null;
    if (leftover !== null && !isOtherLiveProcess(Number(leftover[1]))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  if (lstatSync(target, { throwIfNoEntry: false }) === undefined) {
    const newest = completeTrees(target)[0];
    if (newest !== undefined) switchTo(target, newest, `${process.pid}-restore`);
  }
  const live = liveTreeOf(target);
  const standby = standbyOf(target, live);
  const trees = treesFolderOf(target);
  for (const entry of readdirSync(trees)) {
    const dir = join(trees, entry);
    if (TREE_NAME.test(entry) && dir !== live && dir !== standby) rmSync(dir, { recursive: true, force: true });
  }
}

function isOtherLiveProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
