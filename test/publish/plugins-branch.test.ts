/**
 * `plugins/` pushed to a branch of the catalogue's repository (src/publish/plugins-branch.ts),
 * against a real local bare repository: the branch holds the folder marketplace with its links
 * followed, the same tree gives the same commit, nothing is committed when nothing changed, and
 * the user's index, working tree and branches are left alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { describeBranchNameProblem } from '../../src/publish/branch-name.js';
import { pushPluginsBranch, type PluginsBranchOptions } from '../../src/publish/plugins-branch.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, git, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'https://catalogue.test';
const identity = { name: 'Catalogue Bot', email: 'bot@catalogue.test' };

/** A catalogue repository whose `origin` is a new bare repository, built into `dist`. */
async function catalogue(): Promise<{ root: string; bare: string; options: PluginsBranchOptions }> {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, { id: 'alpha' });
  writeLoadout(root, { id: 'beta', version: '1.2.0' });
  commitAll(root, 'two loadouts', '2026-01-10T10:00:00Z');
  const bare = makeTempDir();
  execFileSync('git', ['init', '--quiet', '--bare', bare]);
  git(root, ['remote', 'add', 'origin', bare]);
  await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE });
  return { root, bare, options: { out: join(root, 'dist'), repo: root, remote: 'origin', branch: 'plugins', date: '2026-01-10T10:00:00Z', identity } };
}

const show = (bare: string, spec: string): string => execFileSync('git', ['--git-dir', bare, 'show', spec], { encoding: 'utf8' });

describe('pushing plugins/ to a branch', () => {
  it('pushes the folder marketplace with its links followed, and commits nothing when the tree is the same', async () => {
    const { root, bare, options } = await catalogue();
    const statusBefore = git(root, ['status', '--porcelain']);
    const first = await pushPluginsBranch(options);
    expect(first).toMatchObject({ changed: true, pushed: true });
    expect(execFileSync('git', ['--git-dir', bare, 'rev-parse', 'refs/heads/plugins'], { encoding: 'utf8' }).trim()).toBe(first.commit);
    const files = execFileSync('git', ['--git-dir', bare, 'ls-tree', '-r', '--name-only', 'plugins'], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(expect.arrayContaining(['.claude-plugin/marketplace.json', '.agents/plugins/claude-marketplace.json', '.cursor-plugin/marketplace.json', 'alpha/plugin.json', 'alpha/.claude-plugin/plugin.json', 'beta/AGENTS.md']));
    // Files, not the tree's links into its store.
    expect(execFileSync('git', ['--git-dir', bare, 'ls-tree', 'plugins', 'alpha'], { encoding: 'utf8' })).toMatch(/^040000 tree /u);
    expect(show(bare, 'plugins:beta/AGENTS.md')).toBe(readFileSync(join(root, 'loadouts/beta/AGENTS.md'), 'utf8'));
    expect(JSON.parse(show(bare, 'plugins:.claude-plugin/marketplace.json'))).toMatchObject({ name: 'loadout-catalogue', plugins: [{ name: 'alpha', source: './alpha' }, { name: 'beta', source: './beta' }] });

    const again = await pushPluginsBranch(options);
    expect(again).toEqual({ commit: first.commit, tree: first.tree, changed: false, pushed: false });
    // The user's working tree, index and branches are as they were.
    expect(git(root, ['status', '--porcelain'])).toBe(statusBefore);
    expect(git(root, ['branch', '--list']).trim()).toMatch(/^\* (main|master)$/u);
  });

  it('gives the same commit for the same tree from another build, and a new commit on top when a loadout changes', async () => {
    const { root, bare, options } = await catalogue();
    const first = await pushPluginsBranch(options);
    // Another clean build of the same catalogue elsewhere makes the same commit (dry run: not pushed).
    const elsewhere = join(root, 'elsewhere');
    await buildCatalogue({ root, out: elsewhere, baseUrl: BASE, clean: true });
    execFileSync('git', ['--git-dir', bare, 'update-ref', '-d', 'refs/heads/plugins']);
    const rebuilt = await pushPluginsBranch({ ...options, out: elsewhere, dryRun: true });
    expect(rebuilt).toMatchObject({ commit: first.commit, changed: true, pushed: false });
    expect(existsSync(join(bare, 'refs/heads/plugins'))).toBe(false);
    await pushPluginsBranch(options);

    writeFileSync(join(root, 'loadouts/alpha/AGENTS.md'), '# Alpha\n\nChanged.\n');
    commitAll(root, 'alpha changed', '2026-01-11T10:00:00Z');
    await buildCatalogue({ root, out: options.out, baseUrl: BASE });
    const second = await pushPluginsBranch({ ...options, date: '2026-01-11T10:00:00Z' });
    expect(second.changed).toBe(true);
    expect(execFileSync('git', ['--git-dir', bare, 'rev-parse', 'plugins^'], { encoding: 'utf8' }).trim()).toBe(first.commit);
    expect(show(bare, 'plugins:alpha/AGENTS.md')).toBe('# Alpha\n\nChanged.\n');
  });

  it('refuses a tree built without plugins, and names the remote when git fails', async () => {
    const { root, options } = await catalogue();
    await buildCatalogue({ root, out: join(root, 'bare-tree'), baseUrl: BASE, plugins: false });
    await expect(pushPluginsBranch({ ...options, out: join(root, 'bare-tree') })).rejects.toThrow(/no plugins folder in the built tree/u);
    const failure = await pushPluginsBranch({ ...options, remote: join(root, 'no-such-remote') }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LoadoutError);
    expect((failure as LoadoutError).code).toBe('git');
    expect((failure as Error).message).toContain('no-such-remote');
  });

  it('pushes to a plain branch name only, refusing the others with a usage error before anything is pushed', async () => {
    const { root, bare, options } = await catalogue();
    const failure = await pushPluginsBranch({ ...options, branch: 'HEAD' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LoadoutError);
    expect((failure as LoadoutError).code).toBe('usage');
    expect((failure as Error).message).toMatch(/^the plugins branch is "HEAD", which names git's current commit, not a branch \(expected a plain branch name/u);
    expect(execFileSync('git', ['--git-dir', bare, 'for-each-ref'], { encoding: 'utf8' })).toBe('');
    // git's own rule, as git applies it (git check-ref-format --branch); in a repository it reads
    // @{-1} as the branch checked out before, which is no name of its own.
    git(root, ['checkout', '-q', '-b', 'other']);
    git(root, ['checkout', '-q', '-']);
    expect(await describeBranchNameProblem('@{-1}', root)).toBe('is not a branch name git accepts (git check-ref-format --branch reads it as another branch)');
    for (const bad of ['main.lock', 'a b', 'a~1', '.hidden', 'x/', 'ends.']) expect(await describeBranchNameProblem(bad), bad).toBe('is not a branch name git accepts (git check-ref-format --branch refuses it)');
    for (const good of ['plugins', 'team/plugins', 'v1.2-plugins', 'Δ-plugins']) expect(await describeBranchNameProblem(good), good).toBeUndefined();
  });
});
