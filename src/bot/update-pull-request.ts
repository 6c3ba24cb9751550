/**
 * `loadout ci update-pr`, the script of the update Action (actions/update/action.yml; docs/
 * authoring.md "Checking in GitHub Actions"): in a project that installs loadouts, run
 * `loadout outdated --json` on the base branch, and when an install is outdated run `loadout
 * update --json`, commit what it changed on the fixed branch `loadout/update`, push it, and open
 * (or update) one pull request whose body holds the changelog, the capability change and the
 * diffs (update-pull-request-body.ts). Both commands run under the project's policy: `--policy
 * <file>` is passed when the base branch has `loadout-policy.yaml` (or the file named) in the
 * project folder.
 *
 * It runs the `loadout` commands as commands (`runLoadout`), as a user would, so that the
 * Action does what `loadout outdated` and `loadout update` do, flags and policy included. Git
 * runs in a temporary worktree of the base branch (as branch.ts does for submissions): the
 * user's working tree, index and current branch are left as they were, also when a step fails.
 * Idempotent (changesets/action): one branch, force-pushed; the open pull request of that
 * branch is updated instead of opening another. GitHub is reached only through the bot's client
 * (github-client.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { simpleGit } from 'simple-git';
import { LoadoutError } from '../catalogue/errors.js';
import { gitStep } from './branch.js';
import type { BotIdentity } from './config.js';
import type { GitHubClient, PullRequest } from './github-client.js';
import { renderUpdatePullRequestBody, updatePullRequestTitle, type OutdatedInstall, type PrintedUpdate } from './update-pull-request-body.js';

/** The branch every update pull request comes from. */
export const UPDATE_BRANCH = 'loadout/update';

/** The policy file looked for in the project folder when none is named (DESIGN.md, "Policy"). */
export const POLICY_FILE = 'loadout-policy.yaml';

/**
 * Git run without the project's hooks (none of checkout, commit or push): the worktree and its
 * commit are the bot's, and a hook could change what it commits. simple-git refuses a
 * `core.hooksPath` unless told that it is meant.
 */
const NO_HOOKS = { config: ['core.hooksPath=/dev/null'], unsafe: { allowUnsafeHooksPath: true } };

/** How a `loadout` command ended. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `loadout <args>` in `cwd`. */
export type LoadoutRunner = (args: readonly string[], cwd: string) => Promise<CommandResult>;

/** Options of {@link openUpdatePullRequest}. */
export interface UpdatePullRequestOptions {
  /** The project folder (holding the lock), inside its git repository. */
  dir: string;
  /** A remote of that repository, e.g. `origin`. */
  remote: string;
  /** The branch of the remote to update, e.g. `main`. */
  base: string;
  /** Default {@link UPDATE_BRANCH}. */
  branch?: string;
  /** The policy file, relative to the project folder; default {@link POLICY_FILE}. Passed when the base branch has it. */
  policy?: string;
  /** `--from` for both commands: read every catalogue here instead of each install's source. */
  from?: string;
  runLoadout: LoadoutRunner;
  /** GitHub; may be undefined only for a dry run. */
  github: GitHubClient | undefined;
  /** Update and commit in the temporary worktree; push nothing, open nothing. */
  dryRun: boolean;
  identity: BotIdentity;
  /** Folder for the temporary worktree (default: the system's temporary folder). */
  tempDir?: string;
}

/** What {@link openUpdatePullRequest} did. */
export interface UpdatePullRequestOutcome {
  /** `current`: nothing to update; `skipped`: outdated, but no pull request (see `reason`); with `dryRun`, what would happen. */
  action: 'current' | 'opened' | 'updated' | 'skipped';
  branch: string;
  pr_url: string | null;
  /** The installs `loadout outdated --json` found outdated. */
  outdated: OutdatedInstall[];
  /** Installs whose catalogue could not be read: `id for agent: why`. */
  errors: string[];
  /** The policy file both commands ran under, relative to the repository; null without one. */
  policy: string | null;
  reason?: string;
  /** The pull request's title and body (also on a dry run, as they would be). */
  title?: string;
  body?: string;
}

/**
 * Brings the project's installs on `base` up to date in one pull request (see the module
 * comment). A failing `loadout update` (a block the user edited, a policy that refuses) is a skip
 * with its reason; nothing is pushed then.
 * @throws LoadoutError `git` when the folder is not in a repository, the remote or branch is
 *   unknown, or a commit or push fails; `io` when a `loadout` command prints no JSON or GitHub
 *   fails; `internal` without a GitHub client outside a dry run
 */
