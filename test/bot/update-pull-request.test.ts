/**
 * The update Action's script (bot/update-pull-request.ts, `loadout ci update-pr`): a project on a
 * bare git remote that installs `kit` 1.0.0 from a built catalogue that has 1.1.0; the real
 * `loadout outdated` and `loadout update` run on the base branch in a temporary worktree, the
 * branch `loadout/update` is pushed to the bare remote, and the pull request is opened, then
 * updated, on the fake GitHub (which checks every request against GitHub's OpenAPI description).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUpdatePullRequest, type CommandResult, type LoadoutRunner } from '../../src/bot/update-pull-request.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, git } from '../helpers/temp.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from '../install/lifecycle-fixture.js';
import { makeProjectRepository } from './project-repository.js';
import { remoteBranchHead, startGitHub } from './setup.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-update-pr-'));
  catalogue = await buildLifecycleCatalogue(folder);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the real CLI, recording each command's arguments. */
function recordingRunner(): { run: LoadoutRunner; calls: string[][] } {
  const calls: string[][] = [];
  return { calls, run: async (args, cwd): Promise<CommandResult> => (calls.push([...args]), runCli([...args], cwd)) };
}

const identity = { name: 'Loadout Bot', email: 'bot@example.org' };

describe('loadout ci update-pr', () => {
  it('opens one pull request with the update, its changelog and diffs, then updates it; the working tree is left alone', async () => {
    const { clone, remote, project } = await makeProjectRepository(catalogue.dist);
    const { fake, client } = await startGitHub(remote);
    const runner = recordingRunner();
    const options = { dir: project, remote: 'origin', base: 'main', runLoadout: runner.run, github: client, dryRun: false, identity };

    const first = await openUpdatePullRequest(options);
    expect(first).toMatchObject({ action: 'opened', branch: 'loadout/update', pr_url: `${fake.url}/octo-org/loadouts/pull/1`, errors: [], policy: null, title: 'Update kit to 1.1.0' });
    expect(first.outdated.map((r) => `${r.id} ${r.agent} ${r.installed} → ${r.latest ?? '?'}`)).toEqual(['kit claude-code 1.0.0 → 1.1.0']);
    expect(runner.calls.map((c) => c[0])).toEqual(['outdated', 'update']);
    expect(runner.calls.every((c) => c.includes('--json') && !c.includes('--policy'))).toBe(true);

    expect(fake.pulls).toHaveLength(1);
    const pull = fake.pulls[0];
    expect(pull).toMatchObject({ title: 'Update kit to 1.1.0', head: 'loadout/update', base: 'main', state: 'open' });
    const body = pull?.body ?? '';
    expect(body).toContain('| kit | claude\\-code | 1\\.0\\.0 | 1\\.1\\.0 |');
    expect(body).toContain('### kit for claude\\-code: 1\\.0\\.0 → 1\\.1\\.0');
    expect(body).toContain('- **1\\.1\\.0** (2026\\-02\\-20)\n  - Add the search server\n  - kit 1\\.1\\.0');
    expect(body).toContain('| \\.claude/skills/review/references/new\\.md | added |');
    expect(body).toContain('<details><summary>Diffs</summary>\n\n**kit for claude\\-code: AGENTS\\.md**\n\n```diff\n');
    expect(body).toContain('-Version one.\n+Version two.\n');

    // The branch is the base commit plus the update, by the bot; the lock records 1.1.0.
    const head = remoteBranchHead(remote, 'loadout/update') ?? '';
    expect(git(remote, ['rev-parse', `${head}^`]).trim()).toBe(git(remote, ['rev-parse', 'main']).trim());
    expect(git(remote, ['log', '-1', '--format=%an <%ae>%n%s', head]).trim()).toBe('Loadout Bot <bot@example.org>\nUpdate kit to 1.1.0');
    const changed = git(remote, ['diff', '--name-status', `${head}^`, head]).trim().split('\n');
    expect(changed).toEqual(expect.arrayContaining(['A\tapp/.claude/skills/review/references/new.md', 'D\tapp/.claude/rules/old.md']));
    expect(changed.every((line) => /\tapp\//u.test(line))).toBe(true);
    expect(git(remote, ['show', `${head}:app/loadout.lock.json`]).replace(/\s+/gu, ' ')).toContain('"version": "1.1.0"');
    // The user's checkout is as it was: still 1.0.0, clean, on main, no worktree left.
    expect(readFileSync(join(project, 'loadout.lock.json'), 'utf8').replace(/\s+/gu, ' ')).toContain('"version": "1.0.0"');
    expect(git(clone, ['status', '--porcelain'])).toBe('');
    expect(git(clone, ['rev-parse', '--abbrev-ref', 'HEAD']).trim()).toBe('main');
    expect(git(clone, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);

    // Run again: the same branch is pushed and the same pull request updated, not a second one opened.
    const second = await openUpdatePullRequest(options);
    expect(second).toMatchObject({ action: 'updated', pr_url: `${fake.url}/octo-org/loadouts/pull/1` });
    expect(fake.pulls).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual(['/repos/octo-org/loadouts/pulls/1']);
    expect(fake.violations).toEqual([]);
  }, 120_000);

  it('passes the project\'s policy to both commands, finds nothing to do when everything is current, and pushes nothing on a dry run', async () => {
    const { clone, remote, project } = await makeProjectRepository(catalogue.dist);
    writeFileSync(join(project, 'loadout-policy.yaml'), 'catalogues: []\n');
    commitAll(clone, 'Add a policy', '2026-11-02T10:00:00Z');
    git(clone, ['push', '-q', 'origin', 'main']);
    const { fake, client } = await startGitHub(remote);
    // A stand-in for the `loadout` that knows --policy: it says what the real outdated says when all is current.
    const calls: string[][] = [];
    const current: LoadoutRunner = (args) => (calls.push([...args]), Promise.resolve({ code: 0, stdout: '[]\n', stderr: '' }));
    const outcome = await openUpdatePullRequest({ dir: project, remote: 'origin', base: 'main', runLoadout: current, github: client, dryRun: false, identity });
    expect(outcome).toMatchObject({ action: 'current', pr_url: null, policy: 'app/loadout-policy.yaml', outdated: [] });
    expect(calls).toHaveLength(1);
    const [args = []] = calls;
    expect(args[0]).toBe('outdated');
    expect(args[args.indexOf('--policy') + 1]).toMatch(/[\\/]worktree[\\/]app[\\/]loadout-policy\.yaml$/u);
    expect(fake.requests).toEqual([]);

    // A dry run updates and commits in the worktree only.
    const { remote: remote2, project: project2 } = await makeProjectRepository(catalogue.dist);
    const dry = await openUpdatePullRequest({ dir: project2, remote: 'origin', base: 'main', runLoadout: recordingRunner().run, github: undefined, dryRun: true, identity });
    expect(dry).toMatchObject({ action: 'opened', pr_url: null, title: 'Update kit to 1.1.0' });
    expect(dry.body).toContain('Add the search server');
    expect(remoteBranchHead(remote2, 'loadout/update')).toBeUndefined();
  }, 120_000);

  it('holds the update to the project\'s policy end to end: a refused update is named with its rule and nothing is pushed; an allowed one says the policy allowed it', async () => {
    const { clone, remote, project } = await makeProjectRepository(catalogue.dist);
    // kit 1.1.0 adds the server kit-search, which this policy does not allow.
    writeFileSync(join(project, 'loadout-policy.yaml'), 'mcp:\n  packages:\n    allow: [{npm: kit-docs}]\n');
    commitAll(clone, 'Add a policy', '2026-11-02T10:00:00Z');
    git(clone, ['push', '-q', 'origin', 'main']);
    const { fake, client } = await startGitHub(remote);
    const runner = recordingRunner();
    const refused = await openUpdatePullRequest({ dir: project, remote: 'origin', base: 'main', runLoadout: runner.run, github: client, dryRun: false, identity });
    expect(refused).toMatchObject({ action: 'skipped', pr_url: null, policy: 'app/loadout-policy.yaml' });
    expect(refused.reason).toBe('the policy refuses every update: kit for claude-code: mcp.packages.allow: kit runs kit-search@1 from npm for Claude Code, which is not allowed');
    expect(runner.calls.map((c) => c[0])).toEqual(['outdated']);
    expect(remoteBranchHead(remote, 'loadout/update')).toBeUndefined();
    expect(fake.pulls).toEqual([]);

    // A policy that allows both servers: the update goes on, and the pull request says under which policy.
    writeFileSync(join(project, 'loadout-policy.yaml'), 'mcp:\n  packages:\n    allow: [{npm: "kit-*"}]\nmin_release_age: 1h\n');
    commitAll(clone, 'Allow kit-search', '2026-11-03T10:00:00Z');
    git(clone, ['push', '-q', 'origin', 'main']);
    const opened = await openUpdatePullRequest({ dir: project, remote: 'origin', base: 'main', runLoadout: recordingRunner().run, github: client, dryRun: false, identity });
    expect(opened).toMatchObject({ action: 'opened', policy: 'app/loadout-policy.yaml', title: 'Update kit to 1.1.0' });
    expect(fake.pulls[0]?.body).toContain('as the policy app/loadout\\-policy\\.yaml allows');
    expect(fake.violations).toEqual([]);
  }, 120_000);

  it('runs from the command line as the Action runs it, the commands it runs being this same CLI', async () => {
    const { remote, project } = await makeProjectRepository(catalogue.dist);
    const { fake } = await startGitHub(remote);
    const env = { GITHUB_TOKEN: fake.token, GITHUB_REPOSITORY: 'octo-org/loadouts', GITHUB_API_URL: fake.url, LOADOUT_BOT_NAME: 'Loadout Bot', LOADOUT_BOT_EMAIL: 'bot@example.org' };
    const dry = await runCli(['ci', 'update-pr', '--dir', project, '--dry-run'], project, { ...env, GITHUB_TOKEN: '' });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would open the pull request of loadout\/update\n\nUpdate kit to 1\.1\.0\n\n`loadout update` moves these installs/u);
    const run = await runCli(['ci', 'update-pr', '--dir', project, '--json'], project, env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ action: 'opened', branch: 'loadout/update', pr_url: `${fake.url}/octo-org/loadouts/pull/1`, policy: null });
    expect(remoteBranchHead(remote, 'loadout/update')).toBeDefined();
    const missing = await runCli(['ci', 'update-pr', '--dir', project], project, { ...env, GITHUB_TOKEN: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^loadout: GITHUB_TOKEN is not set/mu);
    expect(fake.violations).toEqual([]);
  }, 120_000);

  it('says which command failed and why when a loadout command prints no JSON', async () => {
    const { project } = await makeProjectRepository(catalogue.dist);
    const broken: LoadoutRunner = () => Promise.resolve({ code: 2, stdout: '', stderr: "loadout: error: unknown option '--policy'\n" });
    await expect(openUpdatePullRequest({ dir: project, remote: 'origin', base: 'main', runLoadout: broken, github: undefined, dryRun: true, identity })).rejects.toThrow(
      "loadout outdated --json ended with exit 2 without the JSON expected: loadout: error: unknown option '--policy'",
    );
  }, 60_000);
});
