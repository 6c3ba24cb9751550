/**
 * The build's worker threads (issue 13): a piscina pool with one thread per core, started
 * on first use and kept for the life of the process (idle threads do not keep it running), so
 * that builds after the first start at once. The threads run loadout-worker.ts: reading,
 * checking and writing loadouts, checking folder stamps and linking trees. They share the
 * main thread's crash-checkpoint counter (crash-points.ts).
 *
 * From the TypeScript sources (tests, `npx tsx bench/…`), the threads start through
 * ts-worker.mjs, which loads the worker module with tsx; the compiled CLI starts them on
 * lib/build/loadout-worker.js.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { checkpointMemory } from './crash-points.js';
import type { LoadoutOutcome, LoadoutTask } from './loadout-task.js';
import type { LinkTask, StampTask, WorkerTask } from './loadout-worker.js';

/**
 * Threads in the pool: the environment variable `LOADOUT_BUILD_THREADS` when set (a machine
 * shared with other work), else one per core (the main thread mostly waits on them), at most 8.
 */
export const POOL_THREADS = Number(process.env.LOADOUT_BUILD_THREADS ?? 0) || Math.max(1, Math.min(availableParallelism(), 8));

/**
 * The parent's Node options that a worker thread may take (profiling and memory; not the
 * crash test's `--input-type=module -e …`, which a thread refuses).
 */
const INHERITED_OPTION = /^--(?:cpu-prof|heap-prof|max-old-space-size|max-semi-space-size|stack-size|enable-source-maps)/u;

let pool: Piscina<WorkerTask, unknown> | undefined;

/**
 * Starts the threads now if they are not running, and has each ready itself to build
 * loadouts (loadout-task.ts `prepareLoadoutTask`: loading the checks, renderers and
 * compression, compiling the schema) while this thread reads what the previous build left;
 * a rebuild's folder stamps, sent after that, find them ready. Never rejects: a thread that
 * cannot load them fails its first loadout the same way.
 */
export function startPool(): void {
  for (let i = 0; i < POOL_THREADS; i++) void started().run({ kind: 'prepare' }).catch(() => undefined);
}

function started(): Piscina<WorkerTask, unknown> {
  if (pool !== undefined) return pool;
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './loadout-worker.ts' : './loadout-worker.js', import.meta.url);
  pool = new Piscina({
    filename: fileURLToPath(fromSource ? new URL('./ts-worker.mjs', import.meta.url) : entry),
    workerData: { counter: checkpointMemory(), entry: entry.href },
    minThreads: POOL_THREADS,
    maxThreads: POOL_THREADS,
    execArgv: process.execArgv.filter((option) => INHERITED_OPTION.test(option)),
  });
  return pool;
}

/** Reads, checks and writes one loadout in a worker thread (loadout-task.ts `buildLoadout`). */
export const buildLoadoutInPool = (task: LoadoutTask): Promise<LoadoutOutcome> => started().run({ kind: 'loadout', ...task }) as Promise<LoadoutOutcome>;

/** The ids whose folder stamp holds, checked in a worker thread (loadout-worker.ts `checkStamps`). */
export const checkStampsInPool = (task: StampTask): Promise<string[]> => started().run({ kind: 'stamps', ...task }) as Promise<string[]>;

/** Links loadouts into a tree in a worker thread (loadout-worker.ts `linkEntries`). */
export const linkEntriesInPool = (task: LinkTask): Promise<number> => started().run({ kind: 'link', ...task }) as Promise<number>;
