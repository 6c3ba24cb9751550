/**
 * The policy held by `install`, `update`, `outdated` and `status` (issue 55, point 2), against a
 * catalogue served by `loadout serve`'s app on 127.0.0.1 whose versions come from a real git
 * repository (test/policy/policy-fixture.ts). Every rule is tried on every command twice: with a
 * policy that refuses `kit` (naming the rule, the loadout, the agent and the capability) and with
 * one that allows it. `min_release_age` is judged at a time passed in, on versions dated either
 * side of the limit by their commits; `signing.keys` against a catalogue signed with a real key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadout } from '../../src/install/install.js';
import { PolicyRefusal } from '../../src/install/errors.js';
import { listOutdated } from '../../src/install/outdated.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { updateLoadouts } from '../../src/install/update.js';
import { parsePolicy } from '../../src/policy/parse.js';
import type { PolicyInForce, PolicyRule } from '../../src/policy/policy.js';
import { makeProject } from './hostile-fixture.js';
import { serveCatalogue } from './lifecycle-fixture.js';
import { buildPolicyCatalogue, type PolicyCatalogue } from '../policy/policy-fixture.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { readSigningKey, type SigningKey } from '../../src/tree-format/signing/keys.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

let catalogue: PolicyCatalogue & { remove(): void };
beforeAll(async () => {
  catalogue = await buildPolicyCatalogue();
}, 120_000);
afterAll(() => catalogue.remove());

/** 2026-03-05 noon: 1.0.0 (2026-01-10) and 1.1.0 (2026-02-20) are over a week old, 1.2.0 (2026-03-01) is not. */
const NOW = new Date('2026-03-05T12:00:00Z');

/** The policy of `yaml` (`{base}` replaced by the served catalogue's address), in force at `now`. */
function policyOf(yaml: string, base: string, now = NOW): PolicyInForce {
  const parsed = parsePolicy(yaml.replaceAll('{base}', base));
  if (!parsed.ok) throw new Error(`test policy does not read: ${JSON.stringify(parsed.problems)}`);
  return { policy: parsed.policy, where: 'loadout-policy.yaml', signedBy: null, now };
}

const lockOf = (project: string): LockFile => JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;

/** One rule: a policy that refuses kit 1.1.0 for Claude Code, the capability it names (null: none), and one that allows it. */
interface RuleCase {
  rule: PolicyRule;
  refuse: string;
  capability: string | null;
  /** A part of the refusal's sentence. */
  says: string;
  allow: string;
}

const CASES: RuleCase[] = [
  { rule: 'catalogues', refuse: 'catalogues: [https://other.example]', capability: null, says: 'which is not a catalogue the policy allows (https://other.example)', allow: 'catalogues: ["{base}/"]' },
  { rule: 'loadouts.allow', refuse: 'loadouts: {allow: [other-*]}', capability: null, says: 'kit is not allowed (the policy allows other-*)', allow: "loadouts: {allow: ['k*']}" },
  { rule: 'loadouts.deny', refuse: 'loadouts: {deny: [other, kit]}', capability: null, says: 'kit is denied (it matches "kit")', allow: 'loadouts: {deny: [kit-*]}' },
  { rule: 'agents', refuse: 'agents: [cursor, codex]', capability: null, says: 'kit for Claude Code: claude-code is not an agent the policy allows (cursor, codex)', allow: 'agents: [cursor, claude-code]' },
  {
    rule: 'mcp.packages.allow',
    refuse: 'mcp: {packages: {allow: [{npm: kit-docs}, {npm: kit-search}]}}',
    capability: 'pypi:postgres-mcp',
    says: 'kit runs postgres-mcp==0.3.0 from PyPI for Claude Code, which is not allowed',
    allow: "mcp: {packages: {allow: [{npm: 'kit-*'}, {pypi: Postgres_MCP, version: '>=0.3.0 <1'}]}}",
  },
  {
    rule: 'mcp.packages.allow',
    refuse: "mcp: {packages: {allow: [{npm: 'kit-*'}, {pypi: postgres-mcp, version: '^1'}]}}",
    capability: 'pypi:postgres-mcp',
    says: 'which is not allowed (the policy allows postgres-mcp ^1, which only a pinned release in the range meets)',
    allow: "mcp: {packages: {allow: [{npm: kit-docs, version: '~1.2.0'}, {npm: kit-search}, {pypi: postgres-mcp, version: '0.3.0'}]}}",
  },
  { rule: 'mcp.hosts.allow', refuse: 'mcp: {hosts: {allow: [api.example.com]}}', capability: 'host:mcp.example.com', says: 'kit reaches mcp.example.com (MCP server "remote") for Claude Code, which is not allowed (the policy allows api.example.com)', allow: "mcp: {hosts: {allow: ['*.EXAMPLE.com']}}" },
  { rule: 'mcp.require_pinned', refuse: 'mcp: {require_pinned: true}', capability: 'npm:kit-search', says: 'kit runs kit-search@1 from npm for Claude Code, which names no single release', allow: 'mcp: {require_pinned: false}' },
  { rule: 'deny.hooks', refuse: 'deny: [hooks]', capability: 'hook skills/review/SKILL.md PostToolUse', says: 'kit has a PostToolUse hook in skills/review/SKILL.md for Claude Code ("npm test"); the policy denies hooks', allow: 'deny: []' },
  { rule: 'deny.scripts', refuse: 'deny: [scripts]', capability: 'script skills/review/scripts/check.sh', says: 'kit brings the script skills/review/scripts/check.sh for Claude Code; the policy denies scripts', allow: 'deny: []' },
  { rule: 'deny.permission-bypass', refuse: 'deny: [permission-bypass]', capability: 'permissionMode agents/reviewer.md', says: 'kit sets permissionMode: bypassPermissions for reviewer in agents/reviewer.md for Claude Code', allow: 'deny: []' },
  { rule: 'deny.wildcard-grants', refuse: 'deny: [wildcard-grants]', capability: 'allowed-tools skills/review/SKILL.md', says: 'kit grants Bash in skills/review/SKILL.md for Claude Code', allow: 'deny: []' },
  { rule: 'deny.unpinned-packages', refuse: 'deny: [unpinned-packages]', capability: 'npm:kit-search', says: '; the policy denies packages not pinned to one release', allow: 'deny: []' },
  { rule: 'signing.require', refuse: 'signing: {require: true}', capability: null, says: 'which is not signed; the policy requires signed catalogues', allow: 'signing: {require: false}' },
];

