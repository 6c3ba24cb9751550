/**
 * A signed policy (policy/signed-policy.ts): a DSSE envelope of the policy's YAML, by the
 * catalogue's own Ed25519 machinery, read only with a key given, and refused when unsigned, signed
 * by another key, changed after signing, or given with no key to check it. Real keys from
 * node:crypto.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPolicyDocument, POLICY_PAYLOAD_TYPE, readPolicyKey, signPolicy } from '../../src/policy/signed-policy.js';
import { readSigningKey, type SigningKey, type TrustedKey } from '../../src/tree-format/signing/keys.js';

const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
const trusted = (key: SigningKey): TrustedKey => {
  const read = readPolicyKey(key.published.public_key);
  if ('problem' in read) throw new Error(read.problem);
  return read;
};
const TEXT = 'deny: [hooks]\nmin_release_age: 7d\n';
const bytes = (value: unknown): Uint8Array => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('a signed policy', () => {
  it('is read with the key that signed it: its YAML and the key id', () => {
    const key = newKey();
    const envelope = signPolicy(TEXT, [key]);
    expect(envelope.payloadType).toBe(POLICY_PAYLOAD_TYPE);
    expect(Buffer.from(envelope.payload, 'base64').toString()).toBe(TEXT);
    expect(trusted(key).keyid).toBe(key.published.keyid);
    expect(openPolicyDocument(bytes(envelope), [trusted(key)])).toEqual({ ok: true, text: TEXT, signedBy: [key.published.keyid] });
    // A plain policy without a key is read as it is.
    expect(openPolicyDocument(bytes(TEXT), [])).toEqual({ ok: true, text: TEXT, signedBy: null });
  });

  it('is refused unsigned with a key, signed by another key, changed after signing, or without a key to check it', () => {
    const key = newKey();
    const envelope = signPolicy(TEXT, [key]);
    const refused = (value: unknown, keys: TrustedKey[]): string => {
      const opened = openPolicyDocument(bytes(value), keys);
      return opened.ok ? 'read' : opened.problem;
    };
    expect(refused(TEXT, [trusted(key)])).toMatch(/^is not signed, but a policy key was given/u);
    expect(refused(envelope, [trusted(newKey())])).toMatch(/^does not verify: signed by [0-9a-f]{64}, none of them a trusted key/u);
    expect(refused({ ...envelope, payload: Buffer.from('deny: []\n').toString('base64') }, [trusted(key)])).toMatch(/^does not verify: the signature by [0-9a-f]{64} does not verify/u);
    expect(refused({ ...envelope, payloadType: 'application/vnd.loadout.snapshot+json' }, [trusted(key)])).toMatch(/^does not verify: payloadType is "application\/vnd\.loadout\.snapshot\+json"/u);
    expect(refused(envelope, [])).toMatch(/^is a signed policy \(a DSSE envelope\), but no key was given to check it/u);
    expect(openPolicyDocument(new Uint8Array([0xff, 0xfe, 0x00]), [])).toEqual({ ok: false, problem: 'is not UTF-8 text (expected the YAML of a policy, or a DSSE envelope of one)' });
  });

  it('takes a public key as the catalogue publishes it, and nothing else', () => {
    expect(readPolicyKey('not a key')).toEqual({ problem: expect.stringMatching(/^"not a key" is not a public key \(expected base64 of the raw 32-byte Ed25519 key/u) });
  });
});
