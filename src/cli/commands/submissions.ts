/**
 * `loadout submissions list [--status S] [--json]` / `show ID [--json]` / `accept ID` /
 * `reject ID --reason R` (DESIGN.md section 2): maintainers review submissions. Each change is
 * recorded as an event with its time and the maintainer as actor. `pr [ID…]` and `sync [ID…]`
 * are the bot's (DESIGN.md sections 1 and 5): thin wrappers over src/bot/.
 *
 * Everything these commands print may hold submitted text (notes, paths, check summaries, ids
 * and addresses of rows written by older versions): each field goes through `printableLine`
 * and JSON through `printableJson` (src/cli/terminal-text.ts), so it cannot act on the
 * maintainer's terminal or forge a line.
 */
import { readPolicyAt } from '../policy-source.js';
import { resolveBotIdentity, resolveGitHubSettings } from '../../bot/config.js';
import { createGitHubClient, type GitHubClient } from '../../bot/github-client.js';
import { openPullRequests } from '../../bot/open-pull-requests.js';
import { syncPullRequests } from '../../bot/sync.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { createStores } from '../../storage/stores.js';
import { transitionSubmission } from '../../submissions/transitions.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';
import { printableJson, printableLine as safe } from '../terminal-text.js';
import { withDatabase } from './db.js';

/** Options shared by the submissions commands. */
export interface SubmissionsCommandOptions {
  databaseUrl: string;
  json?: boolean;
}

/** Lists submissions, newest first. */
export async function submissionsListCommand(options: SubmissionsCommandOptions & { status?: string }, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database) => {
    const list = await createStores(database).submissions.list(options.status);
    const rows = list.map((s) => ({ id: s.id, loadout_id: s.loadoutId, status: s.status, submitter: s.submitter, created_at: s.createdAt, updated_at: s.updatedAt }));
    if (options.json === true) out(`${printableJson(rows)}\n`);
    else if (rows.length === 0) out('no submissions\n');
    else for (const r of rows) out(`${safe(r.id)}  ${safe(r.status).padEnd(14)}  ${safe(r.loadout_id)}  ${safe(r.submitter)}  ${safe(r.created_at)}\n`);
    return EXIT.ok;
  });
}

/** Shows one submission for reviewers: fields, contact, events, files and check results. */
export async function submissionsShowCommand(options: SubmissionsCommandOptions & { id: string }, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database) => {
    const store = createStores(database).submissions;
    const s = await store.get(options.id);
    if (s === undefined) throw new LoadoutError('not_found', `no submission ${safe(options.id)}`, { hint: 'Run `loadout submissions list`.' });
    const events = await store.events(s.id);
    const files = await store.files(s.id);
    if (options.json === true) {
      out(`${printableJson({ ...s, events, files: files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content) })) })}\n`);
      return EXIT.ok;
    }
    const checks = Array.isArray(s.verification['checks']) ? (s.verification['checks'] as unknown[]) : [];
    out(`${safe(s.id)}  ${safe(s.loadoutId)}  ${safe(s.status)}\nsubmitter ${safe(s.submitter)}  contact ${safe(s.contactEmail ?? '-')}  address ${safe(s.clientAddress)}\n`);
    out(`notes: ${typeof s.request['notes'] === 'string' ? safe(s.request['notes']) : '-'}\n\nchecks:\n`);
    for (const c of checks) out(`  ${safe(field(c, 'id')).padEnd(14)} ${safe(field(c, 'status')).padEnd(4)} ${safe(field(c, 'summary'))}\n`);
    out('\nfiles:\n');
    for (const f of files) out(`  ${safe(f.path)} (${Buffer.byteLength(f.content)} bytes)\n`);
    out('\nevents:\n');
    for (const e of events) out(`  ${safe(e.at)}  ${safe(e.from ?? '-')} -> ${safe(e.to)}  by ${safe(e.actor)}${e.note === null ? '' : `: ${safe(e.note)}`}\n`);
    return EXIT.ok;
  });
}

/** Moves a submission: `accept` from pending-review, `reject` (with a reason, kept as the event's note) from pending-review, checks-failed or accepted. */
export async function submissionsDecideCommand(options: { databaseUrl: string; id: string; decision: 'accept' | 'reject'; reason?: string; by: string }, out: Write, err: Write): Promise<number> {
  if (options.decision === 'reject' && (options.reason === undefined || options.reason.trim() === '')) throw new LoadoutError('usage', 'reject needs --reason (expected a sentence the submitter will understand)');
  return withDatabase(options.databaseUrl, async (database) => {
    const to = options.decision === 'accept' ? 'accepted' : 'rejected';
    const change = { actor: `maintainer:${options.by}`, at: new Date().toISOString(), ...(options.reason === undefined ? {} : { note: options.reason }) };
    const moved = await transitionSubmission(createStores(database).submissions, options.id, to, change);
    if (!moved.ok) {
      err(`loadout: ${safe(moved.message)}\n`);
      return EXIT.failed;
    }
    out(`${safe(moved.submission.id)}: ${to}\n`);
    return EXIT.ok;
  });
}

