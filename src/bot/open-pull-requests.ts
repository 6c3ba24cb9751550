/**
 * `loadout submissions pr` (DESIGN.md sections 1 and 5): for each accepted
 * submission, a branch `submission/<loadout-id>` with `loadouts/<id>/`, checked again and
 * pushed, and a pull request titled `Add <id> <version>` with the label `submission`; the
 * submission moves to `pr-opened` with the pull request's address, which its status document
 * shows as `pr_url`.
 *
 * Idempotent (changesets/action): a run that finds an open pull request for the branch
 * force-pushes the branch and updates that pull request's body instead of opening another. A
 * `pr-opened` submission named again is refreshed the same way; one whose pull request is no
 * longer open is skipped (`loadout submissions sync` records how it ended).
 *
 * The body says what the loadout can run, as the checks on the branch's folder derived it, and,
 * for a loadout id the catalogue already publishes (`published`), what it changes against the
 * published version (issue 54, point 4).
 */
import type { LoadedPolicy } from '../policy/policy.js';
import { LoadoutError } from '../catalogue/errors.js';
import type { StoredSubmission, SubmissionStore } from '../storage/submission-store.js';
import { transitionSubmission } from '../submissions/transitions.js';
import { checkCatalogue } from '../verify/catalogue.js';
import type { CheckResult } from '../tree-format/verification.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { summariseVerification } from '../verify/verification.js';
import { commitSubmissionBranch } from './branch.js';
import type { BotIdentity } from './config.js';
import type { GitHubClient, PullRequest } from './github-client.js';
import { planLoadoutFolder } from './loadout-folder.js';
import { pullRequestTitle, renderPullRequestBody } from './pull-request-body.js';
import { selectSubmissions } from './select-submissions.js';

/** The label every submission's pull request gets. */
export const SUBMISSION_LABEL = 'submission';

/** The branch of a loadout's pull request. */
export const branchOf = (loadoutId: string): string => `submission/${loadoutId}`;

/** Options of {@link openPullRequests}. */
export interface OpenPullRequestsOptions {
  store: SubmissionStore;
  /** GitHub; may be undefined only for a dry run, which then guesses the action from the state. */
  github: GitHubClient | undefined;
  /** The catalogue root, inside its git repository. */
  root: string;
  remote: string;
  base: string;
  /** Submission ids; empty: every `accepted` submission, oldest first. */
  ids: readonly string[];
  /** Check, commit in a temporary worktree, read GitHub; push, write to GitHub and record nothing. */
  dryRun: boolean;
  identity: BotIdentity;
  now?: () => Date;
  /** Folder for temporary worktrees (default: the system's temporary folder). */
  tempDir?: string;
  /**
   * The version the catalogue publishes of a loadout id, with its capability list (its
   * `versions.json` entry's), or undefined when it publishes none: the body then shows what the
   * submission changes against it. Default: none is looked up. The submissions API takes only
   * ids the catalogue does not publish and the branch step skips a folder the base branch holds,
   * so a caller passes this where the catalogue it serves may publish what the base branch does
   * not hold yet (another branch, a build ahead of the repository).
   */
  published?: (loadoutId: string) => Promise<{ version: string; capabilities?: CapabilityLists } | undefined>;
  /** The catalogue's policy (`LOADOUT_POLICY`): the checks on the branch hold the loadout to it, a break is a failing check that names the rule, and the pull request says which policy it kept. */
  policy?: LoadedPolicy;
}

/** One line of `--json`: what happened to one submission. */
export interface PullRequestOutcome {
  submission: string;
  loadout_id: string;
  branch: string;
  pr_url: string | null;
  action: 'opened' | 'updated' | 'skipped';
  reason?: string;
}

/**
 * Opens or updates the pull request of each submission named (or of every accepted one).
 * Skipped, with a reason: a submission in another state, one whose id or paths are unsafe or
 * cannot be written together, one whose folder already exists on the base branch, one whose
 * checks fail now, a `pr-opened` one whose pull request is closed, and one for which git or
 * GitHub failed. One submission never stops the others: each is handled on its own, and the
 * run goes on after a skip. Outside a dry run, why an `accepted` submission was skipped is
 * recorded on it as an event by `bot` that changes no state (once, while the reason stays the
 * same), so `loadout submissions show` tells the maintainer, who may reject it.
 * @throws LoadoutError `not_found` for an unknown id (before any work). A failure of git or
 *   GitHub is a skip of that submission (the user's working tree is left as it was).
 */
