/**
 * The watcher process of dev/watch.ts: watches the folder its parent names (`argv[2]`) with
 * @parcel/watcher and sends what changed over the IPC channel ({@link WatchMessage}). It imports
 * nothing else, and it listens for no signal, so no signal it handles can interrupt the
 * watcher's thread (dev/watch.ts says why that matters). It exits when its parent goes, and
 * after the watcher reports an error (a subscription ends with its first error).
 */
import { existsSync } from 'node:fs';
import { subscribe } from '@parcel/watcher';

/** A message from the watcher process. */
export type WatchMessage =
  /** Watching: only changes after this count. */
  | { kind: 'ready' }
  /** Paths changed (absolute), as @parcel/watcher batches them. */
  | { kind: 'changed'; paths: string[] }
  /** Watching failed or stopped with this error; the process exits next. */
  | { kind: 'error'; message: string };

const send = (message: WatchMessage, then?: () => void): void => {
  if (process.send === undefined) return then?.();
  process.send(message, undefined, {}, () => then?.());
};
const fail = (error: Error): void => send({ kind: 'error', message: error.message }, () => process.exit(1));

const dir = process.argv[2];
if (dir === undefined) fail(new Error('no folder to watch was given'));
else {
  subscribe(dir, (error, events) => {
    if (error !== null) fail(error);
    else send({ kind: 'changed', paths: events.map((e) => e.path) });
  }).then(
    () => send({ kind: 'ready' }),
    // A missing folder fails with "Bad file descriptor" on Linux: say what is wrong.
    (error: Error) => fail(existsSync(dir) ? error : new Error(`no folder at ${dir} (${error.message})`)),
  );
}
// The parent went (or closed the channel): nothing to report to. A parent that went while this
// process was still loading (a session stopped as it started) was gone before the listener was
// there: its channel is closed already.
process.on('disconnect', () => process.exit(0));
if (process.send !== undefined && !process.connected) process.exit(0);
