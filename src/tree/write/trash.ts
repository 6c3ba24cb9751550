/**
 * Deleting many files without waiting for it: a build that collects thousands of store entries
 * (the first build after the builder's code changed collects every entry the earlier code left:
 * about 300,000 files at 10,000 loadouts, 50 s of `rm` on this project's machine) moves them
 * into a trash folder of the store, one `rename` per folder, and a detached process deletes
 * the trash after the build has ended. A trash folder that a killed build or a killed deleter
 * left is deleted by the next build's deleter.
 *
 * A deleter first claims each folder by renaming it to `<folder>.deleting-<its pid>`, and a build
 * starts a deleter only for folders no live deleter has claimed. Before, every build started one
 * over every trash folder: a run of rebuilds while 300,000 files were being deleted (`loadout dev`
 * saves, a few seconds apart) left five deleters on the same folder, racing each other for the
 * machine's two cores and doubling a build's time (2026-11-27, eighth session).
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { siblingModule } from '../../sibling-module.js';

/** The start of a trash folder's name in the store: a dot name, never an entry's. */
export const TRASH_PREFIX = '.trash-';

/** A trash folder made in `storeDir`, into which {@link Trash.move} moves paths of the store. */
export class Trash {
  readonly #storeDir: string;
  #folder: string | undefined;
  /** Files {@link Trash.take} has moved: the next one's name. */
  #taken = 0;

  constructor(storeDir: string) {
    this.#storeDir = storeDir;
  }

  /**
   * Moves `path` (relative to the store, forward slashes) into the trash folder under the same
   * path, making the folder on first use. Nothing happens when `path` does not exist.
   * @throws the file system's error.
   */
  move(path: string): void {
    const from = join(this.#storeDir, path);
    if (lstatSync(from, { throwIfNoEntry: false }) === undefined) return;
    const to = join(this.#opened(), path);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
  }

  /**
   * Moves the file or link at the file-system path `file` (of a tree beside the store, on the
   * same file system) into the trash folder under a new name, making the folder on first use.
   * @throws the file system's error (ENOENT when `file` does not exist).
   */
  take(file: string): void {
    renameSync(file, join(this.#opened(), `taken-${this.#taken++}`));
  }

  /** The trash folder, once something was moved into it; undefined before. */
  get folder(): string | undefined {
    return this.#folder;
  }

  /** The trash folder, made on first use. */
  #opened(): string {
    this.#folder ??= mkdtempSync(join(this.#storeDir, TRASH_PREFIX));
    return this.#folder;
  }
}

/** The trash folders in `storeDir` (file-system paths), this build's and any left before. */
export function trashFolders(storeDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(storeDir);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(TRASH_PREFIX)).map((name) => join(storeDir, name));
}

/** The end of a trash folder's name once a deleter has claimed it: `.deleting-<pid>`. */
const CLAIMED = /\.deleting-(\d+)$/u;

/** True while process `pid` runs (signal 0 tests it without sending anything; EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The trash folders of `storeDir` that no running deleter has claimed: those never claimed, and
 * those whose claiming process has ended (killed before it finished).
 */
export function unclaimedTrashFolders(storeDir: string): string[] {
  return trashFolders(storeDir).filter((folder) => {
    const claim = CLAIMED.exec(basename(folder));
    return claim === null || !isRunning(Number(claim[1]));
  });
}

/**
 * Deletes the trash folder `folder` now, in this process: claimed first by a rename to its own
 * name with this process's id (a claim by an ended deleter replaced), so that no deleter started
 * meanwhile takes it up. A folder that is gone or another deleter renamed first is left to it.
 * The file system's errors are not thrown: what is left, the next build's deleter deletes. The
 * deleter of {@link deleteTrashLater} runs this for each of its folders.
 */
export function deleteTrashNow(folder: string): void {
  const claimed = `${folder.replace(CLAIMED, '')}.deleting-${process.pid}`;
  try {
    renameSync(folder, claimed);
    rmSync(claimed, { recursive: true, force: true });
  } catch {
    // Left for the next build's deleter.
  }
}

/**
 * Starts a process of this Node that deletes every trash folder of `storeDir` that no running
 * deleter has claimed ({@link unclaimedTrashFolders}), detached and not waited for (it outlives
 * a `loadout build` that has ended); does nothing when there is none. Its errors are not
 * reported: what it leaves, the next build's deleter deletes.
 * @returns the folders it was given.
 */
export function deleteTrashLater(storeDir: string): string[] {
  const folders = unclaimedTrashFolders(storeDir);
  if (folders.length === 0) return folders;
  // `node -e`, the folders its arguments: this module's deleteTrashNow for each (through tsx from the sources).
  const { url, fromSource } = siblingModule(import.meta.url, 'trash');
  const deleter = `import { deleteTrashNow } from ${JSON.stringify(url.href)};\nfor (const folder of process.argv.slice(1)) deleteTrashNow(folder);`;
  const child = spawn(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), '--input-type=module', '-e', deleter, ...folders], { detached: true, stdio: 'ignore', windowsHide: true });
  child.on('error', () => undefined);
  child.unref();
  return folders;
}
