import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodePae, parseEnvelope, signEnvelope } from '../../../src/tree-format/signing/dsse.js';
import { keyIdOf, rawPublicKeyOf, readSigningKey, SigningKeyError, trustPublishedKey, type SigningKey, type TrustedKey } from '../../../src/tree-format/signing/keys.js';
import { signRotation } from '../../../src/tree-format/signing/rotation.js';
import { makeSnapshot, signSnapshot, SNAPSHOT_PAYLOAD_TYPE } from '../../../src/tree-format/signing/snapshot.js';
import { applyRotations, verifySnapshot } from '../../../src/tree-format/signing/verify.js';

/** A fresh Ed25519 key as a maintainer would hold it (PKCS#8 PEM). */
function newKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return readSigningKey(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}
const trustedOf = (k: SigningKey): TrustedKey => trustPublishedKey(k.published) as TrustedKey;

const NOW = new Date('2026-11-25T12:00:00.000Z');
const documents = new Map([
  ['api/loadouts.json', { sha256: 'a'.repeat(64), bytes: 10 }],
  ['api/loadouts/x/versions.json', { sha256: 'b'.repeat(64), bytes: 20 }],
]);
/** A signed snapshot envelope as it is published (parsed JSON). */
const published = (key: SigningKey, generatedAt = NOW, days?: number): unknown => JSON.parse(JSON.stringify(signSnapshot(makeSnapshot({ generatedAt, documents, ...(days === undefined ? {} : { expiresInDays: days }) }), key)));

describe('DSSE', () => {
  it('encodes the PAE of the spec test vector', () => {
    expect(encodePae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
  });
  it('counts bytes, not characters, in PAE lengths', () => {
    expect(encodePae('t', Buffer.from('é', 'utf8')).toString('utf8')).toBe('DSSEv1 1 t 2 é');
  });
  it('accepts standard and URL-safe base64 and refuses other text', () => {
    expect(decodeBase64('+/8=')).toEqual(Buffer.from([0xfb, 0xff]));
    expect(decodeBase64('-_8')).toEqual(Buffer.from([0xfb, 0xff]));
    expect(decodeBase64('not base64!')).toBeUndefined();
  });
  it('refuses envelopes without signatures or with a payload that is not base64', () => {
    expect(parseEnvelope({ payloadType: 't', payload: 'aGk=', signatures: [] })).toHaveProperty('problem');
    expect(parseEnvelope({ payloadType: 't', payload: '%%', signatures: [{ sig: 'aGk=' }] })).toHaveProperty('problem');
  });
});

describe('keys', () => {
  it('names a key by the sha256 of its raw 32 bytes', () => {
    const key = newKey();
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(rawPublicKeyOf(publicKey)).toHaveLength(32);
    expect(keyIdOf(publicKey)).toBe(createHash('sha256').update(rawPublicKeyOf(publicKey)).digest('hex'));
    expect(key.published.algorithm).toBe('ed25519');
    expect(Buffer.from(key.published.public_key, 'base64')).toHaveLength(32);
  });
  it('refuses a key that is not Ed25519, without quoting it', () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => readSigningKey(pem)).toThrow(SigningKeyError);
    try {
      readSigningKey(pem);
    } catch (error) {
      expect((error as Error).message).not.toContain(pem.split('\n')[1]);
    }
    expect(() => readSigningKey('garbage')).toThrow(/not a PEM private key/u);
  });
  it('refuses a published key whose keyid is not its hash', () => {
    const a = newKey();
    const b = newKey();
    expect(trustPublishedKey({ ...a.published, keyid: b.published.keyid })).toHaveProperty('problem');
  });
});

