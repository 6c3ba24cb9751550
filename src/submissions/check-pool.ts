/**
 * The checks of a submission, off the event loop (DESIGN.md section 7: one loadout on the
 * submission path under 50 ms at p99; the checks run off the event loop with a time budget).
 * A small piscina pool of worker threads, started and warmed on first use and kept warm (idle
 * threads do not keep the process running), runs check-worker.ts. Each run has the checks'
 * budget (verify/budget.ts): the worker's `runChecks` stops at the first file or check past it;
 * a step that never gets there (one file's scan) is stopped from here, by ending the thread
 * a grace period later; piscina then starts a new thread, which is warmed again. Either way
 * the answer names the check and the file.
 *
 * From the TypeScript sources (tests) the threads start through the tree builder's
 * ts-worker.mjs, which loads the worker module with tsx; the compiled server starts them on
 * lib/submissions/check-worker.js.
 */
import type { Policy } from '../policy/policy.js';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { siblingModule } from '../sibling-module.js';
import { Piscina } from 'piscina';
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import { CHECK_IDS } from '../catalogue/vocabulary.js';
import type { ChecksTimeout } from '../verify/budget.js';
import type { CheckResult } from '../tree-format/verification.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { DerivedLoadout } from './derive.js';
import type { Submission } from './validate.js';
import { PROGRESS_BYTES, type CheckTask, type CheckTaskResult } from './check-worker.js';

/** How long past the budget a worker that has not stopped itself is ended, in milliseconds. */
const GRACE_MS = 1000;

/**
 * What running the checks of a submission gave: the derived loadout, the results and, when the
 * manifest validated, what the loadout can run (`verify/run.ts` `CheckRun.capabilities`).
 */
export type SubmissionCheckResult = { kind: 'checked'; derived: Omit<DerivedLoadout, 'source'>; results: CheckResult[]; capabilities?: Capabilities } | { kind: 'timeout'; timeout: ChecksTimeout };

/** Runs the checks of submitted loadouts (a {@link CheckPool}, or a stand-in). */
export interface SubmissionChecks {
  /** The checks' budget of one loadout, in milliseconds. */
  readonly budgetMs: number;
  /** Submissions it checks at once (its threads); more wait (check-queue.ts). */
  readonly threads: number;
  /**
   * Derives the loadout of `submission` (derive.ts, with `today` as its date) and runs the ten
   * checks over it, within the budget.
   * @throws Error when a worker fails for another reason than the budget (a bug).
   */
  run(submission: Submission, today: string): Promise<SubmissionCheckResult>;
  /** Stops the threads. */
  close(): Promise<void>;
}

/** Options of {@link CheckPool}. */
export interface CheckPoolOptions {
  /** The checks' budget of one loadout, in milliseconds (`LOADOUT_CHECKS_BUDGET_MS`). */
  budgetMs: number;
  /**
   * Threads; default one per core but one, at least 1 and at most 2: a core stays free for the
   * event loop, a submission's checks take a few milliseconds, and with two a stopped thread is
   * replaced while the other serves.
   */
  threads?: number;
  /** The catalogue's policy (`LOADOUT_POLICY` of the server; docs/policy.md): what it refuses fails the checks, and the submission is `checks-failed`. */
  policy?: Policy;
}

/** The submission checks' worker threads. */
export class CheckPool implements SubmissionChecks {
  readonly budgetMs: number;
  readonly threads: number;
  readonly #policy: Policy | undefined;
  #pool: Piscina<CheckTask, CheckTaskResult | undefined> | undefined;

  constructor(options: CheckPoolOptions) {
    this.budgetMs = options.budgetMs;
    this.threads = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    this.#policy = options.policy;
  }

  /**
   * Starts the threads and has each load and warm the checks. The promise settles once they
   * have (a thread that fails to load fails its first submission the same way, so no error).
   */
  async warm(): Promise<void> {
    const pool = this.#started();
    await Promise.all(Array.from({ length: this.threads }, () => pool.run({ kind: 'prepare' }).catch(() => undefined)));
  }

  async run(submission: Submission, today: string): Promise<SubmissionCheckResult> {
    const pool = this.#started();
    const progress = new SharedArrayBuffer(PROGRESS_BYTES);
    const startedAt = new Float64Array(progress, 0, 1);
    const at = new Int32Array(progress, 8, 2);
    at.fill(-1);
    const stop = new AbortController();
    // The worker stops itself at its next file past the budget; past a grace period more, the
    // thread is ended (and a new one must load the checks again, so the grace is not tiny).
    const limit = this.budgetMs + GRACE_MS;
    let timer: NodeJS.Timeout | undefined;
    const watch = (): void => {
      const started = startedAt[0] ?? 0;
      // Waiting in the queue is not the submission's fault: the budget counts from the checks' start.
      const left = started === 0 ? limit : started + limit - Date.now();
      if (left > 0) timer = setTimeout(watch, left);
      else stop.abort();
    };
    timer = setTimeout(watch, limit);
    try {
      const result = await pool.run({ kind: 'check', submission, today, budgetMs: this.budgetMs, progress, ...(this.#policy === undefined ? {} : { policy: this.#policy }) }, { signal: stop.signal });
      if (result === undefined) throw new Error('the check worker answered a check task with nothing (a bug)');
      if (result.timedOut !== undefined) return { kind: 'timeout', timeout: result.timedOut };
      return { kind: 'checked', derived: result.derived, results: result.results, ...(result.capabilities === undefined ? {} : { capabilities: result.capabilities }) };
    } catch (error) {
      if (!stop.signal.aborted) throw error;
      // piscina ended the thread and starts another: warm it before the next submission needs it.
      void this.warm();
      const check = CHECK_IDS[Atomics.load(at, 0)] ?? CHECK_IDS[0];
      // The derived loadout's files start with the submitted ones; a check that reads no file of
      // the loadout reads its manifest (as verify/run.ts says), and so does the derivation.
      const file = submission.files[Atomics.load(at, 1)]?.path ?? MANIFEST_FILE;
      return { kind: 'timeout', timeout: { check, file, budgetMs: this.budgetMs } };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.destroy();
  }

  #started(): Piscina<CheckTask, CheckTaskResult | undefined> {
    if (this.#pool !== undefined) return this.#pool;
    const { url: entry, fromSource } = siblingModule(import.meta.url, 'check-worker');
    this.#pool = new Piscina({
      filename: fileURLToPath(fromSource ? new URL('../tree/pool/ts-worker.mjs', import.meta.url) : entry),
      workerData: { entry: entry.href },
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Infinity,
    });
    void this.warm();
    return this.#pool;
  }
}
