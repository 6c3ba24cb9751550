/**
 * The file-system side of an output tree (`output.ts`): one worker thread that makes its
 * folders, writes its files, hard-links and removes, in the order asked, with Node's
 * synchronous calls. The main thread checks, renders and compresses meanwhile; it hands the
 * worker each round of changes in one message (issue 13: on this machine, a 1,000-loadout
 * build spent 3 of its 8 s on the main thread opening, writing and closing 21,000 files
 * and 10,000 links through `fs/promises`, three thread-pool round trips a file).
 *
 * Changes are made one after the other, in the order they were queued: a link queued after
 * a write sees the file, a write after a remove lands in a fresh folder. Queuing does not
 * wait for the change (the main thread goes on at once, and keeps few loadouts in memory);
 * `flush` waits for every change queued so far. The first failure (the file system's error,
 * its `code` and the path in the message) is thrown by every later call, so a tree with a
 * failed change is never finished.
 *
 * The worker's code is plain JavaScript in {@link WORKER_SOURCE}, not a module of its own, so
 * that it runs the same from the compiled CLI, through tsx and under Vitest, none of which
 * would load a TypeScript worker file in the same way. It starts with none of the parent's
 * Node options (`execArgv: []`): a parent started with `--input-type=module` would otherwise
 * have it parsed as an ES module, where `require` does not exist (a test checks this).
 */
import { Worker } from 'node:worker_threads';

/** One change to the tree; paths are absolute file-system paths already checked to lie inside it (`resolveInside`). */
export type TreeChange =
  /** Writes `data` (text as UTF-8) at `file`, making its folders; replaces a file there by a new one (never writes through a hard link). */
  | { kind: 'write'; file: string; data: string | Uint8Array }
  /** Makes `file` a hard link to `existing` (a copy where links fail: EXDEV, EPERM, ENOTSUP, EMLINK). */
  | { kind: 'link'; file: string; existing: string }
  /** Makes `file` a symbolic link to the folder `target` (a path relative to the link's folder), replacing what is there. */
  | { kind: 'symlink'; file: string; target: string }
  /** Removes `file`, or a folder with everything below it; nothing when there is nothing. */
  | { kind: 'remove'; file: string }
  /** Hard-links `from` (a file, or a folder's files, with its folders and symbolic links made again) to `file`; nothing when `from` is missing. */
  | { kind: 'reuse'; file: string; from: string };

/** The worker's side. Plain JavaScript (see the module comment); `workerData` is `{ root, counter, crashAt }`. */
const WORKER_SOURCE = String.raw`
const { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync, unlinkSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const counter = new Int32Array(workerData.counter);
const made = new Set([workerData.root]);
function checkpoint() {
  if (Atomics.add(counter, 0, 1) + 1 >= workerData.crashAt && workerData.crashAt > 0) process.kill(process.pid, 'SIGKILL');
}
function folder(dir) {
  if (made.has(dir)) return;
  folder(dirname(dir));
  try { mkdirSync(dir); } catch (error) { if (error.code !== 'EEXIST') throw error; }
  made.add(dir);
}
function linkOrCopy(from, to) {
  try { linkSync(from, to); } catch (error) {
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes(error.code)) throw error;
    copyFileSync(from, to);
  }
}
const changes = {
  write({ file, data }) {
    folder(dirname(file));
    try { writeFileSync(file, data, { flag: 'wx' }); } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      unlinkSync(file);
      writeFileSync(file, data, { flag: 'wx' });
    }
    checkpoint();
  },
  link({ file, existing }) {
    folder(dirname(file));
    try { unlinkSync(file); } catch (error) { if (error.code !== 'ENOENT') throw error; }
    linkOrCopy(existing, file);
    checkpoint();
  },
  symlink({ file, target }) {
    folder(dirname(file));
    rmSync(file, { recursive: true, force: true });
    symlinkSync(target, file, 'dir');
    checkpoint();
  },
  remove({ file }) {
    rmSync(file, { recursive: true, force: true });
    for (const dir of made) if (dir === file || dir.startsWith(file + sep)) made.delete(dir);
    checkpoint();
  },
  reuse({ file, from }) {
    const info = lstatSync(from, { throwIfNoEntry: false });
    if (info === undefined) return;
    if (info.isFile()) {
      folder(dirname(file));
      linkOrCopy(from, file);
      checkpoint();
    } else if (info.isDirectory()) {
      folder(file);
      for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
        const source = join(entry.parentPath, entry.name);
        const dest = join(file, relative(from, source));
        if (entry.isDirectory()) folder(dest);
        else if (entry.isSymbolicLink()) {
          folder(dirname(dest));
          symlinkSync(readlinkSync(source), dest, 'dir');
          checkpoint();
        } else if (entry.isFile()) {
          folder(dirname(dest));
          linkOrCopy(source, dest);
          checkpoint();
        }
      }
    }
  },
};
parentPort.on('message', (batch) => {
  const failed = [];
  for (const change of batch.changes) {
    try { changes[change.kind](change); } catch (error) {
      failed.push({ index: change.index, code: error.code, message: error.message });
    }
  }
  parentPort.postMessage({ last: batch.changes[batch.changes.length - 1].index, failed });
});
`;

