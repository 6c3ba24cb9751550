/**
 * The changes a build makes on disk, made synchronously below one root folder (a tree, or the
 * store of loadout entries, store.ts), on whichever thread builds: the main thread writes the
 * catalogue documents, the build's worker threads write loadout entries and links (pool.ts).
 * One blocking call per change costs less than a thread-pool round trip each (DESIGN.md
 * section 7: a cold build of 10,000 loadouts under 60 s; `bench/build.ts` measures it), and
 * the threads that write are the threads that render, so nothing is copied between them.
 *
 * Every path goes through {@link resolveInside}, so a hostile version string or file path
 * cannot write outside the root (DESIGN.md section 3: paths normalised, no `..`), and every
 * change passes one crash checkpoint (crash-points.ts).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { describePathProblem } from '../../catalogue/file-path.js';
import { checkpoint } from './crash-points.js';
import { jsonDocumentPieces } from './json-pieces.js';

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

/** The buffer text is encoded into on its way to a file: reused, and small enough to stay in the processor's cache. */
const TEXT_CHUNK = new Uint8Array(256 * 1024);
/** Whether a {@link PieceSink} holds {@link TEXT_CHUNK} (a paced write that lets the event loop run may overlap another write). */
let chunkInUse = false;
const encoder = new TextEncoder();

/**
 * Content written to the end of the open file `fd`, text encoded as UTF-8 into a buffer and
 * written a chunk (256 KiB) at a time: a catalogue's large documents (tens of MB for a large
 * catalogue) are never encoded into fresh memory whole, nor, when they come a piece at a time
 * ({@link ContentPieces}), ever made as one string, whose page faults and flattening cost a
 * rebuild more than the encoding itself (DESIGN.md section 7; `bench/build.ts` measures
 * rebuilds). {@link PieceSink.end} must be called, also when a write fails, to give the buffer back.
 */
class PieceSink {
  readonly #buffer: Uint8Array;
  readonly #shared: boolean;
  #at = 0;
  /** Bytes written to the file so far. */
  written = 0;

