/**
 * Verifying what a catalogue signed: the snapshot envelope ({@link verifySnapshot}) and the
 * chain of rotation statements that moves trust from pinned keys to new ones
 * ({@link applyRotations}). Failures are data, typed by what failed, so that the installer can
 * name the document and refuse before writing anything. Pure; only `node:crypto`.
 *
 * An envelope is accepted when at least one of its signatures verifies with a trusted key
 * (DSSE `protocol.md`, "Multi-signature Verification" with threshold 1); the `keyid` of a
 * signature only selects the key to try (DSSE: the key id is not authenticated).
 */
import { parseEnvelope, decodeBase64, verifyEnvelopeSignature } from './dsse.js';
import { MAX_PUBLISHED_KEYS, trustPublishedKey, type TrustedKey } from './keys.js';
import { showValue } from '../../catalogue/show-value.js';
import { ROTATION_PAYLOAD_TYPE, ROTATION_TYPE, type RotationStatement } from './rotation.js';
import { isIsoTime, parseSnapshot, SNAPSHOT_PAYLOAD_TYPE, type Snapshot } from './snapshot.js';

/**
 * What failed: `malformed` (not an envelope, another payload type, a payload that is not a
 * snapshot), `unknown-key` (no signature by a trusted key), `bad-signature` (a trusted key's
 * signature does not verify: the payload was changed), `expired` (`expires` is past),
 * `rollback` (older than a snapshot already seen).
 */
export type SigningFailureKind = 'malformed' | 'unknown-key' | 'bad-signature' | 'expired' | 'rollback';

/** A failed verification: its kind and a one-line message saying what was found and expected. */
export interface SigningFailure {
  kind: SigningFailureKind;
  message: string;
}

/** The result of {@link verifySnapshot}. `keyids`: the trusted keys whose signatures verified. */
export type SnapshotVerification = { ok: true; snapshot: Snapshot; keyids: string[] } | { ok: false; failure: SigningFailure };

const fail = (kind: SigningFailureKind, message: string): { ok: false; failure: SigningFailure } => ({ ok: false, failure: { kind, message } });

/** Verifies the envelope `value` of `payloadType` against `trusted`: its decoded body and the key ids that verified, or a failure (`malformed`, `unknown-key`, `bad-signature`). Pure. */
export function verifyEnvelope(value: unknown, payloadType: string, trusted: readonly TrustedKey[]): { ok: true; body: Buffer; keyids: string[] } | { ok: false; failure: SigningFailure } {
  const parsed = parseEnvelope(value);
  if ('problem' in parsed) return fail('malformed', `the envelope ${parsed.problem}`);
  const { envelope, body } = parsed;
  if (envelope.payloadType !== payloadType) return fail('malformed', `payloadType is ${JSON.stringify(envelope.payloadType)} (expected "${payloadType}")`);
  const verified = new Set<string>();
  let tried = 0;
  for (const { keyid, sig } of envelope.signatures) {
    const candidates = keyid === '' ? trusted : trusted.filter((k) => k.keyid === keyid);
    tried += candidates.length;
    const bytes = decodeBase64(sig) as Buffer;
    for (const k of candidates) if (verifyEnvelopeSignature(payloadType, body, bytes, k.key)) verified.add(k.keyid);
  }
  if (verified.size > 0) return { ok: true, body, keyids: [...verified].sort() };
  // A key id is a hint the envelope's author chose: anything but 64 hex digits is shown quoted and cut.
  const named = envelope.signatures.map((s) => (s.keyid === '' ? '(no key id)' : /^[0-9a-f]{64}$/u.test(s.keyid) ? s.keyid : showValue(s.keyid))).join(', ');
  if (tried === 0) return fail('unknown-key', `signed by ${named}, none of them a trusted key (trusted: ${trusted.map((k) => k.keyid).join(', ') || 'none'})`);
  return fail('bad-signature', `the signature by ${named} does not verify: the payload was changed after signing, or signed by another key under that id`);
}

/**
 * Verifies a snapshot envelope (parsed JSON) against `trusted` keys, then checks its times:
 * refused when `expires` ≤ `now` (TUF specification 5.6.4, expiry of the snapshot) or when
 * `generated_at` is before `lastSeenGeneratedAt`, the newest `generated_at` this catalogue's
 * consumer has accepted (TUF 5.5.5, rollback). The same snapshot seen again is not a rollback.
 * Pure.
 */
