/**
 * What happens to a submission once its sender is authenticated and its body is valid
 * (DESIGN.md section 5): the id is checked against the catalogue and other submissions (409),
 * the loadout is derived, the ten checks run over it on a worker thread with the checks' time
 * budget (check-pool.ts), and everything is stored in one transaction. The checks wait for a
 * turn in a bounded queue (check-queue.ts); a submission whose client went away before it was stored
 * (its request's signal aborted) is dropped: its checks do not run if they had not started, and
 * it is not stored. The HTTP layer (routes.ts) and nothing else calls this.
 */
import { randomUUID } from 'node:crypto';
import { OPEN_STATUSES, REPLACEABLE_STATUSES as STORE_REPLACEABLE_STATUSES, type NonceUse, type StoredSubmission, type SubmissionStore } from '../storage/submission-store.js';
import { checksBudgetMs, type ChecksTimeout } from '../verify/budget.js';
import type { Verification } from '../tree-format/verification.js';
import { summariseVerification } from '../verify/verification.js';
import { CheckPool, type SubmissionChecks } from './check-pool.js';
import type { CheckPlace } from './check-queue.js';
import type { Submission } from './validate.js';

/** Submission states (DESIGN.md section 5). */
export const SUBMISSION_STATUSES = ['pending-review', 'checks-failed', 'accepted', 'rejected', 'pr-opened', 'merged', 'closed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** States in which a submission holds its loadout id against other submitters (the store's open states, which the database enforces). */
export const HOLDING_STATUSES: readonly SubmissionStatus[] = OPEN_STATUSES;
/** States in which the same submitter's new submission replaces the old one. */
export const REPLACEABLE_STATUSES: readonly SubmissionStatus[] = STORE_REPLACEABLE_STATUSES;

/** Who sent the submission and how. */
export interface SubmitContext {
  /** `key:<prefix>` or `form`. Browser submitters have no lasting identity, so never replace. */
  submitter: string;
  clientAddress: string;
  /** The form token's nonce, recorded in the same transaction (browser path). */
  nonce?: NonceUse;
  now: Date;
  /** Aborts when the client goes away (the request's signal): the submission is then dropped. */
  signal?: AbortSignal;
}

/** What {@link submitLoadout} did. */
export type SubmitOutcome =
  | { kind: 'stored'; id: string; status: SubmissionStatus; loadoutId: string; verification: Verification; replaced: boolean }
  | { kind: 'id_taken'; detail: string }
  /** The checks ran out of their time budget; nothing was stored. */
  | { kind: 'checks_timeout'; timeout: ChecksTimeout }
  | { kind: 'nonce_used' }
  /** The client went away before the submission was stored; it was not. */
  | { kind: 'abandoned' };

/** Dependencies of {@link submitLoadout}. */
export interface SubmitDependencies {
  submissions: SubmissionStore;
  /** True when the published catalogue already has a loadout with this id. */
  catalogueHas(loadoutId: string): Promise<boolean>;
  /** Where the checks run; default {@link defaultSubmissionChecks}. */
  checks?: SubmissionChecks;
  /** The submission's place in the checks' queue (check-queue.ts), taken before its body was read; none: the checks run at once. */
  place?: CheckPlace;
}

let processChecks: CheckPool | undefined;

/**
 * The process's submission checks: a {@link CheckPool} with the budget
 * `LOADOUT_CHECKS_BUDGET_MS` (verify/budget.ts), started and warmed on first use.
 * @throws LoadoutError `config` for a bad `LOADOUT_CHECKS_BUDGET_MS`.
 */
export function defaultSubmissionChecks(): SubmissionChecks {
  return (processChecks ??= new CheckPool({ budgetMs: checksBudgetMs() }));
}

/**
 * Stores `submission`. A loadout id is taken when the catalogue publishes it, or when a
 * submission in a holding state by another submitter has it; the same API key's pending
 * submission for the id is replaced (same submission id, new files, an event) instead. The
 * store decides that last step in one transaction, so concurrent requests get the answers they
 * would get one after another; the check before the checks run only spares running them for an
 * id that is already taken.
 */
export async function submitLoadout(deps: SubmitDependencies, submission: Submission, context: SubmitContext): Promise<SubmitOutcome> {
  const loadoutId = submission.id;
  if (await deps.catalogueHas(loadoutId)) {
    return { kind: 'id_taken', detail: `the catalogue already publishes a loadout with id "${loadoutId}" (expected a new id; changes to a published loadout go through a pull request)` };
  }
  for (const holder of await deps.submissions.findByLoadoutId(loadoutId, HOLDING_STATUSES)) {
    const refusal = refusalBy(holder, context.submitter);
    if (refusal !== undefined) return { kind: 'id_taken', detail: refusal };
  }
  if (deps.place !== undefined && !(await deps.place.turn(context.signal))) return { kind: 'abandoned' };
  let checked;
  try {
    checked = await (deps.checks ?? defaultSubmissionChecks()).run(submission, context.now.toISOString().slice(0, 10));
  } finally {
    // The next submission's checks start while this one is stored.
    deps.place?.release();
  }
  // Nobody is waiting for the answer: what was not stored is not stored now.
  if (context.signal?.aborted === true) return { kind: 'abandoned' };
  if (checked.kind === 'timeout') return { kind: 'checks_timeout', timeout: checked.timeout };
  const derived = checked.derived;
  const verification = summariseVerification(checked.results, { checkedAt: context.now, commit: derived.contentId, contentCurrent: true });
  const status: SubmissionStatus = verification.verified ? 'pending-review' : 'checks-failed';
  const capabilities = checked.capabilities === undefined ? null : (checked.capabilities as unknown as Record<string, unknown>);
  const fields = { status, contactEmail: submission.contact_email ?? null, clientAddress: context.clientAddress, request: publicFields(submission), manifest: derived.manifestText, verification: verification as unknown as Record<string, unknown>, capabilities, files: derived.files };
  const result = await deps.submissions.submit(
    { id: randomUUID(), loadoutId, submitter: context.submitter, createdAt: context.now.toISOString(), ...fields },
    { actor: context.submitter, replaceOwn: context.submitter !== 'form', ...(context.nonce === undefined ? {} : { nonce: context.nonce }) },
  );
  switch (result.kind) {
    case 'nonce_used':
      return { kind: 'nonce_used' };
    case 'taken':
      return { kind: 'id_taken', detail: refusalBy(result.holder, context.submitter) ?? anotherSubmission(loadoutId) };
    case 'created':
    case 'replaced':
      return { kind: 'stored', id: result.id, status, loadoutId, verification, replaced: result.kind === 'replaced' };
  }
}

/**
 * Why `holder`, a submission in a holding state, keeps `submitter` from submitting its loadout
 * id, or undefined when `submitter` may replace it (the same API key, a replaceable state).
 * Browser submitters have no lasting identity, so never replace.
 */
function refusalBy(holder: StoredSubmission, submitter: string): string | undefined {
  if (submitter === 'form' || holder.submitter !== submitter) return anotherSubmission(holder.loadoutId);
  if ((REPLACEABLE_STATUSES as readonly string[]).includes(holder.status)) return undefined;
  return `your submission ${holder.id} for "${holder.loadoutId}" is already ${holder.status} (expected a different id, or wait until it is published)`;
}

function anotherSubmission(loadoutId: string): string {
  return `another submission is already under review for loadout id "${loadoutId}" (expected a different id)`;
}

/** The fields kept with a submission for reviewers: everything but files, credentials and the contact e-mail. */
function publicFields(submission: Submission): Record<string, unknown> {
  const { files: _files, contact_email: _email, ...rest } = submission;
  return rest;
}
