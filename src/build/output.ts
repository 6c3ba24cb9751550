/**
 * Writing the static tree so that a build, failed or killed at any point, never leaves a
 * half-written or mixed `--out` (README "How a build works"; issue 9 point 4).
 *
 * `--out` is a symbolic link to one complete tree in the folder `.<out>.trees/` beside it.
 * A build writes the next tree there whole: new files written, the unchanged loadouts' files
 * hard-linked from the current tree (so an incremental build copies no bytes). Then one
 * `rename` of a new link over `--out` switches readers from one whole tree to the other, and
 * the old tree is removed. A build killed before the switch leaves the old tree live; killed
 * after it, the new one. Whatever an earlier build left behind (its unfinished tree, an old
 * tree, a link, or the `.<out>.tmp-*` and `.<out>.old-*` folders of earlier versions of this
 * code) is removed by the next build.
 *
 * With `acceptStandby` (the build), the tree that was live stays beside the new one as a
 * standby, and the next build brings that standby up to date in place (only the loadouts
 * that changed since its generation, and the catalogue documents) and switches to it. Its
 * `.complete` marker is removed before the first change, so a standby left half-updated by a
 * killed build is removed like any unfinished tree, and readers only ever see the live tree.
 *
 * Every write goes through {@link OutputTree}, which refuses a path that is not a normalised
 * relative path inside its tree (so a hostile version string or file path cannot write
 * elsewhere; issue 9 point 1).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { describePathProblem } from '../catalogue/file-path.js';
import { startTreeWriter, type TreeWriter } from './tree-writer.js';

/**
 * A tree being written. Paths are relative to the tree, with forward slashes. Changes are
 * queued for the tree's writer thread (tree-writer.ts) and made in the order asked: the
 * promises resolve once a change is queued, and a failed change makes every later call, and
 * the tree's completion, throw its error. {@link OutputTree.flush} waits for them on disk.
 */
export interface OutputTree {
  /** The folder being written. */
  readonly dir: string;
  /**
   * Writes a file, creating its folders.
   * @throws LoadoutError `internal` when `path` is not a normalised relative path (it would
   *   leave the tree); the file system's error once an earlier change failed.
   */
  write(path: string, data: string | Uint8Array): Promise<void>;
  /** Resolves when every change asked for so far is on disk (before reading a file back). Throws the first failed change's error. */
  flush(): Promise<void>;
  /** Writes pretty-printed JSON with a final newline. Same errors as {@link OutputTree.write}. */
  writeJson(path: string, value: unknown): Promise<void>;
  /**
   * Writes at `path` the same bytes as `existing`, a file this tree holds (written or carried
   * over, or queued before this call), as a hard link to it, or a copy where the file system
   * has none. A new file costs this machine's file system about 50 times a link (issue 13),
   * and discovery files repeat raw files of the same loadout.
   * Same errors as {@link OutputTree.write}; the file system's error when `existing` is missing.
   */
  link(path: string, existing: string): Promise<void>;
  /**
   * Makes `path` a symbolic link to `folder`, a folder of this tree (written or carried over
   * before, or later in this build), so that `path` holds the same files under a second
   * address without making its folders again: a raw `latest` folder and its version's
   * (issue 13: on this machine a new folder costs what a new file does, 50 links). `loadout
   * serve` and `loadout publish` follow such links within the tree only.
   * Same errors as {@link OutputTree.write}.
   */
  linkFolder(path: string, folder: string): Promise<void>;
  /**
   * Carries `path` (a file, or a folder with everything below it) over from the tree that is
   * live now, by hard links; does nothing when the live tree has nothing there.
   * Same errors as {@link OutputTree.write}.
   */
  reuse(path: string): Promise<void>;
  /**
   * Removes the file or folder at `path` (everything below it), if any. Same errors as
   * {@link OutputTree.write}.
   */
  remove(path: string): Promise<void>;
  /**
   * True when this tree is the standby tree being brought up to date (see {@link writeTree}):
   * it holds a whole older generation, and the caller removes or keeps what is there.
   */
  readonly updating: boolean;
  /** Bytes written so far (reused files not counted). */
  readonly bytes: number;
}

/** Options of {@link writeTree}. */
export interface WriteTreeOptions {
  /**
   * Keep a standby tree: after the switch, the tree that was live stays beside the new one
   * (complete, never served), and the next call may update it in place instead of writing a
   * whole new tree, which a rebuild that changes a few loadouts of thousands needs (issue 13:
   * making every folder again costs most of a rebuild on this machine's disk). Called with
   * the standby's folder when there is one; true lets this call update it (`tree.updating`).
   */
  acceptStandby?: (dir: string) => Promise<boolean>;
}

