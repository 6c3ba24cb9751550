/**
 * The consumer's check of a signed catalogue (DESIGN.md "Signing"; docs/signing.md): before
 * the reader trusts any hash a versions document publishes, the catalogue's signed snapshot
 * (tree-format/signing/snapshot.ts) is verified against the keys the lock pinned for this
 * catalogue, or on first use the keys its description document declares (trust on first use,
 * as SSH does), moved on by a rotation statement signed by a pinned key, or named by the user
 * (`--trust-key`). Then every versions document read must have the sha256 and size the
 * snapshot lists. The chain: signature → snapshot → versions document → file.
 *
 * A catalogue that declares no keys and publishes no snapshot is unsigned: it is read with a
 * one-line notice, or refused with `requireSigned`, or when the lock pinned keys for it.
 */
import { createHash } from 'node:crypto';
import { DESCRIPTION_TREE_PATH } from '../../tree-format/addresses.js';
import { ConsumerError } from '../errors.js';
import { MAX_PUBLISHED_KEYS, trustPublishedKey, type TrustedKey } from '../../tree-format/signing/keys.js';
import { ROTATION_PATH, SNAPSHOT_PATH, versionsDocumentPath, type Snapshot } from '../../tree-format/signing/snapshot.js';
import { applyRotations, verifySnapshot, type SigningFailureKind } from '../../tree-format/signing/verify.js';

/** The address of the description document's static copy (DESIGN.md section 5). */
export const DESCRIPTION_PATH = DESCRIPTION_TREE_PATH;

/** What the lock keeps of a signed catalogue: the key ids it trusts and the newest snapshot time accepted. */
export interface CatalogueTrust {
  keyids: string[];
  /** ISO 8601 UTC `generated_at` of the newest snapshot accepted. */
  generated_at: string;
}

/** How the user wants signatures treated. */
export interface SigningPolicy {
  /** Refuse a catalogue that is not signed (`--require-signed`). */
  requireSigned?: boolean;
  /** Key ids to trust besides the pinned ones (`--trust-key`), for a key the maintainers announced. */
  trustKeys?: readonly string[];
  /** The time expiry is judged at; default now. */
  now?: Date;
}

/** What the check found. */
export interface SigningState {
  /** The verified snapshot; undefined for an unsigned catalogue. */
  snapshot: Snapshot | undefined;
  /** What the lock should keep for this catalogue after the command; undefined when unsigned. */
  trust: CatalogueTrust | undefined;
  /** A one-line notice for the user (an unsigned catalogue, a rotation followed), or undefined. */
  notice: string | undefined;
}

/** Reads a document of the catalogue by tree path; undefined when the catalogue has none there (404, no such file). */
export type DocumentReader = (path: string) => Promise<Uint8Array | undefined>;

/** Permanent names of the signing failures (the consumer error catalogue's, install/errors.ts). */
export type SigningErrorName = 'BadSignature' | 'UnknownKey' | 'Rollback' | 'Expired' | 'UnsignedCatalogue' | 'HashMismatch' | 'InvalidCatalogue';

/** Hints where the catalogue's own would mislead (it speaks of files, not documents). */
const HINTS: Partial<Record<SigningErrorName, string>> = {
  HashMismatch: 'The catalogue or a proxy changed the document after it was signed; nothing was written. Tell its maintainers.',
};

const refusals = new WeakSet<object>();

/** A refusal, with its permanent name. */
export function signingError(name: SigningErrorName, message: string): ConsumerError {
  const hint = HINTS[name];
  const error = new ConsumerError(name, message, hint === undefined ? {} : { hint });
  refusals.add(error);
  return error;
}

/** True for an error of {@link signingError}: the catalogue's signing was refused. */
export const isSigningRefusal = (error: unknown): boolean => typeof error === 'object' && error !== null && refusals.has(error);

const KIND_NAMES: Record<SigningFailureKind, SigningErrorName> = { 'bad-signature': 'BadSignature', 'unknown-key': 'UnknownKey', expired: 'Expired', rollback: 'Rollback', malformed: 'InvalidCatalogue' };

const parseJson = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
};

/** The keys the description document declares (`signing.keys`, at most `MAX_PUBLISHED_KEYS`), checked. @throws `InvalidCatalogue` for a malformed key or too many */
function declaredKeys(description: unknown, where: string): TrustedKey[] {
  const signing = (description as { signing?: { keys?: unknown } } | undefined)?.signing;
  if (signing === undefined) return [];
  if (!Array.isArray(signing.keys)) throw signingError('InvalidCatalogue', `${where}: signing.keys is not an array (expected [{keyid, algorithm, public_key}])`);
  if (signing.keys.length > MAX_PUBLISHED_KEYS) throw signingError('InvalidCatalogue', `${where}: signing.keys has ${signing.keys.length} keys (expected at most ${MAX_PUBLISHED_KEYS})`);
  return signing.keys.map((k: unknown, i) => {
    const key = trustPublishedKey(k);
    if ('problem' in key) throw signingError('InvalidCatalogue', `${where}: signing.keys[${i}] ${key.problem}`);
    return key;
  });
}

/**
 * Which keys were trusted, for an `UnknownKey` refusal: the keys the lock pins for `location`
 * (or, on first use, those the catalogue declares), and those `--trust-key` added. Pure.
 */
function describeTrust(location: string, pinned: CatalogueTrust | undefined, added: readonly string[], trusted: readonly string[]): string {
  const parts = [pinned === undefined ? `first use: the keys ${location} declares, ${trusted.filter((id) => !added.includes(id)).join(', ') || 'none'}` : `the lock pins ${pinned.keyids.join(', ')} for ${location}`];
  if (added.length > 0) parts.push(`--trust-key ${added.join(', ')}`);
  return `trusted: ${parts.join('; ')}`;
}

