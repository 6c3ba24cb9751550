/**
 * The task of the submission checks' worker threads (check-pool.ts): derives one submitted
 * loadout (derive.ts, whose detection of network use and scripts scans every file too) and runs
 * the ten checks over it within the checks' time budget, noting where they are in shared
 * memory as they go, so that the main thread can name the check and file when it has to stop
 * a thread that does not come back. A `prepare` task loads the checks and the schema's validator, and
 * checks a small loadout once, so that the first submission finds the thread warm.
 */
import type { Policy } from '../policy/policy.js';
import { prepareSchema } from '../catalogue/schema.js';
import type { LoadoutSource } from '../catalogue/source.js';
import { CHECK_IDS } from '../catalogue/vocabulary.js';
import type { ChecksTimeout } from '../verify/budget.js';
import type { CheckResult } from '../tree-format/verification.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import { runChecks } from '../verify/run.js';
import { deriveLoadout, type DerivedLoadout } from './derive.js';
import type { Submission } from './validate.js';

/**
 * Where a task's checks are, in a `SharedArrayBuffer` of {@link PROGRESS_BYTES} bytes: a
 * Float64 at byte 0, the wall-clock time (ms since the epoch) at which the checks started (0
 * until then); two Int32 at byte 8, the running check's index in `CHECK_IDS` and the index of
 * the file it reads in the source's `files` keys (-1 for none).
 */
export const PROGRESS_BYTES = 16;

/** A task of the pool. */
export type CheckTask = { kind: 'check'; submission: Submission; today: string; budgetMs: number; progress: SharedArrayBuffer; policy?: Policy } | { kind: 'prepare' };

/** What a `check` task gives back: the derived loadout (without its source), the checks' results and what the loadout can run (when its manifest validated), or where the budget ran out. */
export type CheckTaskResult = { derived: Omit<DerivedLoadout, 'source'>; results: CheckResult[]; capabilities?: Capabilities; timedOut: ChecksTimeout | undefined };

/** A tiny loadout whose checks load every module a submission's checks use (secretlint included). */
const WARM_UP: LoadoutSource = {
  id: 'warm-up',
  displayDir: '',
  manifestText: 'id: warm-up\nversion: 0.0.1\n',
  files: new Map([['AGENTS.md', new TextEncoder().encode('# Warm up\n\nRun `npm test` before a commit.\n')]]),
  irregular: [],
};

/** Runs one task (the pool's entry point). */
export default async function runCheckTask(task: CheckTask): Promise<CheckTaskResult | undefined> {
  if (task.kind === 'prepare') {
    prepareSchema();
    await runChecks(WARM_UP);
    return undefined;
  }
  const started = new Float64Array(task.progress, 0, 1);
  const at = new Int32Array(task.progress, 8, 2);
  started[0] = Date.now();
  const { source, ...derived } = deriveLoadout(task.submission, task.today);
  const fileIndex = new Map([...source.files.keys()].map((path, i) => [path, i]));
  const run = await runChecks(source, {
    ...(task.policy === undefined ? {} : { policy: task.policy }),
    // Deriving counted too: the budget is the submission's.
    budgetMs: Math.max(1, task.budgetMs - (Date.now() - (started[0] ?? 0))),
    onProgress: (check, file) => {
      Atomics.store(at, 0, CHECK_IDS.indexOf(check));
      Atomics.store(at, 1, file === undefined ? -1 : (fileIndex.get(file) ?? -1));
    },
  });
  return { derived, results: run.results, ...(run.capabilities === undefined ? {} : { capabilities: run.capabilities }), timedOut: run.timedOut === undefined ? undefined : { ...run.timedOut, budgetMs: task.budgetMs } };
}