/** Name of the folder beside `--out` that holds the trees. */
export const treesFolderOf = (target: string): string => join(dirname(target), `.${basename(target)}.trees`);

/** Marker written into a tree once it is complete (a dot file: never served nor published). */
export const COMPLETE_MARKER = '.complete';

/**
 * Test hook for the crash test (`npm run test:crash`): when the environment variable
 * `LOADOUT_CRASH_AT` is N, the process kills itself with SIGKILL at its N-th checkpoint (one
 * per file written, linked, reused or removed, counted by the tree's writer thread, and one
 * before and after each step of the switch). Off (and a single comparison) otherwise.
 */
const CRASH_AT = Number(process.env.LOADOUT_CRASH_AT ?? 0);
/** The checkpoint count, shared with the writer threads (`tree-writer.ts`). */
const checkpointCounter = new SharedArrayBuffer(4);
const checkpoints = new Int32Array(checkpointCounter);
function checkpoint(): void {
  if (Atomics.add(checkpoints, 0, 1) + 1 >= CRASH_AT && CRASH_AT > 0) process.kill(process.pid, 'SIGKILL');
}

/** Checkpoints passed so far in this process (read by the crash test's child after a whole build). */
export const checkpointsPassed = (): number => Atomics.load(checkpoints, 0);

/** Trees being written by this process (so that cleaning up never removes one of ours). */
const active = new Set<string>();

/**
 * Runs `fill` on a new tree (or on the standby, see {@link WriteTreeOptions}) and, when it
 * resolves, makes that tree the one `out` points at. When `fill` throws, the tree it was
 * filling is removed and `out` is left as it was.
 * @throws LoadoutError `io` when `out` exists and is neither a folder nor a link to one.
 */
