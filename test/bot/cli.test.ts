/**
 * `loadout submissions pr` and `loadout submissions sync` through the real CLI entry point, with
 * the configuration in the environment as a workflow would set it. Each run starts Node with
 * tsx (about two seconds), hence the longer timeout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations.js';
import { createStores } from '../../src/storage/stores.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { acceptedSubmission, makeCatalogueRepository, startGitHub } from './setup.js';

describe('submissions pr and sync on the command line', () => {
  it('opens the pull request, syncs its merge, and refuses an illegal move', async () => {
    const repo = makeCatalogueRepository();
    const { fake } = await startGitHub(repo.remote);
    const databaseUrl = `sqlite:${join(makeTempDir(), 'catalogue.db')}`;
    const database = openDatabase(databaseUrl);
    let id: string;
    try {
      await migrateToLatest(database.db);
      id = (await acceptedSubmission(createStores(database).submissions)).id;
    } finally {
      await database.close();
    }
    const cwd = makeTempDir();
    const env = { DATABASE_URL: databaseUrl, GITHUB_TOKEN: fake.token, GITHUB_REPOSITORY: 'octo-org/loadouts', GITHUB_API_URL: fake.url, LOADOUT_BOT_NAME: 'Loadout Bot', LOADOUT_BOT_EMAIL: 'bot@loadouts.example' };

    const missing = await runCli(['--root', repo.root, 'submissions', 'pr'], cwd, { ...env, GITHUB_TOKEN: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^loadout: GITHUB_TOKEN is not set/mu);
    const dry = await runCli(['--root', repo.root, 'submissions', 'pr', '--dry-run'], cwd, { ...env, GITHUB_TOKEN: '' });
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toBe(`${id}  rust-cli-helpers  would open\n`);

    const pr = await runCli(['--root', repo.root, 'submissions', 'pr', '--json'], cwd, env);
    expect(pr.code, pr.stderr).toBe(0);
    const prUrl = `${fake.url}/octo-org/loadouts/pull/1`;
    expect(JSON.parse(pr.stdout)).toEqual([{ submission: id, loadout_id: 'rust-cli-helpers', branch: 'submission/rust-cli-helpers', pr_url: prUrl, action: 'opened' }]);
    expect(repo.remoteGit(['log', '-1', '--format=%an', 'submission/rust-cli-helpers']).trim()).toBe('Loadout Bot');

    fake.merge(1);
    const sync = await runCli(['submissions', 'sync', '--json'], cwd, env);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toEqual([{ submission: id, loadout_id: 'rust-cli-helpers', pr_url: prUrl, pull_request: 'merged', status: 'merged', changed: true }]);

    const illegal = await runCli(['submissions', 'sync', id], cwd, env);
    expect(illegal.code).toBe(1);
    expect(illegal.stderr).toBe(`loadout: submission ${id} is merged (expected pr-opened to become merged or closed)\n`);
    const after = openDatabase(databaseUrl);
    try {
      const events = await createStores(after).submissions.events(id);
      expect(events.map((e) => `${e.to} by ${e.actor}`)).toEqual(['pending-review by key:test', 'accepted by maintainer:ada', 'pr-opened by bot', 'merged by bot']);
    } finally {
      await after.close();
    }
    expect(fake.violations).toEqual([]);
  }, 90_000);
});