describe('verifySnapshot', () => {
  it('returns the snapshot signed by a trusted key', () => {
    const key = newKey();
    const result = verifySnapshot(published(key), [trustedOf(key)], { now: NOW });
    expect(result).toMatchObject({ ok: true, keyids: [key.published.keyid] });
    if (result.ok) expect(result.snapshot.documents['api/loadouts/x/versions.json']?.sha256).toBe('b'.repeat(64));
  });
  it('refuses a payload changed after signing', () => {
    const key = newKey();
    const envelope = published(key) as { payload: string };
    const body = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as { documents: Record<string, { sha256: string }> };
    (body.documents['api/loadouts/x/versions.json'] as { sha256: string }).sha256 = 'c'.repeat(64);
    envelope.payload = Buffer.from(JSON.stringify(body)).toString('base64');
    expect(verifySnapshot(envelope, [trustedOf(key)], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'bad-signature' } });
  });
  it('refuses a snapshot signed by another key', () => {
    expect(verifySnapshot(published(newKey()), [trustedOf(newKey())], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'unknown-key' } });
  });
  it('refuses a signature made under a trusted key id by another key', () => {
    const trusted = newKey();
    const other = newKey();
    const forged = signEnvelope(SNAPSHOT_PAYLOAD_TYPE, Buffer.from(JSON.stringify(makeSnapshot({ generatedAt: NOW, documents }))), other.privateKey, trusted.published.keyid);
    expect(verifySnapshot(forged, [trustedOf(trusted)], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'bad-signature' } });
  });
  it('refuses an expired snapshot, and accepts it before it expires', () => {
    const key = newKey();
    const envelope = published(key, NOW, 1);
    expect(verifySnapshot(envelope, [trustedOf(key)], { now: new Date(NOW.getTime() + 86_400_000) })).toMatchObject({ ok: false, failure: { kind: 'expired' } });
    expect(verifySnapshot(envelope, [trustedOf(key)], { now: new Date(NOW.getTime() + 86_399_000) })).toMatchObject({ ok: true });
  });
  it('refuses a snapshot older than one seen, and accepts the same one again', () => {
    const key = newKey();
    const older = published(key, new Date(NOW.getTime() - 60_000));
    expect(verifySnapshot(older, [trustedOf(key)], { now: NOW, lastSeenGeneratedAt: NOW.toISOString() })).toMatchObject({ ok: false, failure: { kind: 'rollback' } });
    expect(verifySnapshot(published(key), [trustedOf(key)], { now: NOW, lastSeenGeneratedAt: NOW.toISOString() })).toMatchObject({ ok: true });
  });
  it('refuses an envelope of another payload type or a payload that is not a snapshot', () => {
    const key = newKey();
    expect(verifySnapshot(signEnvelope('application/vnd.other+json', Buffer.from('{}'), key.privateKey, key.published.keyid), [trustedOf(key)], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
    expect(verifySnapshot(signEnvelope(SNAPSHOT_PAYLOAD_TYPE, Buffer.from('{"_type":"x"}'), key.privateKey, key.published.keyid), [trustedOf(key)], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
    expect(verifySnapshot('nope', [trustedOf(key)], { now: NOW })).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
  });
});

describe('applyRotations', () => {
  it('moves trust from a pinned key to the new keys of a statement it signed', () => {
    const old = newKey();
    const next = newKey();
    const outcome = applyRotations(JSON.parse(JSON.stringify(signRotation([next.published], [old], NOW))), [old.published.keyid]);
    expect(outcome).toMatchObject({ keyids: [next.published.keyid], applied: 1, problems: [] });
    expect(outcome.keys.get(next.published.keyid)?.keyid).toBe(next.published.keyid);
  });
  it('follows a chain given in any order', () => {
    const [a, b, c] = [newKey(), newKey(), newKey()] as [SigningKey, SigningKey, SigningKey];
    const chain = [signRotation([c.published], [b], NOW), signRotation([b.published], [a], NOW)];
    expect(applyRotations(chain, [a.published.keyid])).toMatchObject({ keyids: [c.published.keyid], applied: 2 });
  });
  it('does not move trust for a statement signed by a key that is not pinned', () => {
    const pinned = newKey();
    const attacker = newKey();
    const outcome = applyRotations(signRotation([attacker.published], [attacker], NOW), [pinned.published.keyid]);
    expect(outcome).toMatchObject({ keyids: [pinned.published.keyid], applied: 0 });
    expect(outcome.problems).toEqual(['statement 0: not signed by a trusted key']);
  });
  it('does not move trust when the statement was changed after signing', () => {
    const old = newKey();
    const attacker = newKey();
    const envelope = signRotation([newKey().published], [old], NOW);
    const body = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as { keys: unknown[] };
    body.keys = [attacker.published];
    envelope.payload = Buffer.from(JSON.stringify(body)).toString('base64');
    expect(applyRotations(envelope, [old.published.keyid])).toMatchObject({ keyids: [old.published.keyid], applied: 0 });
  });
});

describe('the published addresses', () => {
  it('serves the snapshot and the rotation statement as JSON that caches revalidate', async () => {
    const { cacheControlFor, contentTypeFor, CACHE_REVALIDATE, isPublishedPath } = await import('../../../src/tree-format/tree-headers.js');
    const { ROTATION_PATH, SNAPSHOT_PATH } = await import('../../../src/tree-format/signing/snapshot.js');
    for (const path of [SNAPSHOT_PATH, ROTATION_PATH]) {
      expect(isPublishedPath(path)).toBe(true);
      expect(cacheControlFor(path)).toBe(CACHE_REVALIDATE);
      expect(contentTypeFor(path)).toBe('application/json; charset=utf-8');
    }
  });
});
