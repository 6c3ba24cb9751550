/**
 * The Dead Simple Signing Envelope (DSSE, secure-systems-lab/dsse `envelope.md` and
 * `protocol.md` v1.0.0), the envelope of in-toto attestations and Sigstore bundles:
 * `{payloadType, payload, signatures: [{keyid, sig}]}`, where `payload` and `sig` are base64
 * and each signature is over the pre-authentication encoding {@link encodePae} of the payload
 * type and the payload's bytes, never over the JSON text of the envelope. Pure; only
 * `node:crypto`.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

/** One signature of an envelope: `sig` is base64 of the raw signature; `keyid` a hint naming the key (DSSE: not authenticated). */
export interface DsseSignature {
  keyid: string;
  sig: string;
}

/** A DSSE envelope (DSSE `envelope.md`). `payload` is base64 of the serialised body. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

/**
 * PAE(type, body) = `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, LEN the byte
 * length in ASCII decimal without leading zeros (DSSE `protocol.md`, "Signature Definition";
 * its test vector: `DSSEv1 29 http://example.com/HelloWorld 11 hello world`). Pure.
 */
export function encodePae(payloadType: string, body: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.byteLength} `, 'utf8'), type, Buffer.from(` ${body.byteLength} `, 'utf8'), body]);
}

/**
 * Signs `body` as `payloadType` with the Ed25519 `privateKey` (RFC 8032; Node's `sign(null, …)`),
 * naming the key `keyid`.
 * @throws the crypto error when `privateKey` is not an Ed25519 private key (the message never holds the key)
 */
export function signEnvelope(payloadType: string, body: Uint8Array, privateKey: KeyObject, keyid: string): DsseEnvelope {
  const sig = sign(null, encodePae(payloadType, body), privateKey);
  return { payloadType, payload: Buffer.from(body).toString('base64'), signatures: [{ keyid, sig: sig.toString('base64') }] };
}

/** True when `sig` (raw bytes) is `publicKey`'s Ed25519 signature of the envelope's PAE. */
export function verifyEnvelopeSignature(payloadType: string, body: Uint8Array, sig: Uint8Array, publicKey: KeyObject): boolean {
  try {
    return verify(null, encodePae(payloadType, body), publicKey, sig);
  } catch {
    return false;
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/u;
const BASE64URL = /^[A-Za-z0-9_-]*$/u;

/**
 * Decodes standard or URL-safe base64 (DSSE `protocol.md`: verifiers must accept either);
 * undefined when `text` is neither (Node's decoder would skip bad characters silently). Pure.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (BASE64.test(text)) return Buffer.from(text, 'base64');
  if (BASE64URL.test(text) && text.length % 4 !== 1) return Buffer.from(text, 'base64url');
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The most signatures an envelope may carry. DSSE sets no limit; a catalogue signs with one key,
 * a rotation with the few it trusts, and each signature without a key id is tried with every
 * trusted key, so 70,000 of them took 12 s of CPU (issue 35, point 9).
 */
export const MAX_SIGNATURES = 16;

/**
 * Checks that `value` (parsed JSON) has the envelope's shape: a string `payloadType`, a base64
 * `payload` and an array of 1 to {@link MAX_SIGNATURES} `{keyid?: string, sig: base64}`.
 * Returns the envelope with its payload decoded, or a one-line problem. Pure.
 */
export function parseEnvelope(value: unknown): { envelope: DsseEnvelope; body: Buffer } | { problem: string } {
  if (!isObject(value)) return { problem: 'is not a JSON object (expected a DSSE envelope)' };
  const { payloadType, payload, signatures } = value;
  if (typeof payloadType !== 'string') return { problem: 'payloadType is not a string' };
  const body = typeof payload === 'string' ? decodeBase64(payload) : undefined;
  if (body === undefined) return { problem: 'payload is not base64' };
  if (!Array.isArray(signatures) || signatures.length === 0) return { problem: 'signatures is not a non-empty array' };
  if (signatures.length > MAX_SIGNATURES) return { problem: `signatures has ${signatures.length} entries (expected at most ${MAX_SIGNATURES})` };
  const sigs: DsseSignature[] = [];
  for (const [i, s] of signatures.entries()) {
    if (!isObject(s) || typeof s['sig'] !== 'string' || decodeBase64(s['sig']) === undefined) return { problem: `signatures[${i}].sig is not base64` };
    if (s['keyid'] !== undefined && typeof s['keyid'] !== 'string') return { problem: `signatures[${i}].keyid is not a string` };
    sigs.push({ keyid: typeof s['keyid'] === 'string' ? s['keyid'] : '', sig: s['sig'] });
  }
  return { envelope: { payloadType, payload: payload as string, signatures: sigs }, body };
}