/**
 * Checks the signing of the catalogue at `location` (for messages), reading its documents
 * with `read`; `pinned` is what the lock keeps for it.
 * @throws ConsumerError `BadSignature`, `UnknownKey`, `Rollback`, `Expired`,
 *   `UnsignedCatalogue` or `InvalidCatalogue`, naming the document and what
 *   failed; the reader's errors
 */
export async function checkCatalogueSigning(read: DocumentReader, location: string, pinned: CatalogueTrust | undefined, policy: SigningPolicy = {}): Promise<SigningState> {
  const at = (path: string): string => `${location}/${path}`;
  const [descriptionBytes, envelopeBytes] = await Promise.all([read(DESCRIPTION_PATH), read(SNAPSHOT_PATH)]);
  const declared = descriptionBytes === undefined ? [] : declaredKeys(parseJson(descriptionBytes), at(DESCRIPTION_PATH));
  if (envelopeBytes === undefined) {
    if (declared.length > 0) throw signingError('BadSignature', `${at(SNAPSHOT_PATH)} is missing, but ${at(DESCRIPTION_PATH)} declares signing keys (${declared.map((k) => k.keyid).join(', ')}): the signed snapshot was removed`);
    if (pinned !== undefined) throw signingError('BadSignature', `${at(SNAPSHOT_PATH)} is missing, but the lock pinned signing keys for ${location} (${pinned.keyids.join(', ')}): the catalogue was signed before`);
    if (policy.requireSigned === true) throw signingError('UnsignedCatalogue', `${location} is not signed (no ${SNAPSHOT_PATH}; expected a signed catalogue, --require-signed)`);
    return { snapshot: undefined, trust: undefined, notice: `${location} is not signed: files are checked against hashes that whoever can change the catalogue can change too` };
  }
  const envelope = parseJson(envelopeBytes);
  // The keys that may sign: pinned ones (by id; their public keys from the description or a rotation), else those declared (first use).
  const known = new Map(declared.map((k) => [k.keyid, k]));
  let trustedIds = new Set(pinned?.keyids ?? declared.map((k) => k.keyid));
  let notice: string | undefined;
  if (pinned !== undefined) {
    const rotationBytes = await read(ROTATION_PATH);
    if (rotationBytes !== undefined) {
      const rotation = applyRotations(parseJson(rotationBytes), pinned.keyids);
      if (rotation.applied > 0) {
        trustedIds = new Set(rotation.keyids);
        for (const [id, key] of rotation.keys) known.set(id, key);
        notice = `${location} rotated its signing key to ${rotation.keyids.join(', ')} (${at(ROTATION_PATH)}, signed by a pinned key)`;
      }
    }
  }
  for (const id of policy.trustKeys ?? []) trustedIds.add(id);
  const trusted = [...known.values()].filter((k) => trustedIds.has(k.keyid));
  const result = verifySnapshot(envelope, trusted, { now: policy.now ?? new Date(), ...(pinned === undefined ? {} : { lastSeenGeneratedAt: pinned.generated_at }) });
  if (!result.ok) {
    // The verifier names the keys it could try; the user needs the ones this project trusts, by id, whether or not the catalogue still publishes them.
    const message = result.failure.kind === 'unknown-key' ? result.failure.message.replace(/ \(trusted: [^()]*\)$/u, ` (${describeTrust(location, pinned, policy.trustKeys ?? [], [...trustedIds])})`) : result.failure.message;
    throw signingError(KIND_NAMES[result.failure.kind], `${at(SNAPSHOT_PATH)}: ${message}`);
  }
  // A snapshot that covers the description document (builds since it did) vouches for the keys and the CLI it names too.
  if (descriptionBytes !== undefined && result.snapshot.documents[DESCRIPTION_PATH] !== undefined) checkDocumentDigest(result.snapshot, DESCRIPTION_PATH, descriptionBytes, at(DESCRIPTION_PATH));
  const newest = pinned !== undefined && Date.parse(pinned.generated_at) > Date.parse(result.snapshot.generated_at) ? pinned.generated_at : result.snapshot.generated_at;
  return { snapshot: result.snapshot, trust: { keyids: result.keyids, generated_at: newest }, notice };
}

/**
 * Checks the bytes of loadout `id`'s versions document, read from `where`, against the
 * verified `snapshot`; does nothing for an unsigned catalogue (`snapshot` undefined).
 * @throws ConsumerError `HashMismatch` when the document is not listed or differs
 */
export function checkVersionsDigest(snapshot: Snapshot | undefined, id: string, bytes: Uint8Array, where: string): void {
  if (snapshot === undefined) return;
  checkDocumentDigest(snapshot, versionsDocumentPath(id), bytes, where, `loadout ${id} was not published by the key's holder`);
}

/**
 * Checks `bytes`, the document at tree path `path` read from `where`, against the sha256 and
 * size the verified `snapshot` lists for it. `unlisted` says what an unlisted document means.
 * @throws ConsumerError `HashMismatch` when the document is not listed or differs
 */
export function checkDocumentDigest(snapshot: Snapshot, path: string, bytes: Uint8Array, where: string, unlisted = 'the key\'s holder did not publish it'): void {
  const listed = snapshot.documents[path];
  if (listed === undefined) throw signingError('HashMismatch', `${where} is not listed in the signed snapshot (generated at ${snapshot.generated_at}): ${unlisted}`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== listed.sha256 || bytes.byteLength !== listed.bytes) {
    throw signingError('HashMismatch', `${where} has sha256 ${sha256} (${bytes.byteLength} bytes), not the ${listed.sha256} (${listed.bytes} bytes) the signed snapshot lists: it was changed after signing`);
  }
}
