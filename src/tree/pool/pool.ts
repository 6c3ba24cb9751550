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

/** The parent's Node options that a worker thread may take: profiling and memory. */
const INHERITED_OPTION = /^--(?:cpu-prof|heap-prof|max-old-space-size|max-semi-space-size|stack-size|enable-source-maps)(?:$|[=-])/u;
/** Those of them that take a value, which may come as the next argument (`--cpu-prof-dir /tmp`; node's `--help`). */
const OPTION_WITH_VALUE = /^--(?:cpu-prof-(?:dir|name|interval)|heap-prof-(?:dir|name|interval)|max-old-space-size|max-semi-space-size|stack-size)$/u;

/**
 * The options of `execArgv` (a process's `process.execArgv`) that a worker thread takes
 * ({@link INHERITED_OPTION}), each with its value when that is the next argument; not the
 * others (the crash test's `--input-type=module -e …`, which a thread refuses). Pure.
 */
export function inheritedExecArgv(execArgv: readonly string[]): string[] {
  const taken: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] as string;
    if (!INHERITED_OPTION.test(option)) continue;
    taken.push(option);
    const value = execArgv[i + 1];
    if (OPTION_WITH_VALUE.test(option) && value !== undefined) {
      taken.push(value);
      i++;
    }
  }
  return taken;
}

let pool: Piscina<WorkerTask, unknown> | undefined;

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
 * renderers and compression and compiling the schema, once per thread). A thread that cannot
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
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './loadout-worker.ts' : './loadout-worker.js', import.meta.url);
  pool = new Piscina({
    filename: fileURLToPath(fromSource ? new URL('./ts-worker.mjs', import.meta.url) : entry),
    workerData: { counter: checkpointMemory(), entry: entry.href },
    // One thread at first; more as tasks wait (see prepareLoadoutBuilds), kept while the process runs.
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: IDLE_THREAD_MS,
    execArgv: inheritedExecArgv(process.execArgv),
  });
  return pool;
}

/** Reads, checks and writes one loadout in a worker thread (loadout-task.ts `buildLoadout`). */
export const buildLoadoutInPool = (task: LoadoutTask): Promise<LoadoutOutcome> => started().run({ kind: 'loadout', ...task }) as Promise<LoadoutOutcome>;

/** Links loadouts into a tree in a worker thread (loadout-worker.ts `linkEntries`). */
export const linkEntriesInPool = (task: LinkTask): Promise<number> => started().run({ kind: 'link', ...task }) as Promise<number>;