/** A worker that applies {@link TreeChange}s below one tree. */
export interface TreeWriter {
  /**
   * Queues `change`, to be made after every change queued before it. Resolves once it is
   * queued, which waits while {@link MAX_PENDING} changes are queued and not yet made (so
   * memory stays flat however far the file system lags behind).
   * @throws the first failed change's error (the file system's, with its `code` and path) once a change has failed; Error when the writer is closed or its worker died.
   */
  apply(change: TreeChange): Promise<void>;
  /** Resolves when every change queued so far is made. Same errors as {@link TreeWriter.apply}. */
  flush(): Promise<void>;
  /** {@link TreeWriter.flush}, then ends the worker (also when a change failed). Changes queued later are refused. */
  close(): Promise<void>;
}

/** Changes queued and not yet made, at most: about 40 loadouts' worth. */
export const MAX_PENDING = 2048;

/** What a batch's answer says. */
interface BatchDone {
  last: number;
  failed: { index: number; code?: string; message: string }[];
}

/**
 * Starts a writer for the tree at `root` (a folder that exists).
 * @param counter the crash test's checkpoint counter (`output.ts`): one Int32 the worker adds 1 to after each file written, linked or removed.
 * @param crashAt the checkpoint at which the worker kills the process (SIGKILL); 0 for never.
 */
export function startTreeWriter(root: string, counter: SharedArrayBuffer, crashAt: number): TreeWriter {
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { root, counter, crashAt } });
  let queued: (TreeChange & { index: number })[] = [];
  let next = 0;
  let made = 0;
  let failure: Error | undefined;
  let closed = false;
  // Callers waiting for every change before `upTo` (flush), or for room in the queue (upTo = -1).
  let waiting: { upTo: number; resolve: () => void; reject: (error: Error) => void }[] = [];

  const wake = (): void => {
    const still: typeof waiting = [];
    for (const w of waiting) {
      if (failure !== undefined) w.reject(failure);
      else if (w.upTo === -1 ? next - made < MAX_PENDING / 2 : made >= w.upTo) w.resolve();
      else still.push(w);
    }
    waiting = still;
  };
  const stop = (error: Error): void => {
    failure ??= error;
    wake();
  };
  worker.on('error', (error) => stop(new Error(`the output tree's writer stopped: ${error.message}`, { cause: error })));
  worker.on('exit', () => {
    if (!closed) stop(new Error("the output tree's writer ended"));
  });
  worker.on('message', ({ last, failed }: BatchDone) => {
    made = last + 1;
    const [first] = failed;
    if (first !== undefined) failure ??= Object.assign(new Error(first.message), { code: first.code });
    wake();
  });
  // One message a round: everything queued before the event loop turns again.
  const send = (): void => {
    const changes = queued;
    queued = [];
    if (changes.length > 0) worker.postMessage({ changes });
  };
  const wait = (upTo: number): Promise<void> => new Promise((resolve, reject) => {
    waiting.push({ upTo, resolve, reject });
    wake();
  });
  const flush = async (): Promise<void> => {
    if (failure !== undefined) throw failure;
    if (made < next) await wait(next);
  };
  return {
    async apply(change) {
      if (failure !== undefined) throw failure;
      if (closed) throw new Error("the output tree's writer is closed");
      if (queued.length === 0) setImmediate(send);
      queued.push({ ...change, index: next++ });
      if (next - made >= MAX_PENDING) await wait(-1);
    },
    flush,
    async close() {
      try {
        await flush();
      } finally {
        closed = true;
        await worker.terminate();
      }
    },
  };
}
