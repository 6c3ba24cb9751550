/**
 * Real parts for the bot's tests: a catalogue repository cloned from a bare repository in a
 * temporary folder (the remote), a real SQLite database with submissions, and the fake GitHub
 * wired to the bare repository so that a pull request's head branch must really exist.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitHubClient, type GitHubClient } from '../../src/bot/github-client.js';
import type { Database } from '../../src/storage/database.js';
import { createStores } from '../../src/storage/stores.js';
import type { StoredSubmission, SubmissionFile, SubmissionStore } from '../../src/storage/submission-store.js';
import { deriveLoadout } from '../../src/submissions/derive.js';
import { transitionSubmission } from '../../src/submissions/transitions.js';
import { validateSubmission } from '../../src/submissions/validate.js';
import { commitAll, git, makeTempDir } from '../helpers/temp.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { openTestDatabase } from '../storage/databases.js';
import { validBody } from '../submissions/harness.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

/** A catalogue checkout and its remote. */
export interface CatalogueRepository {
  /** The maintainer's working tree (the `--root`), on branch main, with `origin`. */
  root: string;
  /** The bare repository that `origin` points at. */
  remote: string;
  /** Runs git in the working tree. */
  git(args: string[]): string;
  /** Runs git in the bare remote. */
  remoteGit(args: string[]): string;
}

/** A published loadout that the catalogue already has. */
export const PUBLISHED_ID = 'published-one';

/**
 * A bare remote with `main` holding a README, `.gitignore` (with `dist/`, as the catalogue's)
 * and one published loadout, and a clone of it whose git identity is "Maintainer Person".
 */
export function makeCatalogueRepository(): CatalogueRepository {
  const dir = makeTempDir('loadout-bot-');
  const remote = join(dir, 'remote.git');
  const seed = join(dir, 'seed');
  const root = join(dir, 'catalogue');
  mkdirSync(remote);
  git(remote, ['init', '-q', '--bare', '-b', 'main']);
  mkdirSync(seed);
  git(seed, ['init', '-q', '-b', 'main']);
  writeFileSync(join(seed, 'README.md'), '# A catalogue\n');
  writeFileSync(join(seed, '.gitignore'), 'dist/\nnode_modules/\n');
  writeLoadout(seed, { id: PUBLISHED_ID });
  commitAll(seed, 'Seed the catalogue', '2026-11-01T10:00:00Z');
  git(seed, ['push', '-q', remote, 'main']);
  git(dir, ['clone', '-q', remote, root]);
  git(root, ['config', 'user.name', 'Maintainer Person']);
  git(root, ['config', 'user.email', 'maintainer@example.org']);
  return { root, remote, git: (args) => git(root, args), remoteGit: (args) => git(remote, args) };
}

/** The commit of `branch` in the bare remote, or undefined when it has no such branch. */
export function remoteBranchHead(remote: string, branch: string): string | undefined {
  try {
    return git(remote, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).trim();
  } catch {
    return undefined;
  }
}

/** A fake GitHub that knows the remote's branches (any branch exists without one), and a client for it. */
export async function startGitHub(remote?: string): Promise<{ fake: FakeGitHub; client: GitHubClient }> {
  const fake = await startFakeGitHub(remote === undefined ? {} : { branchHead: (branch) => remoteBranchHead(remote, branch) });
  const client = createGitHubClient({ token: fake.token, owner: fake.owner, repo: fake.repo, apiUrl: fake.url });
  return { fake, client };
}

/** A fresh SQLite database and its submission store. */
export async function openStore(): Promise<{ database: Database; store: SubmissionStore }> {
  const database = await openTestDatabase('sqlite');
  return { database, store: createStores(database).submissions };
}

let counter = 0;

/**
 * Stores a submission the way the API would (validated, derived by src/submissions/derive.ts)
 * and has a maintainer accept it. `overrides` change fields of the harness's valid body.
 */
export async function acceptedSubmission(store: SubmissionStore, overrides: Record<string, unknown> = {}): Promise<StoredSubmission> {
  const validated = validateSubmission(validBody(overrides));
  if (!validated.ok) throw new Error(`test body is invalid: ${JSON.stringify(validated.errors)}`);
  const derived = deriveLoadout(validated.submission, '2026-11-22');
  const { files: _files, contact_email: _email, ...request } = validated.submission;
  const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
  await store.create(
    { id, loadoutId: validated.submission.id, status: 'pending-review', submitter: 'key:test', contactEmail: 'ada@example.org', clientAddress: '127.0.0.1', request, manifest: derived.manifestText, verification: {}, createdAt: '2026-11-22T10:00:00.000Z', files: derived.files },
    'key:test',
  );
  const accepted = await transitionSubmission(store, id, 'accepted', { actor: 'maintainer:ada', at: '2026-11-22T11:00:00.000Z', note: 'Looks good.' });
  if (!accepted.ok) throw new Error(accepted.message);
  return accepted.submission;
}

/**
 * Inserts a row directly, as an older version or another tool might have left it: status
 * `accepted`, the manifest and files as given. Nothing is validated.
 */
export async function insertRow(store: SubmissionStore, loadoutId: string, manifest: string, files: SubmissionFile[], status = 'accepted'): Promise<string> {
  const id = `00000000-0000-4000-9000-${String(++counter).padStart(12, '0')}`;
  await store.create({ id, loadoutId, status, submitter: 'key:old', contactEmail: null, clientAddress: '127.0.0.1', request: { name: loadoutId }, manifest, verification: {}, createdAt: '2026-11-20T10:00:00.000Z', files }, 'key:old');
  return id;
}
