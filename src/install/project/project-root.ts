/**
 * The one handle on a project folder (or, for the user scope, on the home folder) that every
 * read, write, rename and removal of the installer goes through, its own files included (the
 * lock, the journal, temporary files, `.loadout/` and everything below it): where a path in a
 * user's project may lead is decided here and nowhere else (STYLE.md habit 5b; issue 53,
 * point 1). Only this module of `src/install/` (and the catalogue reader's folder access,
 * `catalogue/catalogue-folder.ts`, which reads a built tree, not the project) imports `node:fs`;
 * `test/import-graph.test.ts` holds that.
 *
 * The rule, for every path (project-relative, `/`-separated):
 * 1. it has the form of rules 1 and 2 of `layout/target-rules.ts` (normalised, relative, never
 *    in `.git`);
 * 2. it is walked from the project's real root one component at a time, each looked at with
 *    `lstat` at the moment of use: a symbolic link is followed only when it leads to a place
 *    inside the project and not into `.git` (the user's `CLAUDE.md -> AGENTS.md`, a skills
 *    folder linked to a shared one of the project); a link that leaves the project, points to
 *    nothing, or leads into `.git` is refused ({@link RefusedPath}), whatever the operation;
 * 3. the installer's own files (`own: true`) are never reached through a link at all below the
 *    folder that holds them (the project root; `~/.config/loadout/` for the user scope, whose
 *    `~/.config` may be a link inside the home folder), and a link at their place is never
 *    followed: a lock, journal, backup or temporary file is a regular file or nothing, and the
 *    backup folder a real folder;
 * 4. a file is opened with `O_NOFOLLOW` (and `O_CREAT | O_EXCL` when it is created), and a
 *    regular file only: a FIFO, socket or device is refused by name instead of blocking.
 *
 * The race that remains, and how it is narrowed: Node has no `openat`, so a path is walked
 * and then opened (or renamed, linked, removed) by its absolute real path; a folder of that
 * path swapped for a link between the walk and the call would be followed. The last component
 * is never followed (`O_NOFOLLOW`; rename, link, unlink and rmdir act on the entry itself), a
 * file read is checked after it is opened (its `fstat` must be the file the walk found: same
 * device and inode), and a file created is checked before any byte is written to it (the path
 * walked again must lead to the file just created), so such a swap can at most leave an empty
 * file where the swapped link led. Only a process racing the command on the same machine can
 * attempt it; a link committed to a repository is there before the walk and is always found.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readdir, realpath, rename, rmdir, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { readAtMost } from '../../catalogue/read-at-most.js';
import { describeTargetProblem, isGitSegment } from '../../layout/target-rules.js';

/** `O_NOFOLLOW` and `O_NONBLOCK` where the platform has them (POSIX; 0 on Windows, which has no such flags). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** What stands at a path: the entry itself, a link not followed. */
export type EntryKind = 'file' | 'folder' | 'link' | 'other';

/** One entry below a listed folder: its path relative to that folder (`/`-separated) and its kind (a link is listed, not followed). */
export interface ProjectEntry {
  path: string;
  kind: EntryKind;
}

/** How a path is used. */
export interface PathOptions {
  /** One of the installer's own files or folders (lock, journal, backups, temporary files of the lock): rule 3 of the module comment. */
  own?: boolean;
}

/** Options of {@link ProjectRoot.read}. */
export interface ReadOptions extends PathOptions {
  /** The most bytes the file may hold; a larger one is refused without being read. Default: no cap. */
  max?: number;
}

/**
 * A path the handle will not act on: it breaks rule 1 or 2 of `target-rules.ts`, or leads
 * through a link out of the project, into `.git` or to nothing, or (an own path) through any
 * link. `problem` completes a sentence that starts with the path.
 */
export class RefusedPath extends LoadoutError {
  readonly path: string;
  readonly problem: string;

  constructor(path: string, problem: string) {
    super('invalid_content', `${path} ${problem}`, { hint: '--force does not change this.' });
    this.path = path;
    this.problem = problem;
  }
}

/** The names the installer gives its temporary files: `<file>.loadout-<pid>-<8 hex>.tmp`. */
export const TEMPORARY_NAME = /\.loadout-\d+-[0-9a-f]{8}\.tmp$/u;

