/**
 * Key rotation statements: the maintainers' new list of signing keys, signed by keys that an
 * installer already trusts (as a TUF root signed by the previous root's keys, The Update
 * Framework specification section 5.3.4). The statement carries the public keys of its
 * signers too, so an installer that pinned only key ids can check them: a key id is the
 * sha256 of the public key (keys.ts). Several statements in order (a JSON array of
 * envelopes) make a chain, for installers that pinned a key two rotations ago. Pure; only
 * `node:crypto`.
 */
import { signEnvelope, type DsseEnvelope } from './dsse.js';
import { publishKey, type PublishedKey, type SigningKey } from './keys.js';
import { createPublicKey } from 'node:crypto';

/** The DSSE payload type of a rotation statement. */
export const ROTATION_PAYLOAD_TYPE = 'application/vnd.loadout.key-rotation+json';
/** `_type` of a rotation statement. */
export const ROTATION_TYPE = 'loadout-key-rotation';

/** The payload of a rotation statement. */
export interface RotationStatement {
  _type: typeof ROTATION_TYPE;
  spec_version: 1;
  /** ISO 8601 UTC. */
  generated_at: string;
  /** The keys that sign the catalogue from now on (they replace the signers). */
  keys: PublishedKey[];
  /** The public keys of the keys that sign this statement. */
  signers: PublishedKey[];
}

/**
 * A rotation statement to `keys`, signed by every key of `signers` (one DSSE signature each).
 * `signers` are the keys installers trust now; the private keys never leave this call.
 */
export function signRotation(keys: readonly PublishedKey[], signers: readonly SigningKey[], generatedAt: Date): DsseEnvelope {
  const statement: RotationStatement = { _type: ROTATION_TYPE, spec_version: 1, generated_at: generatedAt.toISOString(), keys: [...keys], signers: signers.map((s) => publishKey(createPublicKey(s.privateKey))) };
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  const signatures = signers.flatMap((s) => signEnvelope(ROTATION_PAYLOAD_TYPE, body, s.privateKey, s.published.keyid).signatures);
  return { payloadType: ROTATION_PAYLOAD_TYPE, payload: body.toString('base64'), signatures };
}
