/**
 * Watching a folder for `loadout dev`, kept up when the watcher stops.
 *
 * @parcel/watcher (2.6) ends a subscription on any error and calls its callback once with it:
 * - its Linux thread stops when `poll()` fails, and `poll()` fails with `EINTR` whenever a signal
 *   the process handles lands on that thread (src/linux/InotifyBackend.cc: "Unable to poll:
 *   Interrupted system call"). Node handles `SIGWINCH` when the terminal is a TTY (a window
 *   resized) and `SIGCHLD` once it has started a child, so a session on a busy machine meets it;
 *   every subscription of the process stops with it (src/Backend.cc `handleError`);
 * - a folder it cannot watch (`inotify_add_watch` failing at the system's limit of watches)
 *   ends that subscription too (`handleWatcherError` unwatches it before it reports).
 *
 * So an error means nothing is watched any more. {@link watchFolder} reports it, subscribes
 * again (after {@link RETRY_MS} while that fails), and says when it watches again: what changed
 * in between was not seen, and the caller must find it another way (`loadout dev` asks git).
 */
import { subscribe, type AsyncSubscription, type Event as WatchEvent } from '@parcel/watcher';

/** Waits between attempts to watch again while they fail (ms); the last repeats. */
export const RETRY_MS: readonly number[] = [0, 1_000, 5_000, 30_000];

/** What {@link watchFolder} tells its caller. */
export interface WatchHandlers {
  /** Changes seen, as @parcel/watcher batches them (absolute paths). */
  changed(events: readonly WatchEvent[]): void;
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
  /** Stops watching (and any attempt to watch again). */
  close(): Promise<void>;
}

/**
 * Starts watching `dir` (and everything under it) and keeps watching after errors (see the
 * module comment). Resolves once the first subscription is ready: only changes after it count.
 * @throws Error from @parcel/watcher when the first subscription fails (e.g. the folder is
 *   missing, or the system's limit of watches is reached).
 */
export async function watchFolder(dir: string, handlers: WatchHandlers): Promise<FolderWatch> {
  let closed = false;
  let current: AsyncSubscription | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** The last error reported, so that a failing retry is reported once while it repeats. */
  let reported: string | undefined;

  const start = (): Promise<AsyncSubscription> => {
    let ended = false;
    return subscribe(dir, (error, events) => {
      if (error === null) return handlers.changed(events);
      // The library ended this subscription: its first error says why, and it sends no other.
      if (ended || closed) return;
      ended = true;
      current = undefined;
      report(error);
      again(0);
    });
  };
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
        (subscription) => {
          if (closed) return void subscription.unsubscribe().catch(() => undefined);
          current = subscription;
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

  current = await start();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const subscription = current;
      current = undefined;
      await subscription?.unsubscribe();
    },
  };
}
