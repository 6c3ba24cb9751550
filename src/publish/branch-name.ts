/**
 * The branch `loadout publish --plugins-remote` pushes the tree's `plugins/` to
 * (plugins-branch.ts): a plain branch name, pushed as `refs/heads/<name>`. Git's own rule decides
 * what a branch name may be (`git check-ref-format --branch`, git-check-ref-format(1): no `..`,
 * `~`, `^`, `:`, `?`, `*`, `[`, `\`, space or control character, no `@{`, no component that
 * starts with `.` or ends in `.lock`, not `HEAD`, not starting with `-`), rather than a copy of
 * it here. Git accepts some names as branch names that would not be the plain branch the
 * marketplaces are told about, and they are refused too: a name starting with `+` (a forced
 * update in a refspec), or with `refs/` (which would create `refs/heads/refs/…`), and `HEAD`
 * and `@` (git's names for the current commit) whatever the git version.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LoadoutError } from '../catalogue/errors.js';

const run = promisify(execFile);

/** What a plugins branch is expected to be, for messages. */
export const EXPECTED_BRANCH = 'a plain branch name that git accepts (git check-ref-format --branch), such as plugins, not HEAD and not starting with "-", "+" or "refs/"';

/** Why `name` is refused before git is asked, or undefined. */
function describeOwnRule(name: string): string | undefined {
  if (name.startsWith('-')) return 'starts with "-", which git reads as an option';
  if (name.startsWith('+')) return 'starts with "+", which a push reads as a forced update';
  if (name.startsWith('refs/')) return 'is a full ref name, which would be pushed as refs/heads/refs/…';
  if (name === 'HEAD' || name === '@') return 'names git\'s current commit, not a branch';
  return undefined;
}

/**
 * Why `name` cannot be the plugins branch (one clause, e.g. `is not a branch name git accepts`),
 * or undefined when it can (see the module comment).
 * @param cwd where git runs (default this process's folder): in a repository git reads `@{-1}`
 *   as the branch checked out before, which is refused as no name of its own.
 * @throws LoadoutError `git` when git cannot be run.
 */
export async function describeBranchNameProblem(name: string, cwd?: string): Promise<string | undefined> {
  const own = describeOwnRule(name);
  if (own !== undefined) return own;
  let printed: string;
  try {
    printed = (await run('git', ['check-ref-format', '--branch', name], { encoding: 'utf8', ...(cwd === undefined ? {} : { cwd }) })).stdout;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') throw new LoadoutError('git', 'cannot check the plugins branch\'s name: git is not installed or not on PATH', { cause });
    // git exits 128 for a name its rule refuses.
    return 'is not a branch name git accepts (git check-ref-format --branch refuses it)';
  }
  // In a repository git expands `@{-1}` to the branch checked out before: only the name itself is a name.
  return printed.replace(/\n$/u, '') === name ? undefined : 'is not a branch name git accepts (git check-ref-format --branch reads it as another branch)';
}

/**
 * Refuses a plugins branch that {@link describeBranchNameProblem} refuses.
 * @param what how the user gave the name, for the message (`--plugins-branch`).
 * @param cwd where git runs ({@link describeBranchNameProblem}).
 * @throws LoadoutError `usage` naming `what`, the value and what was expected; `git` when git cannot be run.
 */
export async function checkBranchName(name: string, what: string, cwd?: string): Promise<void> {
  const problem = await describeBranchNameProblem(name, cwd);
  if (problem !== undefined) throw new LoadoutError('usage', `${what} is ${JSON.stringify(name)}, which ${problem} (expected ${EXPECTED_BRANCH})`);
}