export async function openUpdatePullRequest(options: UpdatePullRequestOptions): Promise<UpdatePullRequestOutcome> {
  if (options.github === undefined && !options.dryRun) throw new LoadoutError('internal', 'openUpdatePullRequest needs a GitHub client unless it is a dry run (a bug)');
  const branch = options.branch ?? UPDATE_BRANCH;
  const dir = resolve(options.dir);
  if (!existsSync(dir)) throw new LoadoutError('git', `${dir} does not exist (expected the project folder)`, { hint: 'Pass --dir.' });
  const git = simpleGit({ baseDir: dir });
  const top = (await gitStep('find the repository', () => git.revparse(['--show-toplevel']), 'Run it inside the project\'s git repository, or pass --dir.')).trim();
  const prefix = relative(top, dir).split(sep).filter((s) => s !== '');
  const remotes = await gitStep('list the remotes', () => git.getRemotes());
  if (!remotes.some((r) => r.name === options.remote)) {
    throw new LoadoutError('git', `the repository has no remote ${JSON.stringify(options.remote)} (expected one of: ${remotes.map((r) => r.name).join(', ') || 'none'})`, { hint: 'Pass --remote.' });
  }
  const tracking = `refs/remotes/${options.remote}/${options.base}`;
  await gitStep(`fetch ${options.base} from ${options.remote}`, () => git.raw(['fetch', '--no-tags', '--no-write-fetch-head', options.remote, `+refs/heads/${options.base}:${tracking}`]), `Check that ${options.remote} has a branch ${options.base} (--base).`);
  const baseCommit = (await gitStep('read the base commit', () => git.revparse([`${tracking}^{commit}`]))).trim();

  const temp = mkdtempSync(join(options.tempDir ?? tmpdir(), 'loadout-update-'));
  const tree = join(temp, 'worktree');
  let added = false;
  try {
    await gitStep('add a temporary worktree', () => simpleGit({ baseDir: dir, ...NO_HOOKS }).raw(['worktree', 'add', '--detach', tree, baseCommit]));
    added = true;
    const project = join(tree, ...prefix);
    const policyPath = options.policy ?? POLICY_FILE;
    const policy = existsSync(join(project, policyPath)) ? [...prefix, ...policyPath.split(/[\\/]/u)].join('/') : null;
    const shared = [...(policy === null ? [] : ['--policy', join(project, policyPath)]), ...(options.from === undefined ? [] : ['--from', options.from]), '--dir', project, '--json'];

    const rows = parseJson<OutdatedInstall[]>('outdated', await options.runLoadout(['outdated', ...shared], project), isOutdatedList);
    const outdated = rows.filter((r) => r.outdated);
    // An update the policy refuses stays out (its rule is named in the body); the others go on.
    const refused = new Set(outdated.filter((r) => (r.policy ?? []).length > 0).map((r) => r.id));
    const allowed = [...new Set(outdated.map((r) => r.id))].filter((id) => !refused.has(id));
    const errors = rows.filter((r) => r.error !== undefined).map((r) => `${r.id} for ${r.agent}: ${r.error ?? ''}`);
    const outcome = (action: UpdatePullRequestOutcome['action'], prUrl: string | null, extra: Partial<UpdatePullRequestOutcome> = {}): UpdatePullRequestOutcome => ({ action, branch, pr_url: prUrl, outdated, errors, policy, ...extra });
    if (outdated.length === 0) return outcome('current', null);
    if (allowed.length === 0) return outcome('skipped', null, { reason: `the policy refuses every update: ${outdated.flatMap((r) => (r.policy ?? []).map((v) => `${r.id} for ${r.agent}: ${v.message}`)).join('; ')}` });

    // The pull request is where the team reviews what an update adds to what a loadout can run (its body lists the change): the update itself goes on.
    const updated = await options.runLoadout(['update', '--accept-capabilities', ...(refused.size === 0 ? [] : allowed), ...shared], project);
    const stopped = errorOf(updated);
    if (stopped !== undefined) return outcome('skipped', null, { reason: `loadout update stopped (exit ${updated.code ?? 'none'}): ${stopped}` });
    const printed = parseJson<{ updates: PrintedUpdate[]; conflicts?: unknown[] }>('update', updated, isUpdateOutcome);
    if (updated.code !== 0) {
      return outcome('skipped', null, { reason: `loadout update stopped (exit ${updated.code ?? 'none'}): ${firstLines(updated.stderr) || `${printed.conflicts?.length ?? 0} conflicts`}` });
    }
    const updates = printed.updates;
    const title = updatePullRequestTitle(updates);
    const body = renderUpdatePullRequestBody({ updates, policy, errors, rows });

    const config = [...(options.identity.name === undefined ? [] : [`user.name=${options.identity.name}`]), ...(options.identity.email === undefined ? [] : [`user.email=${options.identity.email}`])];
    const wt = simpleGit({ baseDir: tree, config: [...config, ...NO_HOOKS.config], unsafe: NO_HOOKS.unsafe });
    const scope = prefix.length === 0 ? '.' : `:(literal)${prefix.join('/')}`;
    await gitStep('stage the update', () => wt.raw(['add', '--all', '--', scope]));
    const staged = await gitStep('list the staged changes', () => wt.raw(['diff', '--cached', '--name-only']));
    if (staged.trim() === '') return outcome('skipped', null, { reason: 'loadout update changed no file (expected the outdated installs to change)', title, body });
    const message = [title, updates.map((u) => `${u.id} for ${u.agent}: ${u.from} → ${u.to}`).join('\n'), 'By loadout ci update-pr.'];
    await gitStep('commit', () => wt.commit(message, undefined, { '--no-verify': null, '--quiet': null }), 'Set LOADOUT_BOT_NAME and LOADOUT_BOT_EMAIL, or git config user.name and user.email.');
    const commit = (await gitStep('read the commit', () => wt.revparse(['HEAD']))).trim();
    const existing = options.github === undefined ? undefined : await options.github.findOpenPullRequest(branch);
    if (options.dryRun || options.github === undefined) return outcome(existing === undefined ? 'opened' : 'updated', existing?.url ?? null, { title, body });

    await gitStep(`push ${branch} to ${options.remote}`, () => wt.push(options.remote, `${commit}:refs/heads/${branch}`, ['--force', '--no-verify']), `Check that you may push to ${options.remote}.`);
    let pull: PullRequest;
    if (existing !== undefined) pull = await options.github.updatePullRequestBody(existing.number, body);
    else pull = await options.github.createPullRequest({ title, body, head: branch, base: options.base });
    return outcome(existing === undefined ? 'opened' : 'updated', pull.url, { title, body });
  } finally {
    if (added) await git.raw(['worktree', 'remove', '--force', tree]).catch(() => undefined);
    rmSync(temp, { recursive: true, force: true });
    await git.raw(['worktree', 'prune']).catch(() => undefined);
  }
}