export async function openPullRequests(options: OpenPullRequestsOptions): Promise<PullRequestOutcome[]> {
  if (options.github === undefined && !options.dryRun) throw new LoadoutError('internal', 'openPullRequests needs a GitHub client unless it is a dry run (a bug)');
  const submissions = await selectSubmissions(options.store, options.ids, 'accepted');
  const outcomes: PullRequestOutcome[] = [];
  for (const submission of submissions) {
    let outcome: PullRequestOutcome;
    try {
      outcome = await openOne(options, submission);
    } catch (error) {
      outcome = { submission: submission.id, loadout_id: submission.loadoutId, branch: branchOf(submission.loadoutId), pr_url: submission.prUrl, action: 'skipped', reason: describeFailure(error) };
    }
    if (outcome.action === 'skipped' && outcome.reason !== undefined && submission.status === 'accepted' && !options.dryRun) {
      const at = (options.now ?? (() => new Date()))().toISOString();
      await options.store.note(submission.id, { actor: 'bot', at, note: `${SKIP_NOTE_PREFIX}${outcome.reason}` });
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** How the event that records a skip begins; the reason follows. */
export const SKIP_NOTE_PREFIX = 'pull request not opened: ';

/** The reason of a skip caused by a thrown error: a LoadoutError's message (and hint), or an internal error's. */
function describeFailure(error: unknown): string {
  if (error instanceof LoadoutError) return `${error.message}${error.hint === undefined ? '' : ` (${error.hint})`}`;
  return `internal error: ${error instanceof Error ? error.message : String(error)} (a bug; the submission was not changed)`;
}

async function openOne(options: OpenPullRequestsOptions, submission: StoredSubmission): Promise<PullRequestOutcome> {
  const branch = branchOf(submission.loadoutId);
  const outcome = (action: PullRequestOutcome['action'], prUrl: string | null, reason?: string): PullRequestOutcome => ({
    submission: submission.id,
    loadout_id: submission.loadoutId,
    branch,
    pr_url: prUrl,
    action,
    ...(reason === undefined ? {} : { reason }),
  });
  if (submission.status !== 'accepted' && submission.status !== 'pr-opened') {
    return outcome('skipped', submission.prUrl, `it is ${submission.status} (expected accepted, or pr-opened to refresh its pull request)`);
  }
  const planned = planLoadoutFolder(submission.loadoutId, submission.manifest, await options.store.files(submission.id));
  if (!planned.ok) return outcome('skipped', submission.prUrl, planned.reason);
  const folder = planned.folder;

  const existing = options.github === undefined ? undefined : await options.github.findOpenPullRequest(branch);
  if (submission.status === 'pr-opened' && existing === undefined && options.github !== undefined) {
    return outcome('skipped', submission.prUrl, `its pull request ${submission.prUrl ?? ''} is no longer open (run \`loadout submissions sync\` to record how it ended)`);
  }

  let checks: CheckResult[] = [];
  let capabilities: Capabilities | undefined;
  const at = (options.now ?? (() => new Date()))();
  const branchOutcome = await commitSubmissionBranch({
    root: options.root,
    remote: options.remote,
    base: options.base,
    branch,
    loadoutId: folder.loadoutId,
    files: folder.files,
    message: commitMessage(submission, folder.version ?? 'unversioned'),
    identity: options.identity,
    push: !options.dryRun,
    ...(options.tempDir === undefined ? {} : { tempDir: options.tempDir }),
    async check(catalogueRoot) {
      const [run] = await checkCatalogue({ root: catalogueRoot }, [folder.loadoutId], options.policy === undefined ? {} : { policy: options.policy.policy });
      checks = run?.results ?? [];
      capabilities = run?.capabilities;
      const failing = checks.filter((c) => c.status === 'fail');
      if (run === undefined || failing.length > 0) return `checks fail now: ${failing.map((c) => `${c.id} (${c.summary})`).join('; ')}`;
      return undefined;
    },
  });
  if (branchOutcome.kind === 'skipped') return outcome('skipped', submission.prUrl, branchOutcome.reason);

  const version = folder.version ?? 'unversioned';
  const verification = summariseVerification(checks, { checkedAt: at, commit: branchOutcome.commit, contentCurrent: true });
  const events = await options.store.events(submission.id);
  const published = await options.published?.(submission.loadoutId);
  const body = renderPullRequestBody({
    submissionId: submission.id,
    loadoutId: submission.loadoutId,
    version,
    request: submission.request,
    files: [...folder.files].map(([path, text]) => ({ path, bytes: Buffer.byteLength(text, 'utf8') })).sort((a, b) => (a.path < b.path ? -1 : 1)),
    checks,
    verificationLabel: verification.label,
    ...(options.policy === undefined ? {} : { policy: options.policy.where }),
    decisions: events.filter((e) => e.to === 'accepted').map((e) => ({ actor: e.actor, at: e.at, note: e.note })),
    ...(capabilities === undefined ? {} : { capabilities }),
    ...(published === undefined ? {} : { published }),
  });
  if (options.dryRun || options.github === undefined) {
    const action = existing !== undefined || submission.status === 'pr-opened' ? 'updated' : 'opened';
    return outcome(action, existing?.url ?? submission.prUrl);
  }

  const github = options.github;
  let pull: PullRequest;
  let action: 'opened' | 'updated';
  if (existing !== undefined) {
    pull = await github.updatePullRequestBody(existing.number, body);
    action = 'updated';
  } else {
    pull = await github.createPullRequest({ title: pullRequestTitle(submission.loadoutId, version), body, head: branch, base: options.base });
    action = 'opened';
  }
  if (!pull.labels.includes(SUBMISSION_LABEL)) await github.addLabels(pull.number, [SUBMISSION_LABEL]);
  if (submission.status === 'accepted') {
    const moved = await transitionSubmission(options.store, submission.id, 'pr-opened', { actor: 'bot', at: at.toISOString(), prUrl: pull.url, note: `pull request #${pull.number} ${action}` });
    if (!moved.ok) throw new LoadoutError('invalid_content', `${moved.message}; its pull request ${pull.url} is ${action} but not recorded`, { hint: 'Check the submission with `loadout submissions show`, then run `loadout submissions pr` again.' });
  }
  return outcome(action, pull.url);
}

/**
 * The commit message: `Add <id> <version>`, where it came from, and a `Co-authored-by:` trailer
 * when the submitter gave a name and a GitHub login. The address is GitHub's noreply form
 * `<login>@users.noreply.github.com` (docs.github.com, "Setting your commit email address"):
 * accounts made after 2017-07-18 also have `<id>+<login>@users.noreply.github.com`, but the id
 * needs a users endpoint the bot does not call.
 */
export function commitMessage(submission: Pick<StoredSubmission, 'id' | 'loadoutId' | 'request'>, version: string): string[] {
  const message = [pullRequestTitle(submission.loadoutId, version), `From submission ${submission.id}, opened by loadout submissions pr.`];
  const trailer = coAuthorTrailer(submission.request['author']);
  if (trailer !== undefined) message.push(trailer);
  return message;
}

// GitHub's rule for logins: letters, digits and single hyphens, not at either end, 39 at most.
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/u;

/**
 * `Co-authored-by: <name> <<login>@users.noreply.github.com>` (GitHub, "Creating a commit with
 * multiple authors"), or undefined without both a usable name and a valid login. Line breaks,
 * `<`, `>` and control characters are taken out of the name, so it cannot add a trailer or break
 * the address.
 */
export function coAuthorTrailer(author: unknown): string | undefined {
  if (typeof author !== 'object' || author === null) return undefined;
  const { name, github } = author as { name?: unknown; github?: unknown };
  if (typeof name !== 'string' || typeof github !== 'string' || !GITHUB_LOGIN.test(github)) return undefined;
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f<>\u2028\u2029]/gu, ' ').replace(/\s+/gu, ' ').trim();
  if (clean === '') return undefined;
  return `Co-authored-by: ${clean} <${github}@users.noreply.github.com>`;
}