const expectRefusal = async (promise: Promise<unknown>, c: RuleCase): Promise<void> => {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PolicyRefusal);
  const refusal = error as PolicyRefusal;
  expect(refusal.name).toBe('PolicyRefused');
  expect(refusal.message).toMatch(/^the policy loadout-policy\.yaml refuses /u);
  expect(refusal.message).toContain(c.says);
  expect(refusal.violations).toContainEqual(expect.objectContaining({ rule: c.rule, loadout: 'kit', agent: 'claude-code', capability: c.capability }));
};

describe.each(CASES)('the rule $rule', (c) => {
  it('refuses an install of kit 1.1.0 and writes nothing; allows it under a policy that allows it', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    await expectRefusal(installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.1.0', acceptCapabilities: true, policy: policyOf(c.refuse, base) }), c);
    expect(existsSync(join(project, LOCK_FILE))).toBe(false);
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(false);
    const allowed = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.1.0', acceptCapabilities: true, policy: policyOf(c.allow, base) });
    expect(allowed.installed).toBe(true);
  });

  it('refuses an update from 1.0.0 and leaves the install as it was; allows it under a policy that allows it', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    const scope = projectScope(project);
    const before = readFileSync(join(project, LOCK_FILE), 'utf8');
    await expectRefusal(updateLoadouts({ scope, ids: [], acceptCapabilities: true, policy: policyOf(c.refuse, base) }), c);
    expect(readFileSync(join(project, LOCK_FILE), 'utf8')).toBe(before);
    const allowed = await updateLoadouts({ scope, ids: [], acceptCapabilities: true, policy: policyOf(c.allow, base) });
    expect(allowed.written).toBe(true);
    expect(lockOf(project).installs.map((e) => e.version)).toEqual(['1.2.0']);
  });

  it('outdated lists the update from 1.0.0 as refused, naming the rule; nothing under a policy that allows it', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    const scope = projectScope(project);
    const [refused] = await listOutdated({ scope, policy: policyOf(c.refuse, base) });
    expect(refused).toMatchObject({ outdated: true, wanted: '1.2.0', held: null });
    expect(refused?.policy).toContainEqual(expect.objectContaining({ rule: c.rule, loadout: 'kit', agent: 'claude-code', capability: c.capability, message: expect.stringContaining(c.says) }));
    const [allowed] = await listOutdated({ scope, policy: policyOf(c.allow, base) });
    expect(allowed).toMatchObject({ outdated: true, wanted: '1.2.0', policy: [] });
  });

  it('status fails on what is installed that the policy refuses; passes under a policy that allows it', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.1.0', acceptCapabilities: true });
    const scope = projectScope(project);
    const refused = await readStatus(scope, { policy: policyOf(c.refuse, base) });
    expect(refused.ok).toBe(false);
    expect(refused.files.every((f) => f.state === 'ok')).toBe(true);
    expect(refused.policy).toContainEqual(expect.objectContaining({ rule: c.rule, loadout: 'kit', agent: 'claude-code', capability: c.capability, message: expect.stringContaining(c.says) }));
    const allowed = await readStatus(scope, { policy: policyOf(c.allow, base) });
    expect(allowed).toMatchObject({ ok: true, policy: [] });
  });
});

