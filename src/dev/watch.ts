/**
 * Watching a folder for `loadout dev`, from a process of its own (watch-main.ts), started again
 * when it stops.
 *
 * @parcel/watcher (2.6) is not safe to keep in the session's own process:
 * - its Linux thread stops when `poll()` fails, and `poll()` fails with `EINTR` whenever a signal
 *   the process handles lands on that thread (src/linux/InotifyBackend.cc: "Unable to poll:
 *   Interrupted system call"). Node handles `SIGWINCH` when its output is a terminal (a window
 *   resized) and `SIGCHLD` once it has started a child, so a session on a busy machine met it;
 * - any error ends a subscription (src/Backend.cc `handleError`, `handleWatcherError`), and the
 *   stopped thread never frees its state: a new subscription of the same folder in the same
 *   process takes the folder tree the dead one had cached (src/DirTree.cc `getCached`), so it
 *   fails on a folder removed since and never watches one made since.
 *
 * The watcher process handles no signal and is its own session (`detached`: no terminal's
 * signals reach it; not on Windows, which watches without `poll()`), so the first cannot happen
 * there; and a new process starts with nothing cached. When it stops anyway (killed, or the
 * system's limit of watches reached by a new folder), {@link watchFolder} reports it, starts
 * another (after {@link RETRY_MS} while that fails) and says when it watches again: what
 * changed in between was not seen, and the caller must find it another way (`loadout dev`
 * asks git).
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkSibling } from '../sibling-module.js';
import type { WatchMessage } from './watch-main.js';

/** Waits between attempts to watch again while they fail (ms); the last repeats. */
export const RETRY_MS: readonly number[] = [0, 1_000, 5_000, 30_000];

/** What {@link watchFolder} tells its caller. */
export interface WatchHandlers {
  /** Paths changed (absolute), as @parcel/watcher batches them. */
  changed(paths: readonly string[]): void;
  /**
   * Watching stopped with `error`, or an attempt to watch again failed with it (reported once
   * while the same message repeats): changes from now until {@link resumed} go unseen.
   */
  stopped(error: Error): void;
  /** Watching again after a stop: changes made while it was stopped were not seen. */
  resumed(): void;
}

/** A folder being watched. */
export interface FolderWatch {
  /** The watcher process's id; undefined while none runs (between a stop and the next start). */
  readonly pid: number | undefined;
  /** Stops watching (and any attempt to watch again); resolves once the watcher process ended. */
  close(): Promise<void>;
}

/**
 * Starts watching `dir` (and everything under it) in a watcher process, and keeps watching after
 * it stops (see the module comment). Resolves once the first watcher is ready: only changes
 * after it count. Once it watches, neither the watcher process nor its channel keeps this process
 * alive; until then they do (`loadout dev` starts watching before it serves).
 * @throws Error when the first watcher fails: "no folder at <dir> (…)" when the folder is
 *   missing, else @parcel/watcher's message (e.g. the system's limit of watches reached).
 */
export async function watchFolder(dir: string, handlers: WatchHandlers): Promise<FolderWatch> {
  let closed = false;
  /** The watcher process that watches; undefined between a stop and the next start. */
  let current: ChildProcess | undefined;
  /** Every watcher process not yet ended, the one starting included. */
  const running = new Set<ChildProcess>();
  let retry: NodeJS.Timeout | undefined;
  /** The last error reported, so that a failing retry is reported once while it repeats. */
  let reported: string | undefined;

  const report = (error: Error): void => {
    if (error.message === reported) return;
    reported = error.message;
    handlers.stopped(error);
  };
  const again = (attempt: number): void => {
    if (closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      start().then(
        (child) => {
          if (closed) return void child.kill();
          current = child;
          reported = undefined;
          handlers.resumed();
        },
        (error: Error) => {
          report(error);
          again(attempt + 1);
        },
      );
    }, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
  };
  /** Starts a watcher process; resolves when it watches, rejects when it ends first. */
  const start = (): Promise<ChildProcess> =>
    new Promise((resolve, reject) => {
      const child = forkSibling(import.meta.url, 'watch-main', [dir], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        // Its own session, out of the terminal's reach; not on Windows, where that gives it a
        // console window of its own, and where watching takes no poll(2) a signal could cut.
        detached: process.platform !== 'win32',
      });
      running.add(child);
      let ready = false;
      let failure: Error | undefined;
      child.on('message', (message: WatchMessage) => {
        if (message.kind === 'changed') handlers.changed(message.paths);
        else if (message.kind === 'error') failure = new Error(message.message);
        else if (!ready) {
          ready = true;
          // Held until now: while the session starts, nothing else may keep the process running.
          child.unref();
          child.channel?.unref();
          resolve(child);
        }
      });
      child.on('error', (error) => (failure ??= error));
      child.on('close', (code, signal) => {
        running.delete(child);
        const error = failure ?? new Error(`the watcher process ended (${signal ?? `exit code ${String(code)}`})`);
        if (!ready) return reject(error);
        if (closed || current !== child) return;
        current = undefined;
        report(error);
        again(0);
      });
    });

  current = await start();
  return {
    get pid() {
      return current?.pid;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      current = undefined;
      const ended = [...running].map((child) => once(child, 'close'));
      for (const child of running) child.kill();
      await Promise.all(ended);
    },
  };
}
