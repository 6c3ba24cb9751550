/**
 * The catalogue's signed snapshot, after TUF's snapshot role (The Update Framework
 * specification, section 4.4 "File formats: snapshot.json"): the sha256 and size of every
 * versions document (`api/loadouts/<id>/versions.json`, DESIGN.md section 8) and of the
 * catalogue index (`api/loadouts.json`), when it was made and until when it may be trusted.
 * The build signs one per build as a DSSE envelope ({@link SNAPSHOT_PAYLOAD_TYPE}) published
 * at {@link SNAPSHOT_PATH}; the chain of trust runs from the signature to the snapshot, from
 * the snapshot to each versions document, and from each document's sha256 to each file.
 * Pure; only `node:crypto` (and `catalogue/show-value.ts` for messages).
 */
import { signEnvelope, type DsseEnvelope } from './dsse.js';
import type { SigningKey } from './keys.js';
import { showValue } from '../../catalogue/show-value.js';

/** The DSSE payload type of a snapshot (DSSE `protocol.md`: a media type in `application/vnd`). */
export const SNAPSHOT_PAYLOAD_TYPE = 'application/vnd.loadout.snapshot+json';
/** `_type` of a snapshot. */
export const SNAPSHOT_TYPE = 'loadout-snapshot';
/** `spec_version` of the snapshots this code writes and reads. */
export const SNAPSHOT_SPEC_VERSION = 1;
/** Where the signed snapshot is published in the tree (a catalogue document: revalidated, tree-headers.ts). */
export const SNAPSHOT_PATH = 'api/v1/snapshot.dsse.json';
/** Where the maintainers' key rotation statement is published, when there is one (rotation.ts). */
export const ROTATION_PATH = 'api/v1/rotation.dsse.json';
/** The catalogue index, which the snapshot covers too. */
export const CATALOGUE_INDEX_PATH = 'api/loadouts.json';
/** Default validity of a snapshot, in days. */
export const DEFAULT_EXPIRY_DAYS = 30;

/** The tree path of loadout `id`'s versions document. */
export const versionsDocumentPath = (id: string): string => `api/loadouts/${id}/versions.json`;

/** The sha256 (lowercase hex) and size in bytes of one document as published. */
export interface DocumentDigest {
  sha256: string;
  bytes: number;
}

/** The snapshot payload. Times are ISO 8601 UTC (`2026-11-25T18:00:00.000Z`). */
export interface Snapshot {
  _type: typeof SNAPSHOT_TYPE;
  spec_version: typeof SNAPSHOT_SPEC_VERSION;
  generated_at: string;
  expires: string;
  /** The `{base_url}` the tree was built for (informative: a mirror serves the same snapshot elsewhere). */
  base_url?: string;
  /** Tree path → digest, for every versions document and the catalogue index. */
  documents: Record<string, DocumentDigest>;
}

/**
 * The snapshot of `documents` made at `generatedAt`, valid `expiresInDays` days (default
 * {@link DEFAULT_EXPIRY_DAYS}); documents are listed in path order so the bytes are stable. Pure.
 */
export function makeSnapshot(input: { generatedAt: Date; expiresInDays?: number; baseUrl?: string; documents: ReadonlyMap<string, DocumentDigest> }): Snapshot {
  const days = input.expiresInDays ?? DEFAULT_EXPIRY_DAYS;
  const documents: Record<string, DocumentDigest> = {};
  for (const path of [...input.documents.keys()].sort()) documents[path] = input.documents.get(path) as DocumentDigest;
  return {
    _type: SNAPSHOT_TYPE,
    spec_version: SNAPSHOT_SPEC_VERSION,
    generated_at: input.generatedAt.toISOString(),
    expires: new Date(input.generatedAt.getTime() + days * 86_400_000).toISOString(),
    ...(input.baseUrl === undefined ? {} : { base_url: input.baseUrl }),
    documents,
  };
}

/** Signs `snapshot` with `key` as a DSSE envelope. */
export function signSnapshot(snapshot: Snapshot, key: SigningKey): DsseEnvelope {
  return signEnvelope(SNAPSHOT_PAYLOAD_TYPE, Buffer.from(JSON.stringify(snapshot), 'utf8'), key.privateKey, key.published.keyid);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/u;

/** True when `value` is an ISO 8601 UTC time that `Date` reads. */
export const isIsoTime = (value: unknown): value is string => typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value));

/** Parses a snapshot payload (UTF-8 JSON), or says what is wrong with it in one line. Pure. */
export function parseSnapshot(body: Uint8Array): Snapshot | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return { problem: 'the payload is not JSON' };
  }
  if (!isObject(value)) return { problem: 'the payload is not an object' };
  if (value['_type'] !== SNAPSHOT_TYPE) return { problem: `_type is ${showValue(value['_type'])} (expected "${SNAPSHOT_TYPE}")` };
  if (value['spec_version'] !== SNAPSHOT_SPEC_VERSION) return { problem: `spec_version is ${showValue(value['spec_version'])} (expected ${SNAPSHOT_SPEC_VERSION})` };
  for (const field of ['generated_at', 'expires']) if (!isIsoTime(value[field])) return { problem: `${field} is not an ISO 8601 UTC time` };
  if (value['base_url'] !== undefined && typeof value['base_url'] !== 'string') return { problem: 'base_url is not a string' };
  const documents = value['documents'];
  if (!isObject(documents)) return { problem: 'documents is not an object' };
  for (const [path, digest] of Object.entries(documents)) {
    if (!isObject(digest) || typeof digest['sha256'] !== 'string' || !/^[0-9a-f]{64}$/u.test(digest['sha256']) || !Number.isSafeInteger(digest['bytes']) || (digest['bytes'] as number) < 0) {
      return { problem: `documents[${showValue(path)}] is not {sha256: 64 hex digits, bytes: integer}` };
    }
  }
  return value as unknown as Snapshot;
}