  constructor(private readonly fd: number) {
    this.#shared = !chunkInUse;
    this.#buffer = this.#shared ? TEXT_CHUNK : new Uint8Array(TEXT_CHUNK.byteLength);
    if (this.#shared) chunkInUse = true;
  }

  /** Adds `piece`: text (that does not end inside a surrogate pair), or bytes. */
  add(piece: string | Uint8Array): void {
    if (typeof piece !== 'string') {
      this.#flush();
      this.written += writeAll(this.fd, piece);
      return;
    }
    const text = piece;
    let read = 0;
    while (read < text.length) {
      // A slice of a flat string is a view of it (no copy); encodeInto never splits a character.
      const done = encoder.encodeInto(read === 0 ? text : text.slice(read), this.#buffer.subarray(this.#at));
      read += done.read;
      this.#at += done.written;
      if (read < text.length) this.#flush();
    }
  }

  /** Writes what is buffered and gives the buffer back. @returns the bytes written in all. */
  end(): number {
    try {
      this.#flush();
    } finally {
      if (this.#shared) chunkInUse = false;
    }
    return this.written;
  }

  #flush(): void {
    this.written += writeAll(this.fd, this.#buffer.subarray(0, this.#at));
    this.#at = 0;
  }
}

/** Writes all of `bytes` at the end of the open file `fd` (`writeSync` may write less). @returns their length. */
function writeAll(fd: number, bytes: Uint8Array): number {
  for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
  return bytes.byteLength;
}

/** Opens `file` as a new file for writing, replacing a file left at that name (a crashed build's). */
function openNew(file: string): number {
  try {
    return openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(file);
    return openSync(file, 'wx');
  }
}

/**
 * Makes a new entry at `at` through `make`, which fails with `EEXIST` where one exists: that one is
 * then removed (with everything below it when `recursive`; a folder otherwise throws) and `make`
 * runs again. Most entries a build makes are new, so trying first saves the `lstat` calls that
 * removing first costs (a few per entry in Node's `rmSync`; 3 % of a cold build's thread time at
 * 10,000 loadouts, docs/performance.md).
 */
function replacing(at: string, options: { recursive: boolean }, make: () => void): void {
  try {
    make();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(at, { recursive: options.recursive, force: true });
    make();
  }
}

/** Link errors after which a file is copied instead (another device, no hard links, too many links). */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK']);

/** Options of {@link TreeFiles}. */
export interface TreeFilesOptions {
  /**
   * Replace each file or link in one step: it is written under a temporary dot name beside its
   * place and renamed over it (POSIX `rename()`), so that a reader of a tree being served never
   * finds it missing or half-written (tree/deferred-documents.ts writes the live tree so).
   */
  atomic?: boolean;
  /**
   * Folders below the root (relative paths) known to exist, so that no `mkdir` is spent on them;
   * one that is gone after all is made again when a write below it fails (see `#folder`).
   */
  folders?: readonly string[];
}

/**
 * Synchronous changes below one root folder (which exists). Paths are relative to the root,
 * with forward slashes. Folders are made as needed; a file or link put where one exists
 * replaces it with a new one, so a change never writes through a hard link into a file that
 * another tree shares. The file system's errors are thrown as they are (with `code` and path).
 */
export class TreeFiles {
  /** Folders known to exist, so that a write costs no `mkdir` for them. */
  readonly #made = new Set<string>();
  readonly #atomic: boolean;

  constructor(
    readonly root: string,
    options: TreeFilesOptions = {},
  ) {
    this.#made.add(root);
    for (const folder of options.folders ?? []) this.#made.add(this.resolve(folder));
    this.#atomic = options.atomic === true;
  }

  /** The file-system path of `path`. @throws LoadoutError `internal` (see {@link resolveInside}). */
  resolve(path: string): string {
    return resolveInside(this.root, path);
  }

  /**
   * Writes `data` (text as UTF-8, bytes, or content a piece at a time) at `path`.
   * @returns the bytes written.
   */
  write(path: string, data: TreeContent): number {
    let bytes = 0;
    this.#put(this.#prepare(path), (at) => {
      const fd = openNew(at);
      try {
        if (data instanceof Uint8Array) bytes = writeAll(fd, data);
        else {
          const sink = new PieceSink(fd);
          try {
            if (typeof data === 'string') sink.add(data);
            else for (const piece of data) sink.add(piece);
          } finally {
            bytes = sink.end();
          }
        }
      } finally {
        closeSync(fd);
      }
    });
    return bytes;
  }

  /**
   * Writes content made a piece at a time at `path`, as {@link TreeFiles.write} does, and awaits
   * `pause()` between pieces whenever it returns a promise, so that a writer of a tree being
   * served can let the event loop run while it makes a large document (deferred-documents.ts).
   * Only for a tree opened {@link TreeFilesOptions.atomic}: until it ends, the file is a
   * temporary name, removed when a pause or a piece throws (the error is thrown on).
   * @returns the bytes written.
   * @throws LoadoutError `internal` on a tree that is not atomic; what `pause` or `pieces` throw; the file system's error.
   */
  async writePaced(path: string, pieces: ContentPieces, pause: () => Promise<void> | undefined): Promise<number> {
    if (!this.#atomic) throw new LoadoutError('internal', `a paced write of ${JSON.stringify(path)} needs an atomic tree`);
    let bytes = 0;
    await this.#put(this.#prepare(path), async (at) => {
      const fd = openNew(at);
      try {
        const sink = new PieceSink(fd);
        try {
          for (const piece of pieces) {
            sink.add(piece);
            const paused = pause();
            if (paused !== undefined) await paused;
          }
        } finally {
          bytes = sink.end();
        }
      } finally {
        closeSync(fd);
      }
    });
    return bytes;
  }

