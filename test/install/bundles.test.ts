/**
 * Bundles installed as one (issue 56, point 3), against catalogues built from a real git
 * repository and served on 127.0.0.1 by the app `loadout serve` runs.
 *
 * Catalogue 1 (history in `writeFirst`): nextjs-app-router 1.0.0 and 1.1.0, secure-code-review
 * 1.0.0, github-actions-ci 1.0.0 and 2.0.0, dbt-analytics 1.0.0; web-team-stack 1.0.0
 * (nextjs-app-router ^1.0, secure-code-review ~1.0.0, github-actions-ci ~1.0.0) and
 * data-team-stack 1.0.0 (dbt-analytics ^1, github-actions-ci ^2.0).
 * Catalogue 2 (the same repository, more commits): secure-code-review 1.0.1 (within ~1.0.0),
 * nextjs-app-router 2.0.0, web-team-stack 1.1.0 (nextjs-app-router ^2.0, secure-code-review
 * ~1.0.0, dbt-analytics ^1; github-actions-ci dropped).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { installLoadouts, type InstallPreview } from '../../src/install/install.js';
import { parsePolicy } from '../../src/policy/parse.js';
import type { PolicyInForce } from '../../src/policy/policy.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { listOutdated, listOutdatedBundles } from '../../src/install/outdated.js';
import { readStatus } from '../../src/install/status.js';
import { ConsumerError } from '../../src/install/errors.js';
import { BUNDLE_SPECS, bumpLoadout, bundleManifest, writeBundle } from '../helpers/bundle-catalogue.js';
import { buildSpecCatalogue, type SpecCatalogue } from '../helpers/spec-catalogue.js';
import { commitAll } from '../helpers/temp.js';
import { makeProject } from './hostile-fixture.js';
import { runCli } from '../helpers/cli.js';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';

const BASE = 'http://catalogue.test';

/** The first catalogue's history, after the specs' two commits. */
export function writeFirst(root: string): void {
  bumpLoadout(root, 'github-actions-ci', '2.0.0');
  commitAll(root, 'github-actions-ci 2.0.0', '2026-02-10T10:00:00Z');
  writeBundle(root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.0.0', [['nextjs-app-router', '^1.0'], ['secure-code-review', '~1.0.0'], ['github-actions-ci', '~1.0.0']]));
  writeBundle(root, 'data-team-stack', bundleManifest('data-team-stack', 'Data Team Stack', '1.0.0', [['dbt-analytics', '^1'], ['github-actions-ci', '^2.0']]));
  commitAll(root, 'web-team-stack and data-team-stack 1.0.0', '2026-03-01T10:00:00Z');
}

/** The second catalogue's commits. */
export function writeSecond(root: string): void {
  bumpLoadout(root, 'secure-code-review', '1.0.1');
  commitAll(root, 'secure-code-review 1.0.1', '2026-04-01T10:00:00Z');
  bumpLoadout(root, 'nextjs-app-router', '2.0.0');
  commitAll(root, 'nextjs-app-router 2.0.0', '2026-04-02T10:00:00Z');
  writeBundle(root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.1.0', [['nextjs-app-router', '^2.0'], ['secure-code-review', '~1.0.0'], ['dbt-analytics', '^1']]));
  commitAll(root, 'web-team-stack 1.1.0', '2026-04-03T10:00:00Z');
}

let first: SpecCatalogue;
let url1: string;
let url2: string;
beforeAll(async () => {
  first = await buildSpecCatalogue(BUNDLE_SPECS, { prefix: 'loadout-bundle-install-', baseUrl: BASE, beforeBuild: writeFirst });
  writeSecond(first.root);
  const result = await buildCatalogue({ root: first.root, out: join(first.root, 'dist2'), baseUrl: BASE, now: new Date('2026-11-22T00:00:00Z') });
  if (!result.written) throw new Error(`second build refused: ${JSON.stringify(result.bundleDiagnostics)} ${result.refused.join(', ')}`);
}, 240_000);
afterAll(() => first?.remove());

const servers: { close(): Promise<void> | void }[] = [];
beforeAll(async () => {
  const serve = async (dist: string): Promise<string> => {
    const server = await listen(createApp({ distDir: dist, baseUrl: BASE, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
    servers.push(server);
    return server.url;
  };
  url1 = await serve(first.dist);
  url2 = await serve(join(first.root, 'dist2'));
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** Every file of `dir` but `.git`, path → sha256 of its bytes: the project's bytes. */
function snapshot(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const path of readdirSync(dir, { recursive: true }) as string[]) {
    if (path === '.git' || path.startsWith('.git/')) continue;
    const full = join(dir, path);
    found[path] = statSync(full).isDirectory() ? 'folder' : createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return found;
}

const lockOf = (project: string): LockFile => JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;
const versionsOf = (project: string): Record<string, string> => Object.fromEntries(lockOf(project).installs.map((e) => [`${e.id} ${e.agent}`, e.version]));

describe('bundles installed as one', () => {

  it('installs every member at the newest version in its range, in one lock write that records the bundle', async () => {
    const project = makeProject();
    const outcomes = await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true });
    expect(outcomes.map((o) => `${o.id} ${o.version}`).sort()).toEqual(['github-actions-ci 1.0.0', 'nextjs-app-router 1.1.0', 'secure-code-review 1.0.0']);
    expect(outcomes.every((o) => o.installed && o.bundle?.id === 'web-team-stack')).toBe(true);
    const lock = lockOf(project);
    expect(lock.bundles).toEqual([{ id: 'web-team-stack', version: '1.0.0', source: url1, agents: ['claude-code'], members: [{ id: 'nextjs-app-router', range: '^1.0', agents: ['claude-code'] }, { id: 'secure-code-review', range: '~1.0.0', agents: ['claude-code'] }, { id: 'github-actions-ci', range: '~1.0.0', agents: ['claude-code'] }] }]);
    expect(lock.installs.every((e) => JSON.stringify(e.requested_by) === '["bundle:web-team-stack"]')).toBe(true);
    const status = await readStatus(projectScope(project));
    expect(status.ok).toBe(true);
    expect(status.bundles[0]?.members.map((m) => `${m.id} ${m.installed.map((i) => `${i.version}${i.in_range ? '' : '!'}`).join()}`)).toEqual(['nextjs-app-router 1.1.0', 'secure-code-review 1.0.0', 'github-actions-ci 1.0.0']);
  });

  it('refuses two bundles whose ranges do not meet before any write, naming both', async () => {
    const project = makeProject();
    await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true });
    const before = snapshot(project);
    const refusal = await installLoadouts({ from: url1, id: 'data-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConsumerError);
    expect((refusal as ConsumerError).name).toBe('BundleConflict');
    expect((refusal as Error).message).toContain('bundle web-team-stack 1.0.0 asks for ~1.0.0');
    expect((refusal as Error).message).toContain('bundle data-team-stack 1.0.0');
    expect((refusal as Error).message).toContain('^2.0');
    expect(snapshot(project)).toEqual(before);
  });

  it('refuses a member installed out of the range before any write, naming both', async () => {
    const project = makeProject();
    await installLoadouts({ from: url1, id: 'github-actions-ci', agents: ['claude-code'], dir: project });
    const before = snapshot(project);
    const refusal = await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true }).catch((e: unknown) => e);
    expect((refusal as ConsumerError).name).toBe('BundleConflict');
    expect((refusal as Error).message).toContain('github-actions-ci is installed at 2.0.0 for claude-code (installed on its own) and bundle web-team-stack 1.0.0 asks for ~1.0.0');
    expect(snapshot(project)).toEqual(before);
  });

  it('keeps a member the user installed on their own, refuses a member alone, and gives the project back byte for byte', async () => {
    const project = makeProject();
    writeFileSync(join(project, 'AGENTS.md'), '# Our project\n\nKeep this.\n');
    const pristine = snapshot(project);
    await installLoadouts({ from: url1, id: 'secure-code-review', agents: ['claude-code', 'cursor'], dir: project });
    await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code', 'cursor'], dir: project, acceptCapabilities: true });
    expect(lockOf(project).installs.find((e) => e.id === 'secure-code-review')?.requested_by).toEqual(['bundle:web-team-stack', 'user']);
    const alone = await uninstallLoadout({ scope: projectScope(project), id: 'github-actions-ci' }).catch((e: unknown) => e);
    expect((alone as ConsumerError).name).toBe('BundleMember');
    expect((alone as Error).message).toContain('bundle web-team-stack');
    const outcome = await uninstallLoadout({ scope: projectScope(project), id: 'web-team-stack' });
    expect(outcome.removed.map((r) => r.id).sort()).toEqual(['github-actions-ci', 'github-actions-ci', 'nextjs-app-router', 'nextjs-app-router']);
    expect(outcome.stayed?.map((s) => `${s.id} ${s.agent}`)).toEqual(['secure-code-review claude-code', 'secure-code-review cursor']);
    const lock = lockOf(project);
    expect(lock.bundles).toBeUndefined();
    expect(lock.installs.map((e) => [e.id, e.requested_by])).toEqual([['secure-code-review', undefined], ['secure-code-review', undefined]]);
    await uninstallLoadout({ scope: projectScope(project), id: 'secure-code-review' });
    expect(snapshot(project)).toEqual(pristine);
  });

  it('lists and makes updates within the ranges and across them, in one transaction', async () => {
    const project = makeProject();
    await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true });
    const scope = projectScope(project);
    const rows = await listOutdated({ scope, from: url2 });
    expect(rows.map((r) => `${r.id} ${r.installed} ${r.wanted} ${r.latest}`).sort()).toEqual(['github-actions-ci 1.0.0 1.0.0 2.0.0', 'nextjs-app-router 1.1.0 1.1.0 2.0.0', 'secure-code-review 1.0.0 1.0.1 1.0.1']);
    expect(await listOutdatedBundles({ scope, from: url2 })).toMatchObject([{ id: 'web-team-stack', installed: '1.0.0', latest: '1.1.0', outdated: true }]);
    // Within the range: a member named alone moves as far as the installed bundle's range allows; the bundle stays.
    const within = await updateLoadouts({ scope, ids: ['secure-code-review', 'nextjs-app-router'], from: url2, acceptCapabilities: true });
    expect(within.updates.map((u) => `${u.id} ${u.from} ${u.to}`)).toEqual(['secure-code-review 1.0.0 1.0.1']);
    expect(within.current.map((c) => `${c.id} ${c.version}`)).toEqual(['nextjs-app-router 1.1.0']);
    expect(lockOf(project).bundles?.[0]?.version).toBe('1.0.0');
    expect(lockOf(project).installs.find((e) => e.id === 'secure-code-review')?.requested_by).toEqual(['bundle:web-team-stack']);
    // Across: the bundle moves to 1.1.0, its members to its new ranges; one added, one dropped.
    const outcome = await updateLoadouts({ scope, ids: [], from: url2, acceptCapabilities: true });
    expect(outcome.written).toBe(true);
    expect(outcome.bundles).toEqual([{ id: 'web-team-stack', from: '1.0.0', to: '1.1.0' }]);
    expect(outcome.updates.map((u) => `${u.id} ${u.from} ${u.to}`).sort()).toEqual(['nextjs-app-router 1.1.0 2.0.0']);
    expect(outcome.added.map((a) => `${a.id} ${a.version}`)).toEqual(['dbt-analytics 1.0.0']);
    expect(outcome.removed.map((r) => `${r.id} ${r.version}`)).toEqual(['github-actions-ci 1.0.0']);
    expect(versionsOf(project)).toEqual({ 'dbt-analytics claude-code': '1.0.0', 'nextjs-app-router claude-code': '2.0.0', 'secure-code-review claude-code': '1.0.1' });
    expect(lockOf(project).bundles?.[0]?.version).toBe('1.1.0');
    expect((await readStatus(scope)).ok).toBe(true);
  });
});

describe('bundles through the CLI', () => {
  it('installs, shows grouped, lists outdated, refuses a member alone and uninstalls a bundle', async () => {
    const project = makeProject();
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli([...args, '--dir', project], project);
    const installed = await cli('install', 'web-team-stack', '--agent', 'claude-code', '--from', first.dist, '--accept-capabilities');
    expect(installed.stderr).not.toContain('error');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('installed bundle web-team-stack 1.0.0: ');
    const status = await cli('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^bundle web-team-stack 1\.0\.0 for claude-code:\n {2}nextjs-app-router \^1\.0: 1\.1\.0 for claude-code\n {4}nextjs-app-router 1\.1\.0 for claude-code:\n/u);
    const json = JSON.parse((await cli('status', '--json')).stdout) as { bundles: { id: string; members: { id: string }[] }[] };
    expect(json.bundles.map((b) => [b.id, b.members.map((m) => m.id)])).toEqual([['web-team-stack', ['nextjs-app-router', 'secure-code-review', 'github-actions-ci']]]);
    const outdated = await cli('outdated', '--from', join(first.root, 'dist2'));
    expect(outdated.code).toBe(1);
    expect(outdated.stdout).toContain('secure-code-review (web-team-stack ~1.0.0)');
    expect(outdated.stdout).toContain('bundle web-team-stack 1.0.0 → 1.1.0');
    const alone = await cli('uninstall', 'github-actions-ci', '--json');
    expect(alone.code).toBe(2);
    expect((JSON.parse(alone.stdout) as { error: { name: string; message: string } }).error).toMatchObject({ name: 'BundleMember', message: expect.stringContaining('bundle web-team-stack') as unknown });
    const gone = await cli('uninstall', 'web-team-stack');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('uninstalled bundle web-team-stack 1.0.0');
    expect(gone.stdout).toContain('removed   the lock file');
  }, 120_000);
});

describe('a bundle under the rules of single installs', () => {
  const policyOf = (yaml: string): PolicyInForce => {
    const parsed = parsePolicy(yaml);
    if (!parsed.ok) throw new Error(`test policy does not read: ${JSON.stringify(parsed.problems)}`);
    return { policy: parsed.policy, where: 'loadout-policy.yaml', signedBy: null, now: new Date('2026-11-22T00:00:00Z') };
  };

  it('judges each member by the policy before anything is written, and a bundle id is not a loadout the policy lists', async () => {
    const project = makeProject();
    const before = snapshot(project);
    const refusal = await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true, policy: policyOf('loadouts: {deny: [github-actions-ci]}') }).catch((e: unknown) => e);
    expect((refusal as ConsumerError).name).toBe('PolicyRefused');
    expect((refusal as Error).message).toContain('github-actions-ci');
    expect(snapshot(project)).toEqual(before);
    // An allow-list of the members installs the bundle: its own id is judged as no loadout.
    const outcomes = await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code'], dir: project, acceptCapabilities: true, policy: policyOf('loadouts: {allow: [nextjs-app-router, secure-code-review, github-actions-ci]}') });
    expect(outcomes.every((o) => o.installed)).toBe(true);
  });

  it('shows what every member can run in one preview, before anything is written', async () => {
    const project = makeProject();
    const previews: InstallPreview[] = [];
    await installLoadouts({ from: url1, id: 'web-team-stack', agents: ['claude-code', 'cursor'], dir: project, confirm: async (p) => (previews.push(p), Promise.resolve(true)) });
    expect(previews).toHaveLength(1);
    expect(previews[0]).toMatchObject({ id: 'web-team-stack', version: '1.0.0', bundle: true });
    expect(previews[0]?.agents.map((a) => `${a.loadout ?? ''} ${a.agent}`)).toEqual(['nextjs-app-router claude-code', 'nextjs-app-router cursor', 'secure-code-review claude-code', 'secure-code-review cursor', 'github-actions-ci claude-code', 'github-actions-ci cursor']);
  });
});
