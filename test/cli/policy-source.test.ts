/**
 * Which policy a command holds to (cli/policy-source.ts): `--policy` over `LOADOUT_POLICY` over
 * the project's `loadout-policy.yaml`; a URL policy fetched from a real HTTP server on 127.0.0.1
 * with a catalogue's limits (redirects on its origin only); a signed one checked against the key
 * given; every refusal an `InvalidPolicy` that says why, with lines and columns.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedPolicy, readPolicyAt, resolvePolicy } from '../../src/cli/policy-source.js';
import { signPolicy } from '../../src/policy/signed-policy.js';
import { readSigningKey, type SigningKey } from '../../src/tree-format/signing/keys.js';
import { makeTempDir } from '../helpers/temp.js';
import { serveSite } from '../install/hostile-fixture.js';

const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
const NOW = new Date('2026-03-05T00:00:00Z');

/** A folder with `files` written, served on 127.0.0.1. */
async function served(files: Record<string, string>): Promise<{ dir: string; origin: string; redirect(path: string, location: string): void }> {
  const dir = makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const site = await serveSite(dir);
  return { dir, origin: site.origin, redirect: site.redirect };
}

describe('resolvePolicy', () => {
  it('takes --policy, else LOADOUT_POLICY, else the project\'s loadout-policy.yaml, else none', async () => {
    const project = makeTempDir();
    const other = join(makeTempDir(), 'team.yaml');
    writeFileSync(join(project, 'loadout-policy.yaml'), 'deny: [hooks]\n');
    writeFileSync(other, 'deny: [scripts]\n');
    const env = { LOADOUT_POLICY: other };
    expect(await resolvePolicy({}, { project, env: {}, now: NOW })).toEqual({ policy: { deny: ['hooks'] }, where: join(project, 'loadout-policy.yaml'), signedBy: null, now: NOW });
    expect((await resolvePolicy({}, { project, env, now: NOW }))?.policy).toEqual({ deny: ['scripts'] });
    const flag = join(project, 'strict.yaml');
    writeFileSync(flag, 'agents: [cursor]\n');
    expect((await resolvePolicy({ policy: flag }, { project, env, now: NOW }))?.policy).toEqual({ agents: ['cursor'] });
    // --global has no project file; and a project without one has no policy.
    expect(await resolvePolicy({}, { project: undefined, env: {}, now: NOW })).toBeUndefined();
    expect(await resolvePolicy({}, { project: makeTempDir(), env: {}, now: NOW })).toBeUndefined();
    await expect(resolvePolicy({ policyKey: [newKey().published.public_key] }, { project: makeTempDir(), env: {} })).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('--policy-key names a key, but there is no policy to check') });
  });

  it('refuses a policy with problems, naming each by line and column, and one that is not there', async () => {
    const project = makeTempDir();
    writeFileSync(join(project, 'loadout-policy.yaml'), 'deny: [hooks, network]\nmin_release_age: soon\n');
    await expect(resolvePolicy({}, { project, env: {} })).rejects.toMatchObject({
      name: 'InvalidPolicy',
      message: `the project's policy ${join(project, 'loadout-policy.yaml')} is not a policy (2 problems):\n${join(project, 'loadout-policy.yaml')}:1:15: deny[1] is "network" (expected a capability kind: hooks, scripts, permission-bypass, wildcard-grants, unpinned-packages)\n${join(project, 'loadout-policy.yaml')}:2:18: min_release_age is "soon" (expected an age in hours, days or weeks, such as 12h, 7d or 2w)`,
    });
    await expect(resolvePolicy({ policy: join(project, 'nope.yaml') }, { project, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: `--policy ${join(project, 'nope.yaml')}: no such file (expected a policy file, YAML)` });
    await expect(resolvePolicy({ policy: 'ftp://x.example/p.yaml' }, { project, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: '--policy is "ftp://x.example/p.yaml" (expected a file or an http:// or https:// address)' });
  });

  it('fetches a URL policy from a server, following redirects on its origin only', async () => {
    const site = await served({ 'team/policy.yaml': 'deny: [hooks]\n', 'elsewhere.yaml': 'deny: []\n' });
    const url = `${site.origin}/team/policy.yaml`;
    expect(await readPolicyAt(url, '--policy', [])).toEqual({ policy: { deny: ['hooks'] }, where: url, signedBy: null });
    site.redirect('/moved.yaml', '/team/policy.yaml');
    expect((await readPolicyAt(`${site.origin}/moved.yaml`, '--policy', [])).policy).toEqual({ deny: ['hooks'] });
    const other = await served({ 'p.yaml': 'deny: []\n' });
    site.redirect('/away.yaml', `${other.origin}/p.yaml`);
    await expect(readPolicyAt(`${site.origin}/away.yaml`, 'LOADOUT_POLICY', [])).rejects.toMatchObject({ name: 'InvalidPolicy', message: `LOADOUT_POLICY ${site.origin}/away.yaml: ${site.origin}/away.yaml redirects to ${other.origin}/p.yaml, another origin (expected the policy on ${site.origin})` });
    await expect(readPolicyAt(`${site.origin}/missing.yaml`, '--policy', [])).rejects.toMatchObject({ name: 'InvalidPolicy', message: `--policy ${site.origin}/missing.yaml: ${site.origin}/missing.yaml answered HTTP 404 (expected 200 and the policy)` });
  });

  it('checks a signed URL policy against the key given, and refuses it unsigned, or signed by another key', async () => {
    const key = newKey();
    const text = 'deny: [hooks]\nmin_release_age: 7d\n';
    const site = await served({ 'policy.dsse.json': JSON.stringify(signPolicy(text, [key])), 'plain.yaml': text, 'other.dsse.json': JSON.stringify(signPolicy(text, [newKey()])) });
    const flags = { policy: `${site.origin}/policy.dsse.json`, policyKey: [key.published.public_key] };
    expect(await resolvePolicy(flags, { project: undefined, env: {}, now: NOW })).toEqual({ policy: { deny: ['hooks'], min_release_age: '7d' }, where: flags.policy, signedBy: [key.published.keyid], now: NOW });
    // The key from the environment, as a workflow sets it.
    expect((await namedPolicy({ policy: flags.policy }, { LOADOUT_POLICY_KEY: key.published.public_key }))?.signedBy).toEqual([key.published.keyid]);
    await expect(resolvePolicy({ ...flags, policy: `${site.origin}/plain.yaml` }, { project: undefined, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: expect.stringContaining('plain.yaml is not signed, but a policy key was given') });
    await expect(resolvePolicy({ ...flags, policy: `${site.origin}/other.dsse.json` }, { project: undefined, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: expect.stringMatching(/other\.dsse\.json does not verify: signed by [0-9a-f]{64}, none of them a trusted key/u) });
    await expect(resolvePolicy({ policy: flags.policy }, { project: undefined, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: expect.stringContaining('is a signed policy (a DSSE envelope), but no key was given to check it') });
    await expect(resolvePolicy({ policy: flags.policy, policyKey: ['abc'] }, { project: undefined, env: {} })).rejects.toMatchObject({ name: 'InvalidPolicy', message: expect.stringContaining('--policy-key: "abc" is not a public key') });
  });
});
