/**
 * The time budget of the checks of one loadout (DESIGN.md section 7: "the checks of a
 * submission run off the event loop with a time budget"). `verify`, `build` and the
 * submissions API give every loadout the same budget, `LOADOUT_CHECKS_BUDGET_MS`. Past it,
 * the check that was running fails and says which file it was reading (`runChecks`), and the
 * server answers 422 `checks_timeout` (submissions/check-pool.ts stops a worker that does not
 * come back).
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { CheckId } from '../catalogue/vocabulary.js';

/** The environment variable that sets the budget, in milliseconds. */
export const CHECKS_BUDGET_VARIABLE = 'LOADOUT_CHECKS_BUDGET_MS';
/** The budget when the variable is unset: a loadout's checks take a few milliseconds, a large one well under a second. */
export const DEFAULT_CHECKS_BUDGET_MS = 5000;
/** The largest budget the variable may ask for: one hour. */
const MAX_BUDGET_MS = 3_600_000;

/**
 * The checks' budget in milliseconds from `LOADOUT_CHECKS_BUDGET_MS` in `env`, else
 * {@link DEFAULT_CHECKS_BUDGET_MS}.
 * @throws LoadoutError `config` when the variable is not a whole number from 1 to 3,600,000.
 */
export function checksBudgetMs(env: NodeJS.ProcessEnv = process.env): number {
  const asked = env[CHECKS_BUDGET_VARIABLE];
  if (asked === undefined || asked.trim() === '') return DEFAULT_CHECKS_BUDGET_MS;
  const ms = Number(asked);
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_BUDGET_MS) {
    throw new LoadoutError('config', `${CHECKS_BUDGET_VARIABLE}: expected a whole number of milliseconds from 1 to ${MAX_BUDGET_MS}, got ${JSON.stringify(asked)}`);
  }
  return ms;
}

/** Where the checks were when their budget ran out. */
export interface ChecksTimeout {
  /** The check that was running. */
  check: CheckId;
  /** The loadout file it was reading (relative to the loadout), if it was reading one. */
  file: string | undefined;
  /** The budget, in milliseconds. */
  budgetMs: number;
}

/** Thrown inside `runChecks` when the budget runs out; caught there and turned into a failing check. */
export class ChecksTimeoutError extends Error {
  readonly timeout: ChecksTimeout;

  constructor(timeout: ChecksTimeout) {
    super(describeChecksTimeout(timeout));
    this.name = 'ChecksTimeoutError';
    this.timeout = timeout;
  }
}

/** "the checks' time budget of 5000 ms ran out in the safety check, on AGENTS.md" (paths as given). */
export function describeChecksTimeout(timeout: ChecksTimeout, file = timeout.file): string {
  return `the checks' time budget of ${timeout.budgetMs} ms ran out in the ${timeout.check} check${file === undefined ? '' : `, on ${file}`}`;
}