/** Options of `loadout submissions pr`. */
export interface SubmissionsPrOptions {
  databaseUrl: string;
  root: string;
  ids: string[];
  remote: string;
  base: string;
  dryRun: boolean;
  json: boolean;
  /** The environment to read GITHUB_* and LOADOUT_BOT_* from. */
  env: NodeJS.ProcessEnv;
  /** The catalogue's policy (`LOADOUT_POLICY`, a path or an http(s) address): the checks run again on the branch hold the loadout to it (docs/policy.md). */
  policy?: string;
}

/**
 * Opens or updates the pull request of each accepted submission (or of those named). A dry run
 * needs no GitHub token: without one it guesses `opened` or `updated` from the state.
 * @returns 0 when none was skipped, else 1. `--json`: `[{submission, loadout_id, branch, pr_url,
 *   action, reason?}]`.
 */
export async function submissionsPrCommand(options: SubmissionsPrOptions, out: Write, err: Write): Promise<number> {
  const identity = resolveBotIdentity(options.env);
  const github = options.dryRun && !hasGitHubSettings(options.env) ? undefined : gitHubClient(options.env, err);
  const policy = options.policy === undefined ? undefined : await readPolicyAt(options.policy, 'LOADOUT_POLICY', []);
  return withDatabase(options.databaseUrl, async (database) => {
    const outcomes = await openPullRequests({ store: createStores(database).submissions, github, root: options.root, remote: options.remote, base: options.base, ids: options.ids, dryRun: options.dryRun, identity, ...(policy === undefined ? {} : { policy }) });
    if (options.json) out(`${printableJson(outcomes)}\n`);
    else if (outcomes.length === 0) out('no accepted submissions\n');
    else {
      const verb = { opened: options.dryRun ? 'would open' : 'opened', updated: options.dryRun ? 'would update' : 'updated', skipped: 'skipped' } as const;
      for (const o of outcomes) out(`${safe(o.submission)}  ${safe(o.loadout_id)}  ${verb[o.action]}${o.pr_url === null ? '' : `  ${safe(o.pr_url)}`}${o.reason === undefined ? '' : `: ${safe(o.reason)}`}\n`);
    }
    return outcomes.some((o) => o.action === 'skipped') ? EXIT.failed : EXIT.ok;
  });
}

/** Options of `loadout submissions sync`. */
export interface SubmissionsSyncOptions {
  databaseUrl: string;
  ids: string[];
  json: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * Moves each pr-opened submission (or each one named) to merged or closed when its pull request
 * ended. @returns 0, or 1 when a move was refused (the message says why). `--json`:
 * `[{submission, loadout_id, pr_url, pull_request, status, changed, refused?}]`.
 */
export async function submissionsSyncCommand(options: SubmissionsSyncOptions, out: Write, err: Write): Promise<number> {
  const github = gitHubClient(options.env, err);
  return withDatabase(options.databaseUrl, async (database) => {
    const outcomes = await syncPullRequests({ store: createStores(database).submissions, github, ids: options.ids });
    for (const o of outcomes) if (o.refused !== undefined) err(`loadout: ${safe(o.refused)}\n`);
    if (options.json) out(`${printableJson(outcomes)}\n`);
    else if (outcomes.length === 0) out('no pr-opened submissions\n');
    else for (const o of outcomes.filter((x) => x.refused === undefined)) out(`${safe(o.submission)}  ${safe(o.loadout_id)}  ${o.changed ? safe(o.status) : `still ${safe(o.status)} (pull request ${o.pull_request ?? 'unknown'})`}${o.pr_url === null ? '' : `  ${safe(o.pr_url)}`}\n`);
    return outcomes.some((o) => o.refused !== undefined) ? EXIT.failed : EXIT.ok;
  });
}

/** A string field of a stored check result (any JSON, when a row was written by another tool), or `?`. */
function field(check: unknown, key: string): string {
  const value = typeof check === 'object' && check !== null ? (check as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '?';
}

function hasGitHubSettings(env: NodeJS.ProcessEnv): boolean {
  return (env['GITHUB_TOKEN'] ?? '') !== '' && (env['GITHUB_REPOSITORY'] ?? '') !== '';
}

function gitHubClient(env: NodeJS.ProcessEnv, err: Write): GitHubClient {
  return createGitHubClient(resolveGitHubSettings(env), { warn: (message) => err(`loadout: ${safe(message)}\n`) });
}
