/**
 * The build's worker threads (docs/architecture.md): a piscina pool with one thread per core,
 * started on first use and kept for the life of the process (idle threads do not keep it running),
 * so that builds after the first start at once. The threads run loadout-worker.ts: reading,
 * checking and writing loadouts, and linking trees. They share the main thread's crash-checkpoint
 * counter (crash-points.ts).
 *
 * From the TypeScript sources (tests, `npx tsx bench/…`), the threads start through
 * ts-worker.mjs, which loads the worker module with tsx; the compiled CLI starts them on
 * lib/tree/pool/loadout-worker.js.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { siblingModule } from '../../sibling-module.js';
import { Piscina } from 'piscina';
import { LoadoutError } from '../../catalogue/errors.js';
import { checkpointMemory } from '../write/crash-points.js';
import type { LoadoutOutcome, LoadoutTask } from './loadout-task.js';
import type { LinkTask, WorkerTask } from './loadout-worker.js';

/** The most threads `LOADOUT_BUILD_THREADS` may ask for. */
const MAX_THREADS = 64;

/**
 * Threads in the pool: `LOADOUT_BUILD_THREADS` from `env` when set (a machine shared with
 * other work), else one per core (the main thread mostly waits on them), at most 8.
 * @throws LoadoutError `usage` when `LOADOUT_BUILD_THREADS` is not a whole number from 1 to 64.
 */
export function poolThreads(env: NodeJS.ProcessEnv = process.env): number {
  const asked = env['LOADOUT_BUILD_THREADS'];
  if (asked === undefined || asked === '') return Math.max(1, Math.min(availableParallelism(), 8));
  const threads = Number(asked);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new LoadoutError('usage', `LOADOUT_BUILD_THREADS: expected a whole number from 1 to ${MAX_THREADS}, got ${JSON.stringify(asked)}`);
  }
  return threads;
}

/** The parent's Node options that a worker thread takes as they are: profiling and source maps. */
const INHERITED_OPTION = /^--(?:cpu-prof|heap-prof|enable-source-maps)(?:$|[=-])/u;
/**
 * The parent's memory options, which `new Worker` refuses in `execArgv` (ERR_WORKER_INVALID_EXEC_ARGV):
 * a thread takes them as its `resourceLimits` instead (nodejs.org/api/worker_threads.html, `resourceLimits`).
 */
const MEMORY_OPTION = /^--(max[-_]old[-_]space[-_]size|max[-_]semi[-_]space[-_]size|stack[-_]size)(?:=(.*))?$/u;
/** The profiling options that take a value, which may come as the next argument (`--cpu-prof-dir /tmp`; node's `--help`); a memory option without `=` takes the next argument too. */
const OPTION_WITH_VALUE = /^--(?:cpu-prof|heap-prof)-(?:dir|name|interval)$/u;

/**
 * The young generation of a build thread (MB) unless the parent's `--max-semi-space-size` says
 * otherwise: a thread renders a loadout in many short-lived strings and buffers, and with V8's
 * default its scavenges took 6 % of a cold build's thread time at 10,000 loadouts; at 96 MB the
 * cold build of 1,000 on one thread took 7 % less (docs/performance.md).
 */
export const BUILD_THREAD_YOUNG_MB = 96;

/** What a build thread takes from its parent's Node options (see {@link workerOptionsOf}). */
export interface WorkerOptions {
  execArgv: string[];
  /** `new Worker`'s `resourceLimits` (MB). */
  resourceLimits: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb: number; stackSizeMb?: number };
}

/**
 * What a build thread takes of `execArgv` (a process's `process.execArgv`): the profiling
 * options ({@link INHERITED_OPTION}), each with its value when that is the next argument, and the
 * memory options as resource limits: `--max-old-space-size=N` (MB) as `maxOldGenerationSizeMb`,
 * `--max-semi-space-size=N` (MB) as a young generation of three semi-spaces (V8's layout), and
 * `--stack-size=N` (KB) as `stackSizeMb`. Not the others (the crash test's `--input-type=module
 * -e …`, which a thread refuses). A memory option whose value is not a positive number is left
 * out (node itself refuses it before this runs). Pure.
 */