describe('min_release_age, judged at a time passed in, by the dates of the versions\' commits', () => {
  const AGE = 'min_release_age: 7d\nexceptions:\n  - {loadout: kit, version: 1.0.0, reason: not this one}\n';
  const EXCEPTED = 'min_release_age: 7d\nexceptions:\n  - {loadout: kit, version: 1.2.0, reason: a fix we need}\n';

  it('install takes the newest version a week old and says which it held back, refuses a named newer one unless excepted', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const chosen = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, acceptCapabilities: true, dryRun: true, policy: policyOf(AGE, base) });
    expect(chosen).toMatchObject({ version: '1.1.0', held: { version: '1.2.0', eligible_at: '2026-03-08T00:00:00.000Z' } });
    const named = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.2.0', acceptCapabilities: true, policy: policyOf(AGE, base) }).catch((e: unknown) => e);
    expect(named).toBeInstanceOf(PolicyRefusal);
    expect((named as PolicyRefusal).message).toContain('min_release_age: kit 1.2.0 is too new: it was published on 2026-03-01, less than 7d before 2026-03-05T12:00:00.000Z; it is eligible from 2026-03-08T00:00:00.000Z; add {loadout: kit, version: 1.2.0} to the policy\'s exceptions to take it now');
    expect((named as PolicyRefusal).violations).toEqual([expect.objectContaining({ rule: 'min_release_age', loadout: 'kit', agent: 'claude-code', capability: null })]);
    expect(existsSync(join(project, LOCK_FILE))).toBe(false);
    const excepted = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.2.0', acceptCapabilities: true, policy: policyOf(EXCEPTED, base) });
    expect(excepted).toMatchObject({ installed: true, version: '1.2.0' });
    expect(excepted.held).toBeUndefined();
    // The exception lifts the age of the version named only: taken by default, the newest old enough is still 1.1.0.
    const byDefault = await installLoadout({ from: base, id: 'kit', agent: 'cursor', dir: project, acceptCapabilities: true, dryRun: true, policy: policyOf(EXCEPTED, base) });
    expect(byDefault.version).toBe('1.1.0');
  });

  it.each([
    ['2026-03-07T23:59:59.999Z', '1.1.0'],
    ['2026-03-08T00:00:00.000Z', '1.2.0'],
  ])('at %s the newest version old enough is %s (1.2.0 is dated 2026-03-01)', async (now, version) => {
    const base = await serveCatalogue(catalogue.dist);
    const outcome = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: makeProject(), acceptCapabilities: true, dryRun: true, policy: policyOf(AGE, base, new Date(now)) });
    expect(outcome.version).toBe(version);
  });

  it('refuses an install when no version is old enough', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const refused = await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: makeProject(), policy: policyOf('min_release_age: 9w', base) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PolicyRefusal);
    expect((refused as PolicyRefusal).message).toContain('min_release_age: kit 1.2.0 is too new: it was published on 2026-03-01, less than 9w before 2026-03-05T12:00:00.000Z; it is eligible from 2026-05-03T00:00:00.000Z; no version of kit is old enough');
  });

  it('update moves to the newest version old enough and lists the one held back; a --to it holds back is refused unless excepted; --frozen is held to it too', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const scope = projectScope(project);
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    const held = await updateLoadouts({ scope, ids: [], acceptCapabilities: true, policy: policyOf(AGE, base) });
    expect(held.updates.map((u) => `${u.from} → ${u.to}`)).toEqual(['1.0.0 → 1.1.0']);
    expect(held.held).toEqual([{ id: 'kit', agent: 'claude-code', version: '1.2.0', eligible_at: '2026-03-08T00:00:00.000Z' }]);
    // At 1.1.0 there is nothing newer old enough: current, with 1.2.0 still held.
    const again = await updateLoadouts({ scope, ids: [], acceptCapabilities: true, policy: policyOf(AGE, base) });
    expect(again).toMatchObject({ updates: [], current: [{ id: 'kit', version: '1.1.0' }], held: [{ version: '1.2.0' }] });
    await expect(updateLoadouts({ scope, ids: [], to: '1.2.0', acceptCapabilities: true, policy: policyOf(AGE, base) })).rejects.toMatchObject({ name: 'PolicyRefused', violations: [expect.objectContaining({ rule: 'min_release_age', agent: 'claude-code' })] });
    const excepted = await updateLoadouts({ scope, ids: [], to: '1.2.0', acceptCapabilities: true, policy: policyOf(EXCEPTED, base) });
    expect(excepted.updates.map((u) => u.to)).toEqual(['1.2.0']);
    // The lock names 1.2.0 now: a frozen install under a policy without the exception refuses it.
    await expect(installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, frozen: true, acceptCapabilities: true, policy: policyOf(AGE, base) })).rejects.toMatchObject({ name: 'PolicyRefused' });
    expect((await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, frozen: true, acceptCapabilities: true, policy: policyOf(EXCEPTED, base) })).version).toBe('1.2.0');
  });

  it('outdated shows the update held back and the date it becomes eligible', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const scope = projectScope(project);
    await installLoadout({ from: base, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    const [row] = await listOutdated({ scope, policy: policyOf(AGE, base) });
    expect(row).toMatchObject({ installed: '1.0.0', wanted: '1.1.0', latest: '1.2.0', outdated: true, held: { version: '1.2.0', eligible_at: '2026-03-08T00:00:00.000Z' }, policy: [] });
    const [later] = await listOutdated({ scope, policy: policyOf(AGE, base, new Date('2026-03-09T00:00:00Z')) });
    expect(later).toMatchObject({ wanted: '1.2.0', latest: '1.2.0', held: null });
    await updateLoadouts({ scope, ids: [], acceptCapabilities: true, policy: policyOf(AGE, base) });
    const [current] = await listOutdated({ scope, policy: policyOf(AGE, base) });
    expect(current).toMatchObject({ installed: '1.1.0', wanted: '1.1.0', outdated: false, held: { version: '1.2.0' } });
    // Without a policy nothing is held: the latest is wanted.
    const [free] = await listOutdated({ scope });
    expect(free).toMatchObject({ wanted: '1.2.0', outdated: true, held: null, policy: [] });
  });
});

