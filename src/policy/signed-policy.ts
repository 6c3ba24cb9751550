/**
 * A signed policy (issue 55, point 1: "may itself be required to be signed"): the policy's YAML
 * as the payload of a DSSE envelope (payload type {@link POLICY_PAYLOAD_TYPE}), signed with an
 * Ed25519 key by the catalogue's own machinery (`tree-format/signing/`: the same envelope, PAE,
 * keys and key ids as the signed snapshot, docs/signing.md). The bytes signed are the YAML
 * text itself, so a problem in it still names its line and column.
 *
 * Trust comes from where the policy is used, never from the document: the public keys that may
 * sign it are given with it (`--policy-key`, `LOADOUT_POLICY_KEY`), and with such a key an
 * unsigned policy, or one signed by another key, is refused. An envelope read without a key to
 * check it is refused too: a signature nobody checks is not kept as if it meant something. A
 * signature proves who wrote the policy, not that it is the newest they wrote (docs/policy.md,
 * "A signed policy"). Pure; only `node:crypto`.
 */
import { signEnvelope, type DsseEnvelope } from '../tree-format/signing/dsse.js';
import { SIGNING_ALGORITHM, trustPublishedKey, type SigningKey, type TrustedKey } from '../tree-format/signing/keys.js';
import { verifyEnvelope } from '../tree-format/signing/verify.js';
import { createHash } from 'node:crypto';

/** The DSSE payload type of a signed policy. */
export const POLICY_PAYLOAD_TYPE = 'application/vnd.loadout.policy+yaml';

/** The variable that names the public keys that may sign the policy, when `--policy-key` does not (comma-separated). */
export const POLICY_KEY_VARIABLE = 'LOADOUT_POLICY_KEY';

/** `keys` signing `text` (a policy's YAML): the envelope to publish as JSON. The private keys never leave this call. */
export function signPolicy(text: string, keys: readonly SigningKey[]): DsseEnvelope {
  const body = Buffer.from(text, 'utf8');
  const signatures = keys.flatMap((k) => signEnvelope(POLICY_PAYLOAD_TYPE, body, k.privateKey, k.published.keyid).signatures);
  return { payloadType: POLICY_PAYLOAD_TYPE, payload: body.toString('base64'), signatures };
}

/**
 * A public key given to check a policy: base64 of the raw 32-byte Ed25519 key, as a catalogue's
 * description document publishes `public_key` (docs/signing.md); its key id is the sha256 of
 * those bytes. Returns a problem in words for anything else. Pure.
 */
export function readPolicyKey(text: string): TrustedKey | { problem: string } {
  const raw = /^[A-Za-z0-9+/]{43}=$/u.test(text.trim()) ? Buffer.from(text.trim(), 'base64') : undefined;
  if (raw?.byteLength !== 32) return { problem: `${JSON.stringify(text.slice(0, 60))} is not a public key (expected base64 of the raw 32-byte Ed25519 key, as signing.keys[].public_key of a catalogue's api/v1/index.json gives it)` };
  const key = trustPublishedKey({ keyid: createHash('sha256').update(raw).digest('hex'), algorithm: SIGNING_ALGORITHM, public_key: text.trim() });
  return 'problem' in key ? { problem: `the public key ${key.problem}` } : key;
}

/** What {@link openPolicyDocument} found: the policy's text and who signed it, or why it is refused. */
export type OpenedPolicy = { ok: true; text: string; signedBy: string[] | null } | { ok: false; problem: string };

/** True when `text` is (the start of) a JSON object: a policy's YAML never starts with `{"payloadType"`, an envelope always is JSON. */
function looksLikeEnvelope(text: string): boolean {
  return /^\s*\{\s*"(?:payloadType|payload|signatures)"/u.test(text);
}

/**
 * The policy text in `bytes`: the YAML itself, or the payload of a signed envelope verified with
 * `keys`. With `keys` (one or more), an unsigned policy is refused; without, an envelope is.
 * Never throws.
 */
export function openPolicyDocument(bytes: Uint8Array, keys: readonly TrustedKey[]): OpenedPolicy {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: 'is not UTF-8 text (expected the YAML of a policy, or a DSSE envelope of one)' };
  }
  if (!looksLikeEnvelope(text)) {
    if (keys.length > 0) return { ok: false, problem: `is not signed, but a policy key was given (${keys.map((k) => k.keyid).join(', ')}): expected a DSSE envelope of the policy signed by it (loadout policy sign)` };
    return { ok: true, text, signedBy: null };
  }
  if (keys.length === 0) return { ok: false, problem: 'is a signed policy (a DSSE envelope), but no key was given to check it (expected --policy-key or LOADOUT_POLICY_KEY with the public key that signs it)' };
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `is not a JSON envelope (${(error as Error).message})` };
  }
  const verified = verifyEnvelope(envelope, POLICY_PAYLOAD_TYPE, keys);
  if (!verified.ok) return { ok: false, problem: `does not verify: ${verified.failure.message}` };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(verified.body), signedBy: verified.keyids };
  } catch {
    return { ok: false, problem: 'has a payload that is not UTF-8 text (expected the YAML of a policy)' };
  }
}