/** A fresh temporary name beside `path` (see {@link TEMPORARY_NAME}). */
export const temporaryNameOf = (path: string): string => `${path}.loadout-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/** What an entry is, for messages: `a folder`, `a symbolic link`, `a FIFO (named pipe)`. */
export function describeKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : 'not a file';
}

const kindOfStats = (stats: Stats): EntryKind => (stats.isSymbolicLink() ? 'link' : stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other');

/** An error with a file system code (`ENOTDIR`, `EEXIST`, `EISDIR`, `ENOENT`), as callers that map codes to messages expect. */
const fsError = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: ${message}`), { code });

const lstatOrNothing = (path: string): Promise<Stats | undefined> =>
  lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });

const isOutside = (inside: string): boolean => inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);

/** Where a walk ended. */
interface Place {
  /** Absolute; every folder above the last component is real (no link), and the last one too when it was followed. */
  abs: string;
  /** The same place relative to the real root, `/`-separated. */
  rel: string;
  /** `lstat` of `abs`; undefined when nothing is there. */
  stats: Stats | undefined;
  /** Set when a component above the last is not a folder (a file stands where a folder is needed): that component, relative. */
  blocked?: string;
}

/** The handle: see the module comment. Paths are project-relative and `/`-separated. */
export interface ProjectRoot {
  /** The folder as given, absolute (for messages). */
  readonly dir: string;
  /** The folder's real path (links resolved), absolute. */
  readonly real: string;
  /** Why `path` may not be used (rules 1 to 3 of the module comment), or undefined. Reads only. */
  describeLanding(path: string, options?: PathOptions): Promise<string | undefined>;
  /** Where a write to `path` lands, relative to the real root: after a link at its end that leads inside the project (the link stays a link), else `path` with its folders' links resolved. @throws RefusedPath */
  placeOf(path: string): Promise<string>;
  /** `path`'s place when it is a link to another place inside the project; undefined when it is no link, or leads outside or nowhere. */
  linkedPlaceOf(path: string): Promise<string | undefined>;
  /** What stands at `path` (a link at its end followed only with `follow`), or undefined for nothing. @throws RefusedPath */
  kindOf(path: string, options?: PathOptions & { follow?: boolean }): Promise<EntryKind | undefined>;
  /**
   * The bytes of the regular file at `path` (through a link inside the project at its end,
   * unless `own`), or undefined when nothing is there (or a folder, for a path that is not `own`).
   * @throws RefusedPath; LoadoutError `invalid_content` when it is a FIFO, socket or device (or,
   *   `own`, a link or folder), or larger than `max`; `io` when it changed while it was opened
   */
  read(path: string, options?: ReadOptions): Promise<Uint8Array | undefined>;
  /** Every entry below the folder `path` (none when it is not a folder), a folder before its entries; links listed, never followed. @throws RefusedPath; LoadoutError `invalid_content` when `own` and `path` is a link */
  list(path: string, options?: PathOptions): Promise<ProjectEntry[]>;
  /** Makes the folder `path` and its missing parents, one at a time; returns those it made (relative, outermost first). @throws RefusedPath; an `ENOTDIR` error when a file stands where a folder is needed */
  mkdirs(path: string, options?: PathOptions): Promise<string[]>;
  /** Creates the file `path` holding `bytes`: `O_CREAT | O_EXCL | O_NOFOLLOW`, so nothing at `path` (a file, a dangling link) is ever written through. @throws RefusedPath; an `EEXIST` error when anything is there */
  createExclusive(path: string, bytes: Uint8Array | string, options?: PathOptions): Promise<void>;
  /** Writes `bytes` at {@link placeOf} `path` (at `path` itself when `own`) through a fresh temporary file beside it and one rename. @throws RefusedPath; the file system's error (the temporary file removed) */
  writeFileAtomic(path: string, bytes: Uint8Array | string, options?: PathOptions): Promise<void>;
  /** Renames the entry at `from` (a link is moved, not followed) to `to`. @throws RefusedPath; the file system's error */
  rename(from: string, to: string, fromOptions?: PathOptions, toOptions?: PathOptions): Promise<void>;
  /** Makes `path` a second name of the file at `existing` (a hard link): fails when anything is at `path`. @throws RefusedPath; an `EEXIST` error */
  linkExclusive(existing: string, path: string, options?: PathOptions): Promise<void>;
  /** Removes the file or link at `path` (never what a link points to); false when nothing was there. @throws RefusedPath; an `EISDIR` error for a folder */
  remove(path: string, options?: PathOptions): Promise<boolean>;
  /** Removes the folder `path` when it is an empty real folder (not a link); true when removed. @throws RefusedPath */
  removeEmptyFolder(path: string, options?: PathOptions): Promise<boolean>;
  /** True when `a` and `b` are both regular files (no link at their end) and the same file (device and inode). @throws RefusedPath */
  sameFile(a: string, b: string, options?: PathOptions): Promise<boolean>;
  /** The identity of the entry at `path` (a link's own, not followed): `<device>:<inode>`, decimal; undefined for nothing. @throws RefusedPath */
  identify(path: string, options?: PathOptions): Promise<string | undefined>;
}

