/**
 * Ed25519 keys of a catalogue's signing (RFC 8032): the private key as the maintainers hold it
 * (PKCS#8 PEM, what `openssl genpkey -algorithm ed25519` writes), the public key as the API
 * description document publishes it (base64 of its raw 32 bytes, RFC 8032 section 5.1.5),
 * and the key id: the sha256 of those 32 bytes in lowercase hex, so that anyone holding a
 * public key can check it against a pinned id. Pure; only `node:crypto` (and `catalogue/show-value.ts` for messages).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { showValue } from '../../catalogue/show-value.js';

/** The only signing algorithm, as published in `signing.keys[].algorithm`. */
export const SIGNING_ALGORITHM = 'ed25519';

/**
 * The most keys a description document may declare, or a rotation statement name as keys or as
 * signers: a catalogue signs with one or two. Each key costs a key import and a sha256, so
 * 20,000 declared keys took 5 s (issue 35, point 9).
 */
export const MAX_PUBLISHED_KEYS = 16;

/** A public key as the description document and rotation statements publish it. */
export interface PublishedKey {
  /** sha256 hex of the raw 32-byte public key. */
  keyid: string;
  algorithm: typeof SIGNING_ALGORITHM;
  /** Base64 of the raw 32-byte public key. */
  public_key: string;
}

/** A public key ready to verify with. */
export interface TrustedKey {
  keyid: string;
  key: KeyObject;
}

/** A private key read for signing; `published` is its public half. */
export interface SigningKey {
  privateKey: KeyObject;
  published: PublishedKey;
}

/** A key that cannot be used; the message names what is wrong, never the key's bytes. */
export class SigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyError';
  }
}

/** The raw 32 bytes of an Ed25519 public key (the JWK `x`, RFC 8037 section 2). */
export function rawPublicKeyOf(publicKey: KeyObject): Buffer {
  const { x } = publicKey.export({ format: 'jwk' });
  return Buffer.from(x ?? '', 'base64url');
}

/** The key id of an Ed25519 public key: sha256 of its raw 32 bytes, lowercase hex. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKeyOf(publicKey)).digest('hex');
}

/** `publicKey` in the published form. */
export function publishKey(publicKey: KeyObject): PublishedKey {
  return { keyid: keyIdOf(publicKey), algorithm: SIGNING_ALGORITHM, public_key: rawPublicKeyOf(publicKey).toString('base64') };
}

/**
 * Reads a maintainer's Ed25519 private key from PKCS#8 PEM text.
 * @throws SigningKeyError when the text is not a PEM private key or the key is not Ed25519
 *   (the message never quotes the text)
 */
export function readSigningKey(pem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new SigningKeyError('the signing key is not a PEM private key (expected PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes)');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`the signing key is a ${privateKey.asymmetricKeyType ?? 'unknown'} key (expected Ed25519)`);
  return { privateKey, published: publishKey(createPublicKey(privateKey)) };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Turns a published key into one to verify with, checking that its `keyid` is the sha256 of
 * its bytes (a key that lies about its id is refused: ids are what a lock pins). Returns a
 * one-line problem instead when `value` is not a well-formed Ed25519 published key. Pure.
 */
export function trustPublishedKey(value: unknown): TrustedKey | { problem: string } {
  if (!isObject(value)) return { problem: 'is not an object (expected {keyid, algorithm, public_key})' };
  const { keyid, algorithm, public_key: publicKey } = value;
  if (algorithm !== SIGNING_ALGORITHM) return { problem: `algorithm is ${showValue(algorithm)} (expected "${SIGNING_ALGORITHM}")` };
  if (typeof keyid !== 'string' || !/^[0-9a-f]{64}$/u.test(keyid)) return { problem: 'keyid is not 64 lowercase hex digits' };
  const raw = typeof publicKey === 'string' && /^[A-Za-z0-9+/]{43}=$/u.test(publicKey) ? Buffer.from(publicKey, 'base64') : undefined;
  if (raw?.byteLength !== 32) return { problem: 'public_key is not base64 of 32 bytes' };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  } catch {
    return { problem: 'public_key is not an Ed25519 public key' };
  }
  if (keyIdOf(key) !== keyid) return { problem: `keyid ${keyid} is not the sha256 of its public_key` };
  return { keyid, key };
}
