/**
 * The build's checkpoints, for the crash test (`npm run test:crash`; docs/architecture.md: a
 * killed build leaves the previous tree live and whole): one after every change a build makes
 * on disk (each file written, linked or removed, each folder link, each step of a tree
 * switch), counted across the main thread and the build's worker
 * threads in one shared counter. When the environment variable `LOADOUT_CRASH_AT` is N, the
 * thread that passes the N-th checkpoint kills the whole process with SIGKILL, so the test can
 * stop a build at every point and check what it left. Off otherwise (one comparison each).
 */
import { isMainThread } from 'node:worker_threads';

const CRASH_AT = Number(process.env.LOADOUT_CRASH_AT ?? 0);

/** The counter: one Int32 shared by the process's threads (each worker adopts the main thread's). */
let counter = new Int32Array(new SharedArrayBuffer(4));

/** Passes one checkpoint (see the module comment). */
export function checkpoint(): void {
  if (Atomics.add(counter, 0, 1) + 1 >= CRASH_AT && CRASH_AT > 0) process.kill(process.pid, 'SIGKILL');
}

/** Checkpoints passed so far by the process (read by the crash test's child after a whole build). */
export const checkpointsPassed = (): number => Atomics.load(counter, 0);

/** The counter's memory, handed to the build's worker threads (`pool.ts`). */
export const checkpointMemory = (): SharedArrayBuffer => counter.buffer as SharedArrayBuffer;

/**
 * Counts this worker thread's checkpoints in the main thread's counter (`memory` from
 * {@link checkpointMemory}).
 * @throws Error on the main thread, whose counter is the one every thread shares.
 */
export function adoptCheckpointMemory(memory: SharedArrayBuffer): void {
  if (isMainThread) throw new Error('internal error: the main thread keeps its own checkpoint counter');
  counter = new Int32Array(memory);
}