/** Options of {@link openProject}. */
export interface OpenOptions {
  /** The folder (relative, `/`-separated; `''` for the root itself) that holds the installer's own files: rule 3 of the module comment. Default `''`. */
  ownArea?: string;
}

/**
 * Opens the handle on the folder `dir`: its real path (links resolved) is taken once, here.
 * A folder that does not exist yet is made when something is first written into it.
 * @throws the file system's error other than ENOENT
 */
export async function openProject(dir: string, options: OpenOptions = {}): Promise<ProjectRoot> {
  const given = resolve(dir);
  const found = await realpath(given).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const ownArea = options.ownArea ?? '';
  return new Handle(given, found ?? given, found !== undefined, ownArea === '' ? 0 : ownArea.split('/').length - 1);
}

class Handle implements ProjectRoot {
  readonly dir: string;
  #real: string;
  #exists: boolean;
  /** The index of the first component of an own path that may not be a link. */
  readonly #linkFree: number;

  constructor(dir: string, real: string, exists: boolean, linkFree: number) {
    this.dir = dir;
    this.#real = real;
    this.#exists = exists;
    this.#linkFree = linkFree;
  }

  get real(): string {
    return this.#real;
  }

  /** Walks `path` from the real root (rule 2 and 3 of the module comment), following a link at its end only with `followLast`. */
  async #walk(path: string, own: boolean, followLast: boolean): Promise<Place> {
    const problem = describeTargetProblem(path);
    if (problem !== undefined) throw new RefusedPath(path, problem);
    const segments = path.split('/');
    let abs = this.#real;
    let rel: string[] = [];
    for (const [i, segment] of segments.entries()) {
      const last = i === segments.length - 1;
      const rest = segments.slice(i + 1);
      const next = join(abs, segment);
      let stats = await lstatOrNothing(next);
      if (stats === undefined) return { abs: join(next, ...rest), rel: [...rel, segment, ...rest].join('/'), stats: undefined };
      if (stats.isSymbolicLink() && (followLast || !last)) {
        const link = segments.slice(0, i + 1).join('/');
        if (own && i >= this.#linkFree) throw new RefusedPath(path, `goes through the symbolic link ${link}, and the installer's own files are never reached through a link (expected real folders and files)`);
        const target = await realpath(next).catch(() => undefined);
        if (target === undefined) throw new RefusedPath(path, `goes through the symbolic link ${link}, which points to nothing (expected folders and files of the project, or nothing yet)`);
        const inside = relative(this.#real, target);
        const landing = join(target, ...rest);
        if (isOutside(inside) || (last && inside === '')) throw new RefusedPath(path, `lands at ${landing} through the symbolic link ${link}, outside the project (expected a place inside ${this.#real})`);
        if (inside.split(sep).some(isGitSegment)) throw new RefusedPath(path, `lands at ${landing} through the symbolic link ${link}, in a .git folder, which an install never writes (expected a path outside .git/)`);
        abs = target;
        rel = inside === '' ? [] : inside.split(sep);
        stats = await lstat(target);
      } else {
        abs = next;
        rel.push(segment);
      }
      if (last) return { abs, rel: rel.join('/'), stats };
      if (!stats.isDirectory()) return { abs: join(abs, ...rest), rel: [...rel, ...rest].join('/'), stats: undefined, blocked: rel.join('/') };
    }
    throw new LoadoutError('internal', `internal error: walking ${path} ended without a place`);
  }

  /** Makes the root when it did not exist at open, and takes its real path then. */
  async #ensureRoot(): Promise<void> {
    if (this.#exists) return;
    await mkdir(this.#real, { recursive: true });
    this.#real = await realpath(this.#real);
    this.#exists = true;
  }

  async describeLanding(path: string, options: PathOptions = {}): Promise<string | undefined> {
    const own = options.own === true;
    try {
      const place = await this.#walk(path, own, !own);
      if (own && place.stats?.isSymbolicLink() === true) return "is a symbolic link, and the installer's own files are never links (expected a regular file or nothing)";
      return undefined;
    } catch (error) {
      if (error instanceof RefusedPath) return error.problem;
      throw error;
    }
  }

  async placeOf(path: string): Promise<string> {
    return (await this.#walk(path, false, true)).rel;
  }

  async linkedPlaceOf(path: string): Promise<string | undefined> {
    const place = await this.#walk(path, false, false).catch(() => undefined);
    if (place?.stats?.isSymbolicLink() !== true) return undefined;
    const target = await this.#walk(path, false, true).catch(() => undefined);
    if (target?.stats === undefined || target.rel === path) return undefined;
    return target.rel;
  }

  async kindOf(path: string, options: PathOptions & { follow?: boolean } = {}): Promise<EntryKind | undefined> {
    const place = await this.#walk(path, options.own === true, options.follow === true);
    return place.stats === undefined ? undefined : kindOfStats(place.stats);
  }

  async read(path: string, options: ReadOptions = {}): Promise<Uint8Array | undefined> {
    return this.#read(path, options).catch((error: unknown) => {
      if (error instanceof LoadoutError) throw error;
      throw new LoadoutError('io', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
    });
  }

  async #read(path: string, options: ReadOptions): Promise<Uint8Array | undefined> {
    const own = options.own === true;
    const place = await this.#walk(path, own, !own);
    const found = place.stats;
    if (found === undefined || (found.isDirectory() && !own)) return undefined;
    if (!found.isFile()) {
      throw new LoadoutError('invalid_content', `${path} is ${describeKind(found)}, not a regular file; nothing was read`, {
        hint: own ? "The installer's own files (the lock, its journal, the backups) are regular files, never links or folders: move it away or remove it." : 'Replace it with a file, or remove it.',
      });
    }
    const handle = await open(place.abs, constants.O_RDONLY | NOFOLLOW | NONBLOCK).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      if (error.code === 'ELOOP') throw new LoadoutError('io', `${path} changed while it was opened (it became a symbolic link); nothing was read`, { cause: error });
      throw error;
    });
    if (handle === undefined) return undefined;
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.dev !== found.dev || opened.ino !== found.ino) throw new LoadoutError('io', `${path} changed while it was opened (another file is there now); nothing was read`, { hint: 'Run the command again once nothing else changes the project.' });
      if (options.max === undefined) return await handle.readFile();
      const bytes = await readAtMost(handle, options.max);
      if (bytes.length > options.max) throw new LoadoutError('invalid_content', `${path} holds more than ${options.max} bytes (expected at most that); nothing was read`);
      return bytes;
    } finally {
      await handle.close();
    }
  }

  async list(path: string, options: PathOptions = {}): Promise<ProjectEntry[]> {
    const own = options.own === true;
    const place = await this.#walk(path, own, !own);
    if (own && place.stats?.isSymbolicLink() === true) throw new RefusedPath(path, "is a symbolic link, and the installer's own folders are never reached through a link (expected a real folder)");
    if (place.stats?.isDirectory() !== true) return [];
    const entries: ProjectEntry[] = [];
    const visit = async (abs: string, prefix: string): Promise<void> => {
      const found = await readdir(abs, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
        throw error;
      });
      for (const dirent of found) {
        const entry = prefix === '' ? dirent.name : `${prefix}/${dirent.name}`;
        const kind: EntryKind = dirent.isSymbolicLink() ? 'link' : dirent.isDirectory() ? 'folder' : dirent.isFile() ? 'file' : 'other';
        entries.push({ path: entry, kind });
        if (kind === 'folder') await visit(join(abs, dirent.name), entry);
      }
    };
    await visit(place.abs, '');
    return entries;
  }

  async mkdirs(path: string, options: PathOptions = {}): Promise<string[]> {
    const own = options.own === true;
    await this.#ensureRoot();
    const segments = path.split('/');
    const made: string[] = [];
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      const place = await this.#walk(prefix, own, true);
      if (place.blocked !== undefined) throw fsError('ENOTDIR', `${place.blocked} is a file, where a folder of ${path} is needed`);
      if (place.stats?.isDirectory() === true) continue;
      if (place.stats !== undefined) throw fsError('EEXIST', `${prefix} is ${describeKind(place.stats)}, where a folder is needed`);
      await mkdir(place.abs);
      made.push(prefix);
    }
    return made;
  }

  async createExclusive(path: string, bytes: Uint8Array | string, options: PathOptions = {}): Promise<void> {
    const own = options.own === true;
    await this.#ensureRoot();
    const place = await this.#walk(path, own, false);
    if (place.blocked !== undefined) throw fsError('ENOTDIR', `${place.blocked} is a file, where a folder of ${path} is needed`);
    if (place.stats !== undefined) throw fsError('EEXIST', `${path} is already there (${describeKind(place.stats)}); nothing was written to it`);
    const handle = await open(place.abs, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o666);
    try {
      const made = await handle.stat();
      const again = await this.#walk(path, own, false);
      if (again.stats === undefined || again.stats.dev !== made.dev || again.stats.ino !== made.ino) throw new LoadoutError('io', `${path} changed while it was created (a folder of its path was replaced); nothing was written to it`, { hint: 'Run the command again once nothing else changes the project.' });
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
  }

  async writeFileAtomic(path: string, bytes: Uint8Array | string, options: PathOptions = {}): Promise<void> {
    const place = options.own === true ? path : await this.placeOf(path);
    const temp = temporaryNameOf(place);
    await this.createExclusive(temp, bytes, options);
    try {
      await this.rename(temp, place, options);
    } catch (error) {
      await this.remove(temp, options).catch(() => undefined);
      throw error;
    }
  }

  async rename(from: string, to: string, fromOptions: PathOptions = {}, toOptions: PathOptions = fromOptions): Promise<void> {
    const source = await this.#walk(from, fromOptions.own === true, false);
    const destination = await this.#walk(to, toOptions.own === true, false);
    if (source.stats === undefined) throw fsError('ENOENT', `${from} is not there`);
    if (destination.blocked !== undefined) throw fsError('ENOTDIR', `${destination.blocked} is a file, where a folder of ${to} is needed`);
    await rename(source.abs, destination.abs);
  }

  async linkExclusive(existing: string, path: string, options: PathOptions = {}): Promise<void> {
    const source = await this.#walk(existing, options.own === true, false);
    const destination = await this.#walk(path, options.own === true, false);
    if (source.stats?.isFile() !== true) throw fsError('ENOENT', `${existing} is not a regular file`);
    if (destination.blocked !== undefined) throw fsError('ENOTDIR', `${destination.blocked} is a file, where a folder of ${path} is needed`);
    if (destination.stats !== undefined) throw fsError('EEXIST', `${path} is already there (${describeKind(destination.stats)})`);
    await link(source.abs, destination.abs);
  }

  async remove(path: string, options: PathOptions = {}): Promise<boolean> {
    const place = await this.#walk(path, options.own === true, false);
    if (place.stats === undefined) return false;
    if (place.stats.isDirectory()) throw fsError('EISDIR', `${path} is a folder, not a file`);
    await unlink(place.abs).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return true;
  }

  async removeEmptyFolder(path: string, options: PathOptions = {}): Promise<boolean> {
    const place = await this.#walk(path, options.own === true, false);
    if (place.stats?.isDirectory() !== true) return false;
    return rmdir(place.abs).then(
      () => true,
      () => false,
    );
  }

  async sameFile(a: string, b: string, options: PathOptions = {}): Promise<boolean> {
    const [first, second] = await Promise.all([this.#walk(a, options.own === true, false), this.#walk(b, options.own === true, false)]);
    return first.stats?.isFile() === true && second.stats?.isFile() === true && first.stats.dev === second.stats.dev && first.stats.ino === second.stats.ino;
  }

  async identify(path: string, options: PathOptions = {}): Promise<string | undefined> {
    const place = await this.#walk(path, options.own === true, false);
    if (place.stats === undefined) return undefined;
    // Read again as bigints: an inode number may pass 2^53 (XFS, btrfs).
    const stats = await lstat(place.abs, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  }
}