export function workerOptionsOf(execArgv: readonly string[]): WorkerOptions {
  const taken: string[] = [];
  const limits: WorkerOptions['resourceLimits'] = { maxYoungGenerationSizeMb: BUILD_THREAD_YOUNG_MB };
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] as string;
    const memory = MEMORY_OPTION.exec(option);
    if (memory === null && !INHERITED_OPTION.test(option)) continue;
    const takesNext = memory === null ? OPTION_WITH_VALUE.test(option) : memory[2] === undefined;
    const next = takesNext ? execArgv[i + 1] : undefined;
    if (next !== undefined) i++;
    if (memory === null) {
      taken.push(option, ...(next === undefined ? [] : [next]));
      continue;
    }
    const size = Number(next ?? memory[2]);
    if (!(size > 0)) continue;
    const name = memory[1]?.replaceAll('_', '-');
    if (name === 'max-old-space-size') limits.maxOldGenerationSizeMb = size;
    else if (name === 'max-semi-space-size') limits.maxYoungGenerationSizeMb = 3 * size;
    else limits.stackSizeMb = size / 1024;
  }
  return { execArgv: taken, resourceLimits: limits };
}

let pool: Piscina<WorkerTask, unknown> | undefined;

/**
 * Tasks a thread is given at once (piscina's `concurrentTasksPerWorker`): the one it works on and
 * the next. A task awaits only the file system's callbacks, so two interleave little.
 */
const TASKS_PER_THREAD = 2;

/** How long a thread beyond the first may stay idle before the pool stops it (ms): longer than any pause within a build. */
const IDLE_THREAD_MS = 5 * 60_000;

/**
 * Starts the threads now if they are not running, and has one of them ready itself to build
 * loadouts ({@link prepareLoadoutBuilds}) while this thread reads what the previous build
 * left; the others take a rebuild's first tasks without waiting for it.
 * @throws LoadoutError `usage` for a bad `LOADOUT_BUILD_THREADS` ({@link poolThreads}).
 */
export function startPool(): void {
  prepare();
}

/**
 * Has as many threads as there are loadouts to build, `count`, up to the pool's size, ready
 * themselves to build loadouts while this thread reads git for them: the pool starts a thread
 * when a task finds every running one busy (it starts with one), and gives a task to whichever
 * thread is free. The one readied by {@link startPool} counts as the first, so the first loadout
 * goes to it while the others load. A rebuild of one
 * loadout starts no second thread: on a machine of two cores, its loading competed with the
 * rebuild's reading of the previous build (docs/performance.md).
 */
export function prepareLoadoutBuilds(count: number): void {
  // The first is the one startPool readied.
  for (let i = 1; i < Math.min(count, started().maxThreads); i++) prepare();
}

/**
 * Sends a thread a `prepare` task (loadout-task.ts `prepareLoadoutTask`: loading the checks,
 * renderers and compression and the schema's validator, once per thread). A thread that cannot
 * load them fails its first loadout the same way, so a failure here is not reported.
 */
function prepare(): void {
  void started().run({ kind: 'prepare' }).catch(() => undefined);
}

/** Threads in the running pool (started by {@link startPool}). */
export const runningThreads = (): number => started().maxThreads;

function started(): Piscina<WorkerTask, unknown> {
  if (pool !== undefined) return pool;
  const threads = poolThreads();
  const { url: entry, fromSource } = siblingModule(import.meta.url, 'loadout-worker');
  pool = new Piscina({
    filename: fileURLToPath(fromSource ? new URL('./ts-worker.mjs', import.meta.url) : entry),
    workerData: { counter: checkpointMemory(), entry: entry.href },
    // One thread at first; more as tasks wait (see prepareLoadoutBuilds), kept while the process runs.
    minThreads: 1,
    maxThreads: threads,
    // A thread holds its next task while it works on one: it goes on to it at once, where with one
    // task at a time it waited for this thread to hear of the last one's end and send the next
    // (Atomics.wait in piscina's worker), 4 to 5 % of a cold build's thread time at 10,000 loadouts.
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    idleTimeout: IDLE_THREAD_MS,
    ...workerOptionsOf(process.execArgv),
  });
  return pool;
}

/** Reads, checks and writes one loadout in a worker thread (loadout-task.ts `buildLoadout`). */
export const buildLoadoutInPool = (task: LoadoutTask): Promise<LoadoutOutcome> => started().run({ kind: 'loadout', ...task }) as Promise<LoadoutOutcome>;

/** Links loadouts into a tree in a worker thread (loadout-worker.ts `linkEntries`). */
export const linkEntriesInPool = (task: LinkTask): Promise<number> => started().run({ kind: 'link', ...task }) as Promise<number>;

/** Deletes a trash folder of the store in a worker thread (trash.ts `deleteTrashNow`, which throws nothing). */
export const deleteTrashInPool = (folder: string): Promise<void> => started().run({ kind: 'trash', folder }) as Promise<void>;