export function verifySnapshot(value: unknown, trusted: readonly TrustedKey[], options: { now: Date; lastSeenGeneratedAt?: string }): SnapshotVerification {
  const envelope = verifyEnvelope(value, SNAPSHOT_PAYLOAD_TYPE, trusted);
  if (!envelope.ok) return envelope;
  const snapshot = parseSnapshot(envelope.body);
  if ('problem' in snapshot) return fail('malformed', `the signed snapshot is not valid: ${snapshot.problem}`);
  if (Date.parse(snapshot.expires) <= options.now.getTime()) return fail('expired', `the snapshot expired at ${snapshot.expires} (now ${options.now.toISOString()}); the catalogue has not been rebuilt and signed since`);
  const seen = options.lastSeenGeneratedAt;
  if (seen !== undefined && Date.parse(snapshot.generated_at) < Date.parse(seen)) {
    return fail('rollback', `the snapshot was generated at ${snapshot.generated_at}, before the one already seen from this catalogue (${seen}): an older signed snapshot is being replayed`);
  }
  return { ok: true, snapshot, keyids: envelope.keyids };
}

/** What {@link applyRotations} found. */
export interface RotationOutcome {
  /** The key ids trusted after every statement that applies (the pinned ones when none does). */
  keyids: string[];
  /** The public keys that the applied statements name, by key id. */
  keys: Map<string, TrustedKey>;
  /** How many statements were applied, in order. */
  applied: number;
  /** Statements that did not apply, each with why (for messages). */
  problems: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The most rotation statements read: a catalogue rotates its key rarely, and the walk below is quadratic in their number. */
export const MAX_ROTATIONS = 64;

/**
 * Walks rotation statements (one envelope, or an array of them oldest first) from the
 * `pinned` key ids: a statement whose signature verifies with a key it names among its
 * `signers` whose id is trusted replaces the trusted ids with its `keys`. Statements that do
 * not verify are skipped with a problem (they cannot move trust). Pure.
 */
export function applyRotations(value: unknown, pinned: readonly string[]): RotationOutcome {
  const statements = Array.isArray(value) ? value : [value];
  if (statements.length > MAX_ROTATIONS) return { keyids: [...pinned].sort(), keys: new Map(), applied: 0, problems: [`${statements.length} statements (expected at most ${MAX_ROTATIONS}): none applied`] };
  let trusted = new Set(pinned);
  const keys = new Map<string, TrustedKey>();
  const problems: string[] = [];
  let applied = 0;
  const pending = statements.map((s, i) => ({ s, i }));
  // A statement may apply only after an earlier one in the list moved trust: walk until nothing changes.
  for (let progress = true; progress; ) {
    progress = false;
    for (const item of [...pending]) {
      const parsed = parseEnvelope(item.s);
      if ('problem' in parsed) {
        problems.push(`statement ${item.i}: the envelope ${parsed.problem}`);
        pending.splice(pending.indexOf(item), 1);
        continue;
      }
      let statement: unknown;
      try {
        statement = JSON.parse(parsed.body.toString('utf8'));
      } catch {
        statement = undefined;
      }
      const listed = (field: string): boolean => isObject(statement) && Array.isArray(statement[field]) && statement[field].length <= MAX_PUBLISHED_KEYS;
      if (!isObject(statement) || statement['_type'] !== ROTATION_TYPE || !listed('keys') || !listed('signers') || !isIsoTime(statement['generated_at'])) {
        problems.push(`statement ${item.i}: not a rotation statement`);
        pending.splice(pending.indexOf(item), 1);
        continue;
      }
      const signers = (statement['signers'] as unknown[]).map(trustPublishedKey).filter((k): k is TrustedKey => 'key' in k && trusted.has(k.keyid));
      const verified = verifyEnvelope(item.s, ROTATION_PAYLOAD_TYPE, signers);
      if (!verified.ok) continue;
      const next = (statement as unknown as RotationStatement).keys.map(trustPublishedKey);
      const bad = next.find((k): k is { problem: string } => 'problem' in k);
      pending.splice(pending.indexOf(item), 1);
      if (bad !== undefined || next.length === 0) {
        problems.push(`statement ${item.i}: a new key ${bad?.problem ?? 'list is empty'}`);
        continue;
      }
      trusted = new Set(next.map((k) => (k as TrustedKey).keyid));
      for (const k of next as TrustedKey[]) keys.set(k.keyid, k);
      applied++;
      progress = true;
    }
  }
  for (const item of pending) problems.push(`statement ${item.i}: not signed by a trusted key`);
  return { keyids: [...trusted].sort(), keys, applied, problems };
}