  /**
   * Makes `path` a hard link to `existing` (a file-system path: a file, or a symbolic link,
   * which Linux links as it is without following it), or a copy where the file system has no
   * hard links. A link adds only a directory entry, where a new file also takes an inode and its
   * data blocks (docs/performance.md has the build's figures).
   */
  link(path: string, existing: string): void {
    this.#put(this.#prepare(path), (at) =>
      replacing(at, { recursive: false }, () => {
        try {
          linkSync(existing, at);
        } catch (error) {
          if (!NO_LINK.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
          copyOrRelink(existing, at);
        }
      }),
    );
  }

  /**
   * Makes `path` hold what the tree `from` holds at `path`, by hard links ({@link TreeFiles.link}):
   * a file or link that already is a hard link to the same file is left as it is, another is
   * replaced, a folder is made and brought up to date below, and what `from` lacks there goes.
   * Folders are compared entry by entry, so bringing a copy up to date costs an `lstat` for each
   * file that did not change.
   * @param options.setAside called with the file-system path of each file about to be replaced,
   *   which it must move away (the store's trash, trash.ts `Trash.take`), instead of it being
   *   removed here: removing the last link of a large file frees its blocks and pages, which a
   *   caller on the critical path leaves to later (build.ts, the documents a deferring build carries).
   */
  syncFrom(from: string, path: string, options: { setAside?: (file: string) => void } = {}): void {
    const source = resolveInside(from, path);
    const target = this.resolve(path);
    const had = lstatSync(target, { throwIfNoEntry: false });
    const info = lstatSync(source, { throwIfNoEntry: false });
    if (info === undefined) {
      if (had !== undefined) this.remove(path);
      return;
    }
    if (!info.isDirectory()) {
      if (had !== undefined && !had.isDirectory() && had.ino === info.ino && had.dev === info.dev) return;
      if (had?.isDirectory() === true) this.remove(path);
      else if (had !== undefined && options.setAside !== undefined) options.setAside(target);
      this.link(path, source);
      return;
    }
    if (had !== undefined && !had.isDirectory()) this.remove(path);
    this.mkdir(path);
    const names = new Set(readdirSync(source));
    if (had !== undefined) for (const name of readdirSync(target)) if (!names.has(name)) this.remove(`${path}/${name}`);
    for (const name of names) this.syncFrom(from, `${path}/${name}`, options);
  }

  /**
   * Makes `path` a symbolic link to the folder `target` (a file-system path), written relative
   * to the link's folder so that the whole folder of trees can move.
   */
  symlink(path: string, target: string): void {
    const file = this.#prepare(path);
    this.#put(file, (at) => replacing(at, { recursive: true }, () => symlinkSync(relative(dirname(file), target), at, 'dir')));
  }

  /**
   * Removes the file, link or folder (with everything below it) at `path`, if any.
   * @param options.setAside called with the file-system path of what is there, which it must move
   *   away (the store's trash, trash.ts `Trash.take`: one `rename`), instead of it being removed
   *   here: a folder of hundreds of files took 50 ms to remove on the critical path of a rebuild.
   */
  remove(path: string, options: { setAside?: (file: string) => void } = {}): void {
    const file = this.resolve(path);
    if (options.setAside === undefined) rmSync(file, { recursive: true, force: true });
    else if (lstatSync(file, { throwIfNoEntry: false }) !== undefined) options.setAside(file);
    for (const dir of this.#made) if (dir === file || dir.startsWith(file + sep)) this.#made.delete(dir);
    checkpoint();
  }

  /** Makes the folder `path` and its parents (no checkpoint: an empty folder is never read). */
  mkdir(path: string): void {
    this.#folder(this.resolve(path));
  }

  /**
   * Puts a new file or link at the file-system path `file` through `make`, which writes it at the
   * path it is given: `file` itself, or with {@link TreeFilesOptions.atomic} a temporary name
   * beside it that is then renamed over `file` (and removed when `make` throws or its promise
   * rejects). One checkpoint. Returns a promise exactly when `make` does.
   */
  #put(file: string, make: (at: string) => void): void;
  #put(file: string, make: (at: string) => Promise<void>): Promise<void>;
  #put(file: string, make: (at: string) => void | Promise<void>): void | Promise<void> {
    const at = this.#atomic ? temporaryNameOf(file) : file;
    const failed = (error: unknown): never => {
      if (at !== file) rmSync(at, { force: true });
      throw error;
    };
    const done = (): void => {
      if (at !== file) renameSync(at, file);
      checkpoint();
    };
    let making: void | Promise<void>;
    try {
      making = make(at);
    } catch (error) {
      return failed(error);
    }
    if (making instanceof Promise) return making.then(done, failed);
    done();
  }

