/**
 * The git half of the pull-request bot (DESIGN.md section 1): commit a loadout folder on top of
 * the remote's base branch and push it as `submission/<loadout-id>`, without touching the
 * user's working tree, index or current branch, also when a step fails. Git runs through
 * simple-git only.
 *
 * How: fetch the base branch into its remote-tracking ref (what `git fetch` does), add a
 * temporary worktree in a temporary folder, detached at that commit and without a checkout
 * (so no `post-checkout` hook runs and no file of the catalogue is written), fill the worktree's
 * own index from the base commit (`read-tree`), write only `loadouts/<id>/`, run the checks on
 * it, `add --force` the folder (a `.gitignore` rule such as `dist/` must not drop a submitted
 * file), commit, confirm the commit holds exactly the folder's files, and push the detached
 * commit with `--force` to `refs/heads/<branch>`: no local branch is created. The worktree is
 * removed in every case. Commit and push run with `--no-verify`: the bot runs the catalogue's
 * own checks, and a maintainer's local hooks are not the bot's to run.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { simpleGit } from 'simple-git';
import { LoadoutError } from '../catalogue/errors.js';
import type { BotIdentity } from './config.js';

/** What to commit and where to push it. */
export interface BranchWork {
  /** The catalogue root (`--root`): inside a git repository, holding `loadouts/`. */
  root: string;
  /** A remote of that repository, e.g. `origin`. */
  remote: string;
  /** The branch of the remote to start from, e.g. `main`. */
  base: string;
  /** The branch to push, e.g. `submission/rust-cli`. */
  branch: string;
  loadoutId: string;
  /** Every file of `loadouts/<id>/` by its path inside the folder (already judged safe). */
  files: ReadonlyMap<string, string>;
  /** The commit message: subject, then paragraphs (trailers last). */
  message: string[];
  /** Author and committer; missing parts come from git's configuration. */
  identity: BotIdentity;
  /** False for a dry run: commit in the worktree, push nothing. */
  push: boolean;
  /**
   * Runs the checks on the written folder; `catalogueRoot` holds `loadouts/<id>/`.
   * @returns undefined when they pass, else why not (the branch is then not committed).
   */
  check(catalogueRoot: string): Promise<string | undefined>;
  /** Folder for the temporary worktree (default: the system's temporary folder). */
  tempDir?: string;
}

/** What {@link commitSubmissionBranch} did. */
export type BranchOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'committed'; commit: string; baseCommit: string; pushed: boolean };

/**
 * Commits `work.files` as `loadouts/<id>/` on the remote's base branch and pushes the branch.
 * Skips (pushing nothing) when the base branch already has the folder, a file cannot be written
 * (e.g. EEXIST or ENAMETOOLONG), or the checks fail.
 * @throws LoadoutError `git` when root is not in a repository, the remote or base branch is
 *   unknown, git has no identity, or a fetch, commit or push fails; the worktree is removed first.
 */