describe('signing.require with the keys the policy pins, against a signed catalogue', () => {
  const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

  it('allows a catalogue signed by a pinned key on every command, and refuses one signed by another, naming the keys', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0' });
    commitAll(root, 'kit 1.0.0', '2026-01-10T10:00:00Z');
    writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.1.0', files: baseFiles('Kit', '# Kit\n\nTwo.\n') });
    commitAll(root, 'kit 1.1.0', '2026-02-20T10:00:00Z');
    const key = newKey();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test', signing: { key, expiresInDays: 30 } });
    const base = await serveCatalogue(dist);
    const pinned = `signing: {require: true, keys: ["${key.published.keyid}"]}`;
    const other = `signing: {require: true, keys: ["${newKey().published.keyid}"]}`;
    const project = makeProject();
    const scope = projectScope(project);
    const refused = await installLoadout({ from: base, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0', policy: policyOf(other, base, new Date()) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PolicyRefusal);
    expect((refused as PolicyRefusal).message).toContain(`signing.keys: ${base} is signed by ${key.published.keyid}, not by a key the policy pins (`);
    expect((await installLoadout({ from: base, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0', policy: policyOf(pinned, base, new Date()) })).installed).toBe(true);
    expect((await readStatus(scope, { policy: policyOf(pinned, base, new Date()) })).ok).toBe(true);
    expect((await readStatus(scope, { policy: policyOf(other, base, new Date()) })).policy.map((v) => v.rule)).toEqual(['signing.keys']);
    expect((await listOutdated({ scope, policy: policyOf(other, base, new Date()) }))[0]?.policy.map((v) => v.rule)).toEqual(['signing.keys']);
    expect((await listOutdated({ scope, policy: policyOf(pinned, base, new Date()) }))[0]?.policy).toEqual([]);
    await expect(updateLoadouts({ scope, ids: [], policy: policyOf(other, base, new Date()) })).rejects.toMatchObject({ name: 'PolicyRefused', violations: [expect.objectContaining({ rule: 'signing.keys' })] });
    expect((await updateLoadouts({ scope, ids: [], policy: policyOf(pinned, base, new Date()) })).written).toBe(true);
  }, 60_000);
});