  #prepare(path: string): string {
    const file = this.resolve(path);
    this.#folder(dirname(file));
    return file;
  }

  /**
   * Makes `dir` and the parents it lacks, from the nearest folder known to exist down, one
   * `mkdir` each: a parent another writer made is taken on `EEXIST` (a file there fails the next
   * call with `ENOTDIR`); a root that is gone is made again. Node's recursive `mkdirSync` tries
   * the deepest folder first and climbs on `ENOENT`, then retries parents it already made (an
   * `EEXIST` and a `stat`): about a third more calls for a new entry of the store, whose
   * folders are all new.
   */
  #folder(dir: string): void {
    if (this.#made.has(dir)) return;
    const missing: string[] = [];
    for (let at = dir; !this.#made.has(at); at = dirname(at)) {
      missing.push(at);
      if (dirname(at) === at) break;
    }
    for (const at of missing.reverse()) {
      try {
        mkdirSync(at);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // ENOENT: the root itself is gone (made again, as a recursive mkdir would).
        if (code === 'ENOENT') mkdirSync(at, { recursive: true });
        else if (code !== 'EEXIST') throw error;
      }
      this.#made.add(at);
    }
  }
}

/** A name beside `file` to write it under before it is renamed into place: a dot file (never served), this process's. */
function temporaryNameOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** Where a hard link failed: a copy of a file, or a new symbolic link with the same target. */
function copyOrRelink(existing: string, file: string): void {
  let target: string | undefined;
  try {
    target = readlinkSync(existing);
  } catch {
    target = undefined; // not a link: a file
  }
  if (target === undefined) copyFileSync(existing, file);
  else symlinkSync(target, file, 'dir');
}

/**
 * What the build writes through: a tree, or one loadout's entry in the store (store.ts),
 * whose paths are still the tree's (`raw/<id>/…`). Paths are relative, with forward slashes.
 * Changes are made at once (the promises are for callers that also run on other writers).
 */