export async function commitSubmissionBranch(work: BranchWork): Promise<BranchOutcome> {
  const root = resolve(work.root);
  if (!existsSync(root)) throw new LoadoutError('git', `${root} does not exist (expected the catalogue's folder)`, { hint: 'Pass --root.' });
  const git = simpleGit({ baseDir: root });
  const top = await gitStep('find the repository', () => git.revparse(['--show-toplevel']), `Run it inside the catalogue's git repository, or pass --root.`);
  const prefix = relative(top.trim(), root).split(sep).filter((s) => s !== '').join('/');
  const folder = [prefix, 'loadouts', work.loadoutId].filter((s) => s !== '').join('/');
  const remotes = await gitStep('list the remotes', () => git.getRemotes());
  if (!remotes.some((r) => r.name === work.remote)) {
    throw new LoadoutError('git', `the repository has no remote ${JSON.stringify(work.remote)} (expected one of: ${remotes.map((r) => r.name).join(', ') || 'none'})`, { hint: 'Pass --remote, or add the catalogue repository as a remote.' });
  }
  const tracking = `refs/remotes/${work.remote}/${work.base}`;
  await gitStep(`fetch ${work.base} from ${work.remote}`, () => git.raw(['fetch', '--no-tags', '--no-write-fetch-head', work.remote, `+refs/heads/${work.base}:${tracking}`]), `Check that ${work.remote} has a branch ${work.base} (--base) and that you may read it.`);
  const baseCommit = (await gitStep('read the base commit', () => git.revparse([`${tracking}^{commit}`]))).trim();
  const existing = await gitStep('look for the folder', () => git.raw(['ls-tree', '--name-only', baseCommit, '--', folder]));
  if (existing.trim() !== '') return { kind: 'skipped', reason: `${folder} already exists on ${work.remote}/${work.base} (expected a new loadout: a change to a published loadout is a pull request of its own)` };

  const temp = mkdtempSync(join(work.tempDir ?? tmpdir(), 'loadout-pr-'));
  const tree = join(temp, 'worktree');
  let added = false;
  try {
    await gitStep('add a temporary worktree', () => git.raw(['worktree', 'add', '--detach', '--no-checkout', tree, baseCommit]));
    added = true;
    const config = [...(work.identity.name === undefined ? [] : [`user.name=${work.identity.name}`]), ...(work.identity.email === undefined ? [] : [`user.email=${work.identity.email}`])];
    const wt = simpleGit({ baseDir: tree, config });
    await gitStep('read the base tree', () => wt.raw(['read-tree', baseCommit]));
    const dir = join(tree, ...folder.split('/'));
    for (const [path, text] of work.files) {
      const target = resolve(dir, ...path.split('/'));
      // The paths were judged safe already; this keeps any slip from writing outside the folder.
      if (!target.startsWith(dir + sep)) throw new LoadoutError('internal', `${path} resolves outside ${folder} (a bug: unsafe paths are refused before this)`);
      try {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text, 'utf8');
      } catch (error) {
        // The submission's paths could not all be written (a file that is also a folder, a name
        // too long for this file system): the submission's fault, not the run's.
        // The reason leaves out the temporary folder's name, so that each run gives the same one.
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
        return { kind: 'skipped', reason: `file path ${JSON.stringify(path)} cannot be written into ${folder} (${code}; expected paths that fit one folder on disk)` };
      }
    }
    const failed = await work.check(prefix === '' ? tree : join(tree, ...prefix.split('/')));
    if (failed !== undefined) return { kind: 'skipped', reason: failed };
    await gitStep('stage the folder', () => wt.raw(['add', '--force', '--', `:(literal)${folder}`]));
    await gitStep('commit', () => wt.commit(work.message, undefined, { '--no-verify': null, '--quiet': null }), 'Set LOADOUT_BOT_NAME and LOADOUT_BOT_EMAIL, or git config user.name and user.email.');
    const commit = (await gitStep('read the commit', () => wt.revparse(['HEAD']))).trim();
    const committed = (await gitStep('list the commit', () => wt.raw(['ls-tree', '-r', '-z', '--name-only', commit, '--', folder]))).split('\0').filter((l) => l !== '').sort();
    const expected = [...work.files.keys()].map((p) => `${folder}/${p}`).sort();
    if (committed.join('\n') !== expected.join('\n')) {
      throw new LoadoutError('git', `the commit holds ${committed.length} files of ${folder} where ${expected.length} were written (expected exactly the submission's files)`, { hint: 'Check the repository for attributes or hooks that change files on commit.' });
    }
    if (work.push) {
      await gitStep(`push ${work.branch} to ${work.remote}`, () => wt.push(work.remote, `${commit}:refs/heads/${work.branch}`, ['--force', '--no-verify']), `Check that you may push to ${work.remote}.`);
    }
    return { kind: 'committed', commit, baseCommit, pushed: work.push };
  } finally {
    if (added) await git.raw(['worktree', 'remove', '--force', tree]).catch(() => undefined);
    rmSync(temp, { recursive: true, force: true });
    // After a failed remove (or a run killed earlier), prune forgets worktrees whose folder is gone.
    await git.raw(['worktree', 'prune']).catch(() => undefined);
  }
}

/** Runs one git step; a failure becomes a LoadoutError `git` that names the step. */
export async function gitStep<T>(step: string, task: () => Promise<T>, hint?: string): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof LoadoutError) throw error;
    const message = (error as Error).message.trim().split('\n').slice(0, 4).join(' / ');
    throw new LoadoutError('git', `git could not ${step}: ${message}`, { cause: error, ...(hint === undefined ? {} : { hint }) });
  }
}