export async function writeTree<T>(out: string, fill: (tree: OutputTree) => Promise<T>, options: WriteTreeOptions = {}): Promise<T> {
  const target = resolve(out);
  const trees = treesFolderOf(target);
  await mkdir(trees, { recursive: true });
  removeLeftovers(target);
  const live = liveTreeOf(target);
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(trees, tag);
  const updating = options.acceptStandby !== undefined && (await claimStandby(target, live, dir, options.acceptStandby));
  if (!updating) await mkdir(dir);
  active.add(dir);
  try {
    const writer = startTreeWriter(dir, checkpointCounter, CRASH_AT);
    let result: T;
    try {
      result = await fill(openTree(dir, live, updating, writer));
      await writer.close();
      await writeFile(join(dir, COMPLETE_MARKER), '');
    } catch (error) {
      await writer.close().catch(() => undefined); // the error that stopped the fill is the one to report
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    const replaced = switchTo(target, dir, tag);
    const old = replaced ?? live;
    // The tree that was live becomes the standby, or goes.
    if (old !== undefined && old !== dir && old !== target && options.acceptStandby === undefined) await rm(old, { recursive: true, force: true });
    return result;
  } finally {
    active.delete(dir);
  }
}

/**
 * The standby tree of the output folder `out` (see {@link WriteTreeOptions}), or undefined
 * when there is none. A later {@link writeTree} takes it only if no other build took it first.
 */
export function findStandby(out: string): string | undefined {
  const target = resolve(out);
  if (!existsSync(treesFolderOf(target))) return undefined;
  return standbyOf(target, liveTreeOf(target));
}

/**
 * The standby of `target`: the newest complete tree beside it that is not live and that no
 * other running process is writing. Undefined when there is none.
 */
function standbyOf(target: string, live: string | undefined): string | undefined {
  const trees = treesFolderOf(target);
  let newest: { dir: string; time: number } | undefined;
  for (const entry of readdirSync(trees)) {
    const dir = join(trees, entry);
    if (dir === live || active.has(dir) || isOtherLiveProcess(Number(/^(\d+)-/u.exec(entry)?.[1]))) continue;
    const marker = statSync(join(dir, COMPLETE_MARKER), { throwIfNoEntry: false });
    if (marker !== undefined && (newest === undefined || marker.mtimeMs > newest.time)) newest = { dir, time: marker.mtimeMs };
  }
  return newest?.dir;
}

/**
 * Takes the standby for this build when `accept` says its contents can be used: renames it
 * to `dir` (one rename, so two builds never take the same standby; the name carries this
 * process's id, so other builds leave it alone) and removes its complete marker before
 * anything in it changes. False when there is no standby, `accept` refuses it, or another
 * build took it first.
 */
async function claimStandby(target: string, live: string | undefined, dir: string, accept: (dir: string) => Promise<boolean>): Promise<boolean> {
  const standby = standbyOf(target, live);
  if (standby === undefined || !(await accept(standby))) return false;
  try {
    renameSync(standby, dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  checkpoint();
  rmSync(join(dir, COMPLETE_MARKER), { force: true });
  checkpoint();
  return true;
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
 * Removes what earlier builds left beside `target`: trees that are neither live nor the
 * standby and whose building process is gone, links never switched in, and `.tmp-*` /
 * `.old-*` folders of earlier versions of this code. When `target` itself is missing (a build of an earlier
 * version killed between its two renames), the newest complete tree becomes live again.
 */
function removeLeftovers(target: string): void {
  const parent = dirname(target);
  const name = basename(target);
  const trees = treesFolderOf(target);
  const prefix = `.${name}.`;
  for (const entry of readdirSync(parent)) {
    const leftover = entry.startsWith(prefix) ? /^(?:tmp|old|link)-(\d+)-/u.exec(entry.slice(prefix.length)) : null;
    if (leftover !== null && !isOtherLiveProcess(Number(leftover[1]))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  if (lstatSync(target, { throwIfNoEntry: false }) === undefined) restoreNewestComplete(target);
  const live = liveTreeOf(target);
  const standby = standbyOf(target, live);
  for (const entry of readdirSync(trees)) {
    const dir = join(trees, entry);
    if (dir === live || dir === standby || active.has(dir)) continue;
    const pid = Number(/^(\d+)-/u.exec(entry)?.[1]);
    if (pid === process.pid || !isOtherLiveProcess(pid)) rmSync(dir, { recursive: true, force: true });
  }
}

function restoreNewestComplete(target: string): void {
  const trees = treesFolderOf(target);
  const complete = readdirSync(trees)
    .map((entry) => ({ dir: join(trees, entry), marker: statSync(join(trees, entry, COMPLETE_MARKER), { throwIfNoEntry: false }) }))
    .filter((t) => t.marker !== undefined)
    .sort((a, b) => (b.marker?.mtimeMs ?? 0) - (a.marker?.mtimeMs ?? 0));
  const newest = complete[0];
  if (newest !== undefined) switchTo(target, newest.dir, `${process.pid}-restore`);
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

/**
 * The one function through which a tree path becomes a file-system path: `path` must be a
 * normalised relative path (the rule of `files[].path`, catalogue/file-path.ts), so the
 * result always lies inside `dir`.
 * @throws LoadoutError `internal` otherwise: a caller let an unchecked value through.
 */
export function resolveInside(dir: string, path: string): string {
  const problem = describePathProblem(path);
  const file = join(dir, path);
  if (problem !== undefined || !file.startsWith(dir + sep)) {
    throw new LoadoutError('internal', `refused to write ${JSON.stringify(path)} in the output tree: the path ${problem ?? 'leaves the tree'}`);
  }
  return file;
}

/** The tree at `dir`, whose changes `writer` makes. */
function openTree(dir: string, live: string | undefined, updating: boolean, writer: TreeWriter): OutputTree {
  let bytes = 0;
  const tree: OutputTree = {
    dir,
    updating,
    async remove(path) {
      await writer.apply({ kind: 'remove', file: resolveInside(dir, path) });
    },
    async write(path, data) {
      await writer.apply({ kind: 'write', file: resolveInside(dir, path), data });
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    },
    async link(path, existing) {
      await writer.apply({ kind: 'link', file: resolveInside(dir, path), existing: resolveInside(dir, existing) });
    },
    async linkFolder(path, folder) {
      const file = resolveInside(dir, path);
      await writer.apply({ kind: 'symlink', file, target: relative(dirname(file), resolveInside(dir, folder)) });
    },
    flush: () => writer.flush(),
    writeJson: (path, value) => tree.write(path, `${JSON.stringify(value, null, 2)}\n`),
    async reuse(path) {
      const file = resolveInside(dir, path);
      if (live !== undefined) await writer.apply({ kind: 'reuse', file, from: join(live, path) });
    },
    get bytes() {
      return bytes;
    },
  };
  return tree;
}
