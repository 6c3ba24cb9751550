/**
 * `loadout submissions sync` (DESIGN.md sections 2 and 5): reads the pull request of
 * each `pr-opened` submission and moves the submission to `merged` (the pull request was
 * merged) or `closed` (closed without merging), recording the event with the bot as actor. An
 * open pull request leaves the submission as it is. A submission named that is not `pr-opened`
 * is refused with the same message as any illegal move (src/submissions/transitions.ts).
 */
import type { StoredSubmission, SubmissionStore } from '../storage/submission-store.js';
import type { SubmissionStatus } from '../submissions/service.js';
import { refusal, transitionSubmission } from '../submissions/transitions.js';
import type { GitHubClient } from './github-client.js';
import { selectSubmissions } from './select-submissions.js';

/** Options of {@link syncPullRequests}. */
export interface SyncOptions {
  store: SubmissionStore;
  github: GitHubClient;
  /** Submission ids; empty: every `pr-opened` submission, oldest first. */
  ids: readonly string[];
  now?: () => Date;
}

/** One line of `--json`: a submission, its pull request's state, and its status after the sync. */
export interface SyncOutcome {
  submission: string;
  loadout_id: string;
  pr_url: string | null;
  /** The pull request as GitHub has it; null when it could not be read (see `refused`). */
  pull_request: 'open' | 'merged' | 'closed' | null;
  /** The submission's status after the sync. */
  status: string;
  /** True when this sync moved the submission. */
  changed: boolean;
  /** Why the submission was not moved although asked (an illegal move, an address of another repository). */
  refused?: string;
}

/**
 * Syncs the submissions named (or every `pr-opened` one) with their pull requests.
 * @throws LoadoutError `not_found` for an unknown id (before any request), `io` when GitHub fails.
 */
export async function syncPullRequests(options: SyncOptions): Promise<SyncOutcome[]> {
  const submissions = await selectSubmissions(options.store, options.ids, 'pr-opened');
  const outcomes: SyncOutcome[] = [];
  for (const submission of submissions) outcomes.push(await syncOne(options, submission));
  return outcomes;
}

async function syncOne(options: SyncOptions, submission: StoredSubmission): Promise<SyncOutcome> {
  const base = { submission: submission.id, loadout_id: submission.loadoutId, pr_url: submission.prUrl };
  const refuse = (message: string): SyncOutcome => ({ ...base, pull_request: null, status: submission.status, changed: false, refused: message });
  if (submission.status !== 'pr-opened') return refuse(refusal(submission, ['merged', 'closed']));
  const number = pullRequestNumber(submission.prUrl, options.github.repository);
  if (typeof number === 'string') return refuse(number);
  const pull = await options.github.getPullRequest(number);
  const state = pull.merged ? 'merged' : pull.state === 'closed' ? 'closed' : 'open';
  if (state === 'open') return { ...base, pull_request: 'open', status: submission.status, changed: false };
  const to: SubmissionStatus = state;
  const at = (options.now ?? (() => new Date()))().toISOString();
  const moved = await transitionSubmission(options.store, submission.id, to, { actor: 'bot', at, note: `pull request #${number} ${state}` });
  if (!moved.ok) return { ...refuse(moved.message), pull_request: state };
  return { ...base, pull_request: state, status: moved.submission.status, changed: true };
}

/**
 * The pull request number in `prUrl` (`…/<owner>/<repo>/pull/<number>`, GitHub's `html_url`), or
 * why it has none, or names another repository than `repository` (`owner/name`, compared without
 * case as GitHub does).
 */
export function pullRequestNumber(prUrl: string | null, repository: string): number | string {
  if (prUrl === null) return 'it has no pull request address (expected the pr_url recorded by `loadout submissions pr`)';
  let segments: string[];
  try {
    segments = new URL(prUrl).pathname.split('/').filter((s) => s !== '');
  } catch {
    return `its pull request address ${JSON.stringify(prUrl)} is not a URL (expected …/<owner>/<repo>/pull/<number>)`;
  }
  const [owner, repo, kind, number] = segments.slice(-4);
  if (kind !== 'pull' || number === undefined || !/^[1-9]\d{0,9}$/u.test(number)) return `its pull request address ${JSON.stringify(prUrl)} does not end in /pull/<number>`;
  if (`${owner}/${repo}`.toLowerCase() !== repository.toLowerCase()) return `its pull request ${prUrl} is in ${owner}/${repo}, not in GITHUB_REPOSITORY ${repository}`;
  return Number(number);
}