export interface OutputTree {
  /** The tree's folder (for an entry of the store: the store's). */
  readonly dir: string;
  /**
   * The tree this one started as (output.ts): the standby taken over, or a copy of the live
   * tree; it then holds that tree's whole generation, and the caller removes or replaces what
   * changed since. Undefined for an empty tree.
   */
  readonly origin: TreeOrigin | undefined;
  /** Bytes written so far. */
  readonly bytes: number;
  /**
   * Writes a file, making its folders. `data` may be a function that makes it: it is called when
   * the file is written, so that a writer which can stop between files (deferred-documents.ts)
   * stops before making a large document, not after.
   * @throws LoadoutError `internal` when `path` is not a normalised relative path (it would leave the tree); the file system's error.
   */
  write(path: string, data: TreeData): Promise<void>;
  /** Writes pretty-printed JSON with a final newline. Same errors as {@link OutputTree.write}. */
  writeJson(path: string, value: unknown): Promise<void>;
  /**
   * Writes at `path` the same bytes as `existing`, a file already written here, as a hard link
   * to it (discovery files repeat raw files of the same loadout). Same errors as
   * {@link OutputTree.write}; the file system's error when `existing` is missing.
   */
  link(path: string, existing: string): Promise<void>;
  /**
   * Makes `path` the file the tree `from` (a folder, another tree of the same store) holds at
   * `path`, by a hard link ({@link TreeFiles.syncFrom}): a document that would be written with
   * the same bytes (render/previous-documents.ts). Same errors as {@link OutputTree.write}; the
   * file system's error.
   */
  carry(path: string, from: string): Promise<void>;
  /**
   * Makes `path` a symbolic link to `folder`, a folder written here before or later, so that
   * `path` holds the same files under a second address without making its folders again: a
   * raw `latest` folder and its version's (a new folder costs an inode as a new file does; a
   * link is one directory entry). `loadout serve`, `publish` and `install` follow such links
   * within the tree and its store only (tree-region.ts).
   */
  linkFolder(path: string, folder: string): Promise<void>;
  /** Removes the file or folder at `path` (everything below it), if any. */
  remove(path: string): Promise<void>;
}

/**
 * A file's content made a piece at a time (a generator's, say): the file holds the pieces one
 * after the other, text as UTF-8 and bytes as they are. Each text piece is encoded on its own,
 * so none may end inside a surrogate pair. A large document made so is never one string in
 * memory (see {@link PieceSink}). An empty piece writes nothing: a maker that computes at length
 * before its next piece yields `''` first and between its steps, so that a paced write
 * ({@link TreeFiles.writePaced}) can let the event loop run there.
 */
export type ContentPieces = Iterable<string | Uint8Array>;

/** What a file holds: text (as UTF-8), bytes, or content a piece at a time. */
export type TreeContent = string | Uint8Array | ContentPieces;

/** What {@link OutputTree.write} writes: a {@link TreeContent}, or a function that makes one when called. */
export type TreeData = TreeContent | (() => TreeContent);

/** The content of `data`, made now when it is a function. */
export const dataOf = (data: TreeData): TreeContent => (typeof data === 'function' ? data() : data);

/** `content` as one text or bytes (pieces joined). */
export const wholeOf = (content: TreeContent): string | Uint8Array => (typeof content === 'string' || content instanceof Uint8Array ? content : [...content].join(''));

/** Which tree a tree being written started as (see {@link OutputTree.origin}). */
export type TreeOrigin = 'standby' | 'live';

/**
 * An {@link OutputTree} over `files`, whose paths `place` turns into paths below `files.root`
 * (by default they are those paths). `origin`: see {@link OutputTree.origin}. With `pause`,
 * content that comes a piece at a time is written through {@link TreeFiles.writePaced} (`files`
 * must be atomic).
 */
export function outputOver(files: TreeFiles, options: { place?: (path: string) => string; origin?: TreeOrigin | undefined; pause?: () => Promise<void> | undefined } = {}): OutputTree {
  const place = options.place ?? ((path: string) => path);
  const { pause } = options;
  let bytes = 0;
  const tree: OutputTree = {
    dir: files.root,
    origin: options.origin,
    get bytes() {
      return bytes;
    },
    async write(path, data) {
      const content = dataOf(data);
      bytes += pause === undefined || typeof content === 'string' || content instanceof Uint8Array ? files.write(place(path), content) : await files.writePaced(place(path), content, pause);
    },
    writeJson: (path, value) => tree.write(path, () => jsonDocumentPieces(value)),
    async link(path, existing) {
      files.link(place(path), files.resolve(place(existing)));
    },
    async carry(path, from) {
      files.syncFrom(from, place(path));
    },
    async linkFolder(path, folder) {
      files.symlink(place(path), files.resolve(place(folder)));
    },
    async remove(path) {
      files.remove(place(path));
    },
  };
  return tree;
}
