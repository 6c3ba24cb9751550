/**
 * The policy from the command line (issue 55, points 1 and 2): the real `loadout` run in a child
 * process against the policy fixture's catalogue served on 127.0.0.1 (test/policy/policy-fixture.ts).
 * A project's `loadout-policy.yaml` refuses an install with exit 1 naming the rule, the loadout,
 * the agent and the capability (and `--json` lists the violations); `outdated` and `status` exit 1
 * on what it refuses; a URL policy signed with `loadout policy sign` is taken with its key;
 * `loadout policy check` names a problem's line and column. Ages far from any day the test may run
 * on (`1h`, `9999w`) keep the results the same whatever the machine's date.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/install/project/lock.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { makeProject, serveSite } from '../install/hostile-fixture.js';
import { serveCatalogue } from '../install/lifecycle-fixture.js';
import { buildPolicyCatalogue, type PolicyCatalogue } from '../policy/policy-fixture.js';

let catalogue: PolicyCatalogue & { remove(): void };
beforeAll(async () => {
  catalogue = await buildPolicyCatalogue();
}, 120_000);
afterAll(() => catalogue.remove());

describe('a project\'s policy, from the command line', () => {
  it('refuses an install naming the rule, the loadout, the agent and the capability; --json lists the violations; a policy that allows it installs', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    writeFileSync(join(project, 'loadout-policy.yaml'), 'deny: [hooks]\nmcp:\n  packages:\n    allow: [{npm: "kit-*"}]\n');
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli([...args, '--dir', project], project);
    const refused = await cli('install', 'kit', '--agent', 'claude-code', '--from', base, '--version', '1.1.0', '--accept-capabilities');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`loadout: the policy ${join(project, 'loadout-policy.yaml')} refuses kit 1.1.0 for claude-code:\n`);
    expect(refused.stderr).toContain('  mcp.packages.allow: kit runs postgres-mcp==0.3.0 from PyPI for Claude Code, which is not allowed\n');
    expect(refused.stderr).toContain('  deny.hooks: kit has a PostToolUse hook in skills/review/SKILL.md for Claude Code ("npm test"); the policy denies hooks\n');
    expect(refused.stderr).toContain('nothing was written\nloadout: hint: Nothing was written.');
    expect(existsSync(join(project, LOCK_FILE))).toBe(false);

    const json = await cli('install', 'kit', '--agent', 'claude-code', '--from', base, '--version', '1.1.0', '--accept-capabilities', '--json');
    expect(json.code).toBe(1);
    const error = (JSON.parse(json.stdout) as { error: { name: string; violations: { rule: string; loadout: string; agent: string; capability: string | null }[] } }).error;
    expect(error.name).toBe('PolicyRefused');
    expect(error.violations.map((v) => `${v.rule} ${v.loadout} ${v.agent} ${v.capability ?? ''}`)).toEqual(['mcp.packages.allow kit claude-code pypi:postgres-mcp', 'deny.hooks kit claude-code hook skills/review/SKILL.md PostToolUse']);

    // --policy over the project's file: this one allows it.
    const allow = join(makeTempDir(), 'allow.yaml');
    writeFileSync(allow, 'mcp: {packages: {allow: [{npm: "kit-*"}, {pypi: postgres-mcp}]}}\n');
    const installed = await cli('install', 'kit', '--agent', 'claude-code', '--from', base, '--version', '1.1.0', '--accept-capabilities', '--policy', allow);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('installed kit 1.1.0 for claude-code');

    // status is the CI gate: the project's policy refuses what is installed.
    const status = await cli('status');
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`the policy ${join(project, 'loadout-policy.yaml')} refuses:\n  mcp.packages.allow: kit runs postgres-mcp==0.3.0 from PyPI for Claude Code, which is not allowed\n  deny.hooks:`);
    expect(status.stdout).toMatch(/files as installed; the policy refuses 2 things installed \(listed above\)\n$/u);
    expect((await cli('status', '--policy', allow)).code).toBe(0);
    const statusJson = JSON.parse((await cli('status', '--json')).stdout) as { ok: boolean; policy: { rule: string }[] };
    expect(statusJson).toMatchObject({ ok: false, policy: [{ rule: 'mcp.packages.allow' }, { rule: 'deny.hooks' }] });
  }, 120_000);

  it('outdated shows what the policy refuses and holds back, and exits 1 on a refusal', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const project = makeProject();
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli([...args, '--dir', project], project);
    expect((await cli('install', 'kit', '--agent', 'claude-code', '--from', base, '--version', '1.0.0')).code).toBe(0);
    writeFileSync(join(project, 'loadout-policy.yaml'), 'mcp: {require_pinned: true}\nmin_release_age: 1h\n');
    const refused = await cli('outdated');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/kit +claude-code +1\.0\.0 +1\.2\.0 +outdated, adds capabilities; refused by the policy \(mcp\.require_pinned\) +none/u);
    expect(refused.stderr).toContain('  mcp.require_pinned: kit runs kit-search@1 from npm for Claude Code, which names no single release ("1" is a range or tag: each start may fetch another); the policy requires pinned packages\n');
    // Nothing is old enough under 9999 weeks: the update is held back, for good (no version of kit is old enough).
    writeFileSync(join(project, 'loadout-policy.yaml'), 'min_release_age: 9999w\n');
    const held = JSON.parse((await cli('outdated', '--json')).stdout) as { wanted: string; outdated: boolean; held: { version: string; eligible_at: string } }[];
    expect(held).toMatchObject([{ wanted: '1.0.0', outdated: false, held: { version: '1.2.0' } }]);
    const table = await cli('outdated');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/kit +claude-code +1\.0\.0 +1\.2\.0 +current; 1\.2\.0 held until \d{4}-\d{2}-\d{2} +none/u);
    const update = await cli('update', '--accept-capabilities');
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/kit for claude-code is at 1\.0\.0 already\nkit for claude-code: 1\.2\.0 is held back by min_release_age \(.*loadout-policy\.yaml\) until \d{4}-\d{2}-\d{2}T00:00:00\.000Z\n/u);
  }, 120_000);

  it('takes a URL policy signed by `loadout policy sign` with its key, and refuses it without', async () => {
    const base = await serveCatalogue(catalogue.dist);
    const folder = makeTempDir();
    const pem = join(folder, 'key.pem');
    writeFileSync(pem, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    writeFileSync(join(folder, 'policy.yaml'), 'loadouts: {deny: [kit]}\n');
    const signed = await runCli(['policy', 'sign', join(folder, 'policy.yaml'), '--key-file', pem, '--out', join(folder, 'policy.dsse.json')], folder);
    expect(signed.code, signed.stderr).toBe(0);
    const publicKey = /check it with --policy-key (\S+)\n/u.exec(signed.stderr)?.[1] ?? '';
    expect(publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/u);
    const site = await serveSite(folder);
    const url = `${site.origin}/policy.dsse.json`;
    const project = makeProject();
    const refused = await runCli(['install', 'kit', '--agent', 'cursor', '--from', base, '--version', '1.0.0', '--dir', project], project, { LOADOUT_POLICY: url, LOADOUT_POLICY_KEY: publicKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`loadout: the policy ${url} refuses kit from ${base} for cursor:\n  loadouts.deny: kit is denied (it matches "kit")\n`);
    const unchecked = await runCli(['install', 'kit', '--agent', 'cursor', '--from', base, '--version', '1.0.0', '--dir', project], project, { LOADOUT_POLICY: url });
    expect(unchecked.code).toBe(1);
    expect(unchecked.stderr).toContain(`loadout: LOADOUT_POLICY ${url} is a signed policy (a DSSE envelope), but no key was given to check it`);
    const check = await runCli(['policy', 'check', url, '--policy-key', publicKey], folder);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(new RegExp(`^ok: ${url.replaceAll('.', '\\.')} is a policy, signed by [0-9a-f]{64}\n  loadouts\\.deny: kit\n$`, 'u'));
    // An invalid policy is not signed.
    writeFileSync(join(folder, 'bad.yaml'), 'deny: [everything]\n');
    const bad = await runCli(['policy', 'sign', join(folder, 'bad.yaml'), '--key-file', pem], folder);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(folder, 'bad.yaml')}:1:8: deny[0] is "everything"`);
    expect(readFileSync(join(folder, 'policy.dsse.json'), 'utf8')).toContain('"payloadType": "application/vnd.loadout.policy+yaml"');
  }, 120_000);
});
