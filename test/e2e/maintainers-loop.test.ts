/**
 * The maintainers' loop end to end (DESIGN.md section 1:
 * submissions → maintainers accept → bot opens a pull request → merge → build and publish),
 * with real parts only, apart from GitHub's API:
 * - `loadout serve` (its command function) on 127.0.0.1 over the built catalogue and a real
 *   SQLite file, which an agent submits to with an API key from `loadout keys create`;
 * - a catalogue checkout in a temporary folder whose `origin` is a real bare repository;
 * - the fake GitHub of test/bot/fake-github.ts, which checks every request against
 *   `@octokit/openapi` and knows the bare repository's branches;
 * - s3rver on 127.0.0.1 as the object store, read back with `@aws-sdk/client-s3`.
 * Maintainer steps run as command functions in-process (as the other tests do), and
 * `submissions accept`, the second `submissions pr` and the first `publish` through the real
 * CLI in a child process, as a maintainer or a workflow would run them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { keysCreateCommand } from '../../src/cli/commands/keys.js';
import { buildCommand } from '../../src/cli/commands/build.js';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { submissionsPrCommand, submissionsSyncCommand } from '../../src/cli/commands/submissions.js';
import { resolveConfig } from '../../src/cli/config.js';
import { publishTree } from '../../src/publish/publish.js';
import { PUBLISHED_ID, makeCatalogueRepository, startGitHub } from '../bot/setup.js';
import { runCli } from '../helpers/cli.js';
import { startS3Server } from '../helpers/s3-server.js';
import { git, makeTempDir } from '../helpers/temp.js';
import { readTreeBytes, recording, s3Store } from '../publish/fixture.js';
import { bearer, validBody } from '../submissions/harness.js';

const BASE_URL = 'https://loadouts.example';
const BUCKET = 'catalogue';
const LOADOUT = 'rust-cli-helpers';
const BRANCH = `submission/${LOADOUT}`;
const TITLE = `Add ${LOADOUT} 1.0.0`;
// s3rver's one account, through the AWS SDK's standard variables, as CI sets them.
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/** A `Write` that keeps what it was given. */
function capture(): { write: (text: string) => void; text: () => string } {
  let text = '';
  return { write: (t) => void (text += t), text: () => text };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('the maintainers loop, end to end', () => {
  it('takes an agent submission through accept, pull request, merge, sync, build and publish to a record in the bucket', async () => {
    // ---- The catalogue as it is live: one published loadout, built and served. ----
    const repo = makeCatalogueRepository();
    const dist = join(repo.root, 'dist');
    const databaseUrl = `sqlite:${join(makeTempDir('loadout-e2e-db-'), 'catalogue.db')}`;
    const elsewhere = makeTempDir('loadout-e2e-cwd-');
    const build = async (): Promise<string> => {
      const [out, err] = [capture(), capture()];
      const code = await buildCommand({ root: repo.root, out: dist, baseUrl: BASE_URL, progress: false, clean: false }, out.write, err.write);
      expect(code, err.text()).toBe(0);
      return out.text();
    };
    expect(await build()).toMatch(/^built 1 loadouts /u);

    const key = capture();
    expect(await keysCreateCommand({ databaseUrl, name: 'e2e agent' }, key.write)).toBe(0);
    const apiKey = key.text().split('\n')[0] ?? '';
    expect(apiKey).toMatch(/^lk_[0-9a-f]{12}_/u);

    const config = resolveConfig({ DATABASE_URL: databaseUrl, LOADOUT_BASE_URL: BASE_URL, FORM_TOKEN_SECRET: 'e2e-form-token-secret-0123456789abcdef' });
    const server = await serveCommand({ out: dist, port: 0, host: '127.0.0.1', config }, () => undefined);
    onTestFinished(() => server.close());
    const statusOf = async (id: string): Promise<Record<string, unknown>> => {
      const response = await fetch(`${server.url}/api/v1/submissions/${id}`);
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };

    const { fake } = await startGitHub(repo.remote);
    const botEnv = { GITHUB_TOKEN: fake.token, GITHUB_REPOSITORY: `${fake.owner}/${fake.repo}`, GITHUB_API_URL: fake.url, LOADOUT_BOT_NAME: 'Loadout Bot', LOADOUT_BOT_EMAIL: 'bot@loadouts.example' };
    const pr = async (ids: string[]): Promise<unknown> => {
      const [out, err] = [capture(), capture()];
      const code = await submissionsPrCommand({ databaseUrl, root: repo.root, ids, remote: 'origin', base: 'main', dryRun: false, json: true, env: botEnv }, out.write, err.write);
      expect(code, err.text()).toBe(0);
      expect(err.text()).toBe('');
      return JSON.parse(out.text());
    };

    // ---- An agent submits with its API key over HTTP. ----
    const body = validBody();
    const files = body['files'] as { path: string; content: string }[];
    const agentsMd = files.find((f) => f.path === 'AGENTS.md')?.content ?? '';
    const submitted = await fetch(`${server.url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(apiKey) }, body: JSON.stringify(body) });
    expect(submitted.status).toBe(202);
    const receipt = (await submitted.json()) as { id: string; status: string; loadout_id: string; status_url: string };
    expect(receipt).toMatchObject({ status: 'pending-review', loadout_id: LOADOUT, status_url: `${BASE_URL}/api/v1/submissions/${receipt.id}` });
    const id = receipt.id;
    expect(await statusOf(id)).toMatchObject({ status: 'pending-review', pr_url: null });

    // ---- A maintainer accepts it (the real CLI). ----
    const accepted = await runCli(['submissions', 'accept', id, '--by', 'ada'], elsewhere, { DATABASE_URL: databaseUrl });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toBe(`${id}: accepted\n`);
    expect(await statusOf(id)).toMatchObject({ status: 'accepted', pr_url: null });

    // ---- The bot opens the pull request. ----
    const mainBefore = repo.remoteGit(['rev-parse', 'main']).trim();
    const checkoutBefore = { status: repo.git(['status', '--porcelain=v1', '--branch']), head: repo.git(['rev-parse', 'HEAD']), branches: repo.git(['branch', '--list']) };
    const prUrl = `${fake.url}/${fake.owner}/${fake.repo}/pull/1`;
    expect(await pr([])).toEqual([{ submission: id, loadout_id: LOADOUT, branch: BRANCH, pr_url: prUrl, action: 'opened' }]);

    // The branch on the bare remote: one commit on main holding exactly the submitted loadout.
    expect(repo.remoteGit(['rev-parse', `${BRANCH}^`]).trim()).toBe(mainBefore);
    const pushed = repo.remoteGit(['ls-tree', '-r', '--name-only', BRANCH, '--', `loadouts/${LOADOUT}`]).trim().split('\n');
    expect(pushed).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'loadout.yaml', 'rules/errors.md'].map((p) => `loadouts/${LOADOUT}/${p}`));
    for (const file of files) expect(repo.remoteGit(['show', `${BRANCH}:loadouts/${LOADOUT}/${file.path}`])).toBe(file.content);
    expect(repo.remoteGit(['show', `${BRANCH}:loadouts/${LOADOUT}/loadout.yaml`])).toMatch(/^version: 1\.0\.0$/mu);
    expect(repo.remoteGit(['diff', '--name-only', 'main', BRANCH]).trim().split('\n').every((p) => p.startsWith(`loadouts/${LOADOUT}/`))).toBe(true);
    expect(repo.remoteGit(['log', '-1', '--format=%s|%an <%ae>|%(trailers)', BRANCH]).trim()).toBe(`${TITLE}|Loadout Bot <bot@loadouts.example>|Co-authored-by: Ada Lovelace <ada@users.noreply.github.com>`);
    // The maintainer's checkout is as it was: the bot works in a temporary worktree.
    expect({ status: repo.git(['status', '--porcelain=v1', '--branch']), head: repo.git(['rev-parse', 'HEAD']), branches: repo.git(['branch', '--list']) }).toEqual(checkoutBefore);

    // The pull request on the fake GitHub, and the status document.
    expect(fake.pulls).toEqual([expect.objectContaining({ number: 1, title: TITLE, head: BRANCH, base: 'main', state: 'open', merged: false, labels: ['submission'] })]);
    expect(fake.pulls[0]?.body).toContain(id);
    expect(await statusOf(id)).toMatchObject({ id, loadout_id: LOADOUT, status: 'pr-opened', pr_url: prUrl });

    // ---- pr again before the merge: nothing accepted is left, and naming the submission (the real
    // CLI) force-pushes and updates the same pull request; never a second one. ----
    expect(await pr([])).toEqual([]);
    const again = await runCli(['--root', repo.root, 'submissions', 'pr', id, '--json'], elsewhere, { DATABASE_URL: databaseUrl, ...botEnv });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([{ submission: id, loadout_id: LOADOUT, branch: BRANCH, pr_url: prUrl, action: 'updated' }]);
    expect(fake.pulls).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/pulls'))).toHaveLength(1);
    expect(repo.remoteGit(['rev-parse', `${BRANCH}^`]).trim()).toBe(mainBefore);
    expect(await statusOf(id)).toMatchObject({ status: 'pr-opened', pr_url: prUrl });
    // Nor can the agent replace the submission under its open pull request.
    const replacing = await fetch(`${server.url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(apiKey) }, body: JSON.stringify({ ...body, summary: 'A replacement sent while the pull request is open.' }) });
    expect(replacing.status).toBe(409);
    expect(await replacing.json()).toMatchObject({ code: 'id_taken', detail: expect.stringContaining(`your submission ${id} for "${LOADOUT}" is already pr-opened`) as unknown });

    // ---- The pull request is merged on the remote: a real merge pushed to main, and GitHub says so. ----
    const clone = join(makeTempDir('loadout-e2e-merge-'), 'clone');
    git(repo.root, ['clone', '-q', repo.remote, clone]);
    git(clone, ['merge', '-q', '--no-ff', '-m', `Merge pull request #1 from ${fake.owner}/${BRANCH}`, `origin/${BRANCH}`]);
    git(clone, ['push', '-q', 'origin', 'main']);
    expect(repo.remoteGit(['ls-tree', '--name-only', 'main', 'loadouts/']).trim().split('\n')).toEqual([`loadouts/${PUBLISHED_ID}`, `loadouts/${LOADOUT}`]);
    fake.merge(1);

    // ---- sync records it. ----
    const [syncOut, syncErr] = [capture(), capture()];
    expect(await submissionsSyncCommand({ databaseUrl, ids: [], json: true, env: botEnv }, syncOut.write, syncErr.write)).toBe(0);
    expect(syncErr.text()).toBe('');
    expect(JSON.parse(syncOut.text())).toEqual([{ submission: id, loadout_id: LOADOUT, pr_url: prUrl, pull_request: 'merged', status: 'merged', changed: true }]);
    expect(await statusOf(id)).toMatchObject({ status: 'merged', pr_url: prUrl });

    // ---- The checkout pulls main and builds (as publish.yml does on a push to main). ----
    repo.git(['pull', '-q', '--ff-only', 'origin', 'main']);
    // Whether published-one is carried over is the build tests' concern: the builder's fingerprint
    // covers src/, so it is rebuilt whenever the code changed between the two builds.
    expect(await build()).toMatch(/^built 2 loadouts \(2 versions[,)]/u);
    const recordPath = `api/loadouts/${LOADOUT}.json`;
    const builtRecord = readFileSync(join(dist, recordPath));
    const record = JSON.parse(builtRecord.toString('utf8')) as { id: string; version: string; files: { path: string; sha256: string }[] };
    expect(record).toMatchObject({ id: LOADOUT, version: '1.0.0' });
    expect(record.files.find((f) => f.path === 'AGENTS.md')?.sha256).toBe(sha256(Buffer.from(agentsMd)));

    // ---- publish (the real CLI) to s3rver, then read the record and a raw file back. ----
    const s3 = await startS3Server([BUCKET]);
    const tree = readTreeBytes(dist);
    const published = await runCli(['publish', '--out', dist, '--bucket', BUCKET, '--endpoint', s3.endpoint, '--force-path-style', '--json'], repo.root, AWS_ENV);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout)).toEqual({ uploaded: tree.size, unchanged: 0, deleted: 0, bytes_uploaded: [...tree.values()].reduce((n, b) => n + b.byteLength, 0) });
    const keys = await s3.listKeys(BUCKET);
    expect(keys).toEqual(['.loadout-publish.json', ...tree.keys()].sort());

    const stored = await s3.read(BUCKET, recordPath);
    expect(stored.body.equals(builtRecord)).toBe(true);
    expect(stored.contentType).toBe('application/json; charset=utf-8');
    for (const [version, cacheControl] of [['latest', 'public, max-age=60, must-revalidate'], ['1.0.0', 'public, max-age=31536000, immutable']] as const) {
      const raw = await s3.read(BUCKET, `raw/${LOADOUT}/${version}/AGENTS.md`);
      expect(raw.body.toString('utf8'), version).toBe(agentsMd);
      expect(raw.contentType, version).toBe('text/plain; charset=utf-8');
      expect(raw.cacheControl, version).toBe(cacheControl);
    }
    // Every file the record lists is in the bucket with the bytes it promises, and the catalogue lists it.
    for (const file of record.files) expect(sha256((await s3.read(BUCKET, `raw/${LOADOUT}/1.0.0/${file.path}`)).body), file.path).toBe(file.sha256);
    const list = JSON.parse((await s3.read(BUCKET, 'api/loadouts.json')).body.toString('utf8')) as { total: number; loadouts: { id: string; version: string }[] };
    expect(list.loadouts.map((l) => [l.id, l.version])).toEqual([[PUBLISHED_ID, '1.0.0'], [LOADOUT, '1.0.0']]);

    // ---- A second publish of the same tree uploads nothing, not even the manifest. ----
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));
    const second = await publishTree({ out: dist, store, prefix: '', delete: false, dryRun: false, concurrency: 4 });
    expect(second.counts).toEqual({ uploaded: 0, unchanged: tree.size, deleted: 0, bytes_uploaded: 0 });
    expect(events).toEqual([]);
    expect(await s3.listKeys(BUCKET)).toEqual(keys);

    // ---- The loop is closed: the live catalogue publishes the id, so the API refuses it now. ----
    const resubmitted = await fetch(`${server.url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(apiKey) }, body: JSON.stringify(body) });
    expect(resubmitted.status).toBe(409);
    expect(await resubmitted.json()).toMatchObject({ code: 'id_taken' });
    expect(fake.violations).toEqual([]);
  }, 60_000);
});
