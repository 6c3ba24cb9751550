/**
 * The life of a submission (DESIGN.md section 5): `pending-review` or `checks-failed` on
 * arrival; then `accepted` / `rejected` by a maintainer; `pr-opened` by the bot; `merged` /
 * `closed` when the pull request ends. A maintainer may also reject an accepted submission that
 * has no pull request yet (one the bot cannot publish, for instance), with a reason. This table is the one place that says which move is
 * legal; maintainers' commands and the bot both go through {@link transitionSubmission}, so an
 * illegal move is refused with the same message everywhere. (A resubmission, which replaces a
 * `pending-review` or `checks-failed` submission in place, is the store's `replace`, not a move.)
 */
import type { StoredSubmission, SubmissionStore } from '../storage/submission-store.js';
import { SUBMISSION_STATUSES, type SubmissionStatus } from './service.js';

/** For each state, the states a submission may move to from it. */
export const TRANSITIONS: Readonly<Record<SubmissionStatus, readonly SubmissionStatus[]>> = {
  'pending-review': ['accepted', 'rejected'],
  'checks-failed': ['rejected'],
  accepted: ['pr-opened', 'rejected'],
  rejected: [],
  'pr-opened': ['merged', 'closed'],
  merged: [],
  closed: [],
};

/** The states from which a submission may move to `to`, in the order of {@link SUBMISSION_STATUSES}. */
export function sourcesOf(to: SubmissionStatus): SubmissionStatus[] {
  return SUBMISSION_STATUSES.filter((from) => TRANSITIONS[from].includes(to));
}

/** Who moves a submission, when, and why. `at` is an ISO 8601 UTC time. */
export interface TransitionChange {
  /** `maintainer:<name>` or `bot`. */
  actor: string;
  at: string;
  note?: string;
  /** The pull request's address (`pr-opened` only): the status document's `pr_url`. */
  prUrl?: string;
}

/** What {@link transitionSubmission} did: the moved submission, or why it refused. */
export type TransitionOutcome = { ok: true; submission: StoredSubmission } | { ok: false; message: string };

/**
 * Moves submission `id` to `to` and records the event, when its current state allows it. The
 * store's status condition makes two concurrent moves let exactly one through.
 * @returns the moved submission, or a refusal such as `submission <id> is accepted (expected
 *   pr-opened to become merged)` / `submission <id> does not exist`. Never throws for an illegal move.
 */
export async function transitionSubmission(store: SubmissionStore, id: string, to: SubmissionStatus, change: TransitionChange): Promise<TransitionOutcome> {
  const from = sourcesOf(to);
  const moved = await store.transition(id, { from, to, ...change });
  if (moved !== undefined) return { ok: true, submission: moved };
  const current = await store.get(id);
  return { ok: false, message: current === undefined ? `submission ${id} does not exist` : refusal(current, to) };
}

/**
 * Why `submission` cannot move to `to` (one state, or any of several): its state is not a
 * source of it, e.g. `submission <id> is accepted (expected pr-opened to become merged or closed)`.
 */
export function refusal(submission: Pick<StoredSubmission, 'id' | 'status'>, to: SubmissionStatus | readonly SubmissionStatus[]): string {
  const targets = typeof to === 'string' ? [to] : to;
  const sources = SUBMISSION_STATUSES.filter((from) => targets.some((t) => TRANSITIONS[from].includes(t)));
  return `submission ${submission.id} is ${submission.status} (expected ${sources.join(' or ')} to become ${targets.join(' or ')})`;
}