/** The message of the error a `loadout` command printed as JSON with `--json` (`{error: {name, message}}`: a policy's refusal names its rules), or undefined. */
function errorOf(result: CommandResult): string | undefined {
  try {
    const value = JSON.parse(result.stdout) as { error?: { name?: unknown; message?: unknown } };
    return typeof value.error?.message === 'string' ? `${typeof value.error.name === 'string' ? `${value.error.name}: ` : ''}${value.error.message}` : undefined;
  } catch {
    return undefined;
  }
}

/** The first lines of a command's error output, on one line. */
function firstLines(text: string): string {
  return text.trim().split('\n').slice(0, 4).join(' / ');
}

/**
 * The JSON a `loadout` command printed, checked for the shape the bot reads.
 * @throws LoadoutError `io` naming the command, its exit code and its error output, when it printed none
 */
function parseJson<T>(command: string, result: CommandResult, valid: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(result.stdout);
  } catch {
    value = undefined;
  }
  if (!valid(value)) {
    throw new LoadoutError('io', `loadout ${command} --json ended with exit ${result.code ?? 'none'} without the JSON expected: ${firstLines(result.stderr) || firstLines(result.stdout) || 'no output'}`, {
      hint: `Run \`loadout ${command}\` in the project to see why.`,
    });
  }
  return value;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isOutdatedList(value: unknown): value is OutdatedInstall[] {
  return Array.isArray(value) && value.every((r) => isRecord(r) && typeof r['id'] === 'string' && typeof r['agent'] === 'string' && typeof r['outdated'] === 'boolean');
}

function isUpdateOutcome(value: unknown): value is { updates: PrintedUpdate[]; conflicts?: unknown[] } {
  const isChange = (c: unknown): boolean => c === undefined || (isRecord(c) && typeof c['widens'] === 'boolean' && Array.isArray(c['items']) && c['items'].every((i) => isRecord(i) && typeof i['change'] === 'string' && typeof i['text'] === 'string'));
  return isRecord(value) && Array.isArray(value['updates']) && value['updates'].every((u) => isRecord(u) && typeof u['id'] === 'string' && typeof u['to'] === 'string' && isRecord(u['changelog']) && Array.isArray(u['files']) && Array.isArray(u['manual_steps']) && isChange(u['capabilities']));
}
