/**
 * Publishing the built tree's `plugins/` folder (DESIGN.md "Native plugins") to a branch of
 * the catalogue's own git repository, as github/awesome-copilot publishes its plugins: the
 * agents' CLIs add a git marketplace with a shallow clone (`--depth 1`), which git's dumb HTTP
 * protocol (a static bucket) cannot serve, so `marketplace add <owner>/<repo>` needs a real
 * git host. The branch holds `plugins/` at its root: the vendors' marketplace files
 * (`.claude-plugin/marketplace.json`, `.agents/plugins/claude-marketplace.json`,
 * `.cursor-plugin/marketplace.json`) and a folder per loadout.
 *
 * How, without touching the user's working tree, index or branches (git runs through
 * simple-git): the folder is copied with its links followed (the tree links into its store,
 * docs/architecture.md) into a temporary folder, added to a temporary index of the catalogue's
 * repository (`GIT_INDEX_FILE`), written as a tree; the remote branch is fetched, and when its
 * tree is the same nothing is committed or pushed. Otherwise one commit is made on top of it
 * with a fixed author, committer, date and message, so the same tree on the same branch gives
 * the same commit wherever it is built, and pushed to `refs/heads/<branch>` (no local branch).
 */
import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { LoadoutError } from '../catalogue/errors.js';
import { PLUGINS_FOLDER } from '../tree-format/addresses.js';
import { checkBranchName } from './branch-name.js';

/** What {@link pushPluginsBranch} pushes where. */
export interface PluginsBranchOptions {
  /** The built tree (`--out`, e.g. `dist`). */
  out: string;
  /** A folder inside the catalogue's git repository (its objects are written there). */
  repo: string;
  /** The remote to push to: a remote's name (`origin`) or a git URL. */
  remote: string;
  /** The branch, e.g. `plugins`: a plain branch name (branch-name.ts), pushed as `refs/heads/<branch>`. */
  branch: string;
  /** The commits' author and committer date, ISO 8601 (the catalogue's HEAD commit's date keeps reruns identical). */
  date: string;
  /** The commits' author and committer. */
  identity: { name: string; email: string };
  /** Make the commit but do not push it. */
  dryRun?: boolean;
}

/** What {@link pushPluginsBranch} did. */
export interface PluginsBranchResult {
  /** The branch's commit after the push (or that would be pushed). */
  commit: string;
  /** The tree of `plugins/`. */
  tree: string;
  /** False when the branch already held this tree (nothing committed, nothing pushed). */
  changed: boolean;
  /** True when the commit was pushed. */
  pushed: boolean;
}

/** The message of every commit: fixed, so that the same tree and parent give the same commit. */
export const PLUGINS_COMMIT_MESSAGE = 'Plugins of the catalogue, as built by loadout build (plugins/ of the tree)';

/**
 * Commits `<out>/plugins` to `branch` of `remote` (see the module comment).
 * @throws LoadoutError `usage` when `branch` is no plain branch name (branch-name.ts), before
 *   anything is written; `not_found` when the tree has no `plugins/` (built without plugins),
 *   `git` when a git command fails (with git's message as `cause`).
 */
export async function pushPluginsBranch(options: PluginsBranchOptions): Promise<PluginsBranchResult> {
  await checkBranchName(options.branch, 'the plugins branch', options.repo);
  const folder = join(options.out, PLUGINS_FOLDER);
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new LoadoutError('not_found', `${folder}: no plugins folder in the built tree (expected the output of loadout build, which writes plugins/ unless told not to)`);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'loadout-plugins-branch-'));
  const staging = join(scratch, 'plugins');
  // simple-git takes the whole environment and refuses variables that can run programs
  // (EDITOR, …): git gets only what it needs to find its configuration and credentials.
  // GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n> carry configuration such as
  // the publish workflow's credentials header (git-config(1), ENVIRONMENT).
  const passed = (name: string): boolean => ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_COUNT'].includes(name) || /^GIT_CONFIG_(?:KEY|VALUE)_\d+$/u.test(name);
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => passed(e[0]) && e[1] !== undefined));
  const env = {
    ...inherited,
    GIT_INDEX_FILE: join(scratch, 'index'),
    GIT_AUTHOR_NAME: options.identity.name,
    GIT_AUTHOR_EMAIL: options.identity.email,
    GIT_AUTHOR_DATE: options.date,
    GIT_COMMITTER_NAME: options.identity.name,
    GIT_COMMITTER_EMAIL: options.identity.email,
    GIT_COMMITTER_DATE: options.date,
  };
  // simple-git guards GIT_* variables: these are the ones this module sets, by design.
  const allowEnvironment = Object.keys(env).filter((name) => name.startsWith('GIT_')).concat('GIT_DIR', 'GIT_WORK_TREE');
  const git = simpleGit({ baseDir: options.repo, allowEnvironment }).env(env);
  const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (cause) {
      throw new LoadoutError('git', `cannot publish ${folder} to branch ${options.branch} of ${options.remote}: ${what} failed: ${(cause as Error).message.trim()}`, { cause });
    }
  };
  try {
    // The promise form: `cpSync` copies the links below the top as links on Node 22 and 24,
    // `dereference` or not (nodejs/node#58939); this one follows them on Node 20, 22 and 24.
    await cp(realpathSync(folder), staging, { recursive: true, dereference: true });
    const gitDir = (await step('finding the repository', () => git.revparse(['--absolute-git-dir']))).trim();
    const inStaging = simpleGit({ baseDir: staging, allowEnvironment }).env({ ...env, GIT_DIR: gitDir, GIT_WORK_TREE: staging });
    await step('adding the files', () => inStaging.raw(['add', '--all', '--force', '.']));
    const tree = (await step('writing the tree', () => inStaging.raw(['write-tree']))).trim();
    const remoteRef = `refs/heads/${options.branch}`;
    const listed = (await step('reading the remote branch', () => git.raw(['ls-remote', options.remote, remoteRef]))).trim();
    let parent: string | undefined;
    if (listed !== '') {
      parent = listed.split(/\s/u)[0];
      await step('fetching the remote branch', () => git.raw(['fetch', '--quiet', '--no-tags', '--depth', '1', options.remote, remoteRef]));
      const parentTree = (await step('reading the branch\'s tree', () => git.raw(['rev-parse', `${parent ?? ''}^{tree}`]))).trim();
      if (parentTree === tree) return { commit: parent as string, tree, changed: false, pushed: false };
    }
    const commit = (await step('committing', () => git.raw(['commit-tree', tree, ...(parent === undefined ? [] : ['-p', parent]), '-m', PLUGINS_COMMIT_MESSAGE]))).trim();
    if (options.dryRun === true) return { commit, tree, changed: true, pushed: false };
    await step('pushing', () => git.raw(['push', '--quiet', '--no-verify', options.remote, `${commit}:${remoteRef}`]));
    return { commit, tree, changed: true, pushed: true };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
