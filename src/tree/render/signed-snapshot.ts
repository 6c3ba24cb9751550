/**
 * Signing a build (DESIGN.md "Signing"): with the maintainers' Ed25519 key, the build signs
 * one snapshot (tree-format/signing/snapshot.ts) of every versions document and of the
 * catalogue index, on the main thread, in the step that writes the catalogue documents. The
 * versions documents stay content-keyed entries of the store that never change once written
 * (store.ts): the expiry lives in the snapshot alone, so a new window re-signs one small file.
 *
 * A versions document's digest is read once from its entry in the store and kept by entry
 * name in the tree's dot file {@link DIGESTS_FILE} (never published: tree-headers.ts
 * `isPublishedPath`), so a rebuild hashes only the documents of the loadouts it wrote.
 *
 * The private key is read from the environment by {@link takeSigningSettings}, which removes
 * it from the environment so that no worker thread or child process (git) started later
 * inherits it; it is never written, logged, or quoted in an error.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { readSigningKey, SigningKeyError, type SigningKey } from '../../tree-format/signing/keys.js';
import { DEFAULT_EXPIRY_DAYS, makeSnapshot, ROTATION_PATH, signSnapshot, SNAPSHOT_PATH, versionsDocumentPath, type DocumentDigest } from '../../tree-format/signing/snapshot.js';
import type { OutputTree } from '../write/tree-files.js';

/** The environment variable holding the Ed25519 private key (PKCS#8 PEM). */
export const SIGNING_KEY_ENV = 'LOADOUT_SIGNING_KEY';
/** The environment variable naming a file that holds the private key, for where a variable cannot hold a PEM's lines (Docker's and systemd's `_FILE` convention). */
export const SIGNING_KEY_FILE_ENV = 'LOADOUT_SIGNING_KEY_FILE';
/** The environment variable holding the snapshot's validity in days (default 30). */
export const SIGNING_EXPIRES_ENV = 'LOADOUT_SIGNING_EXPIRES_DAYS';
/** The environment variable naming a file that holds a rotation statement (or a JSON array of them) to publish. */
export const SIGNING_ROTATION_ENV = 'LOADOUT_SIGNING_ROTATION';

/** The tree's dot file of versions documents' digests by store entry name. */
export const DIGESTS_FILE = '.loadout-digests.json';

/** How a build signs. */
export interface SigningSettings {
  key: SigningKey;
  /** Validity of each snapshot, in days (may be fractional). */
  expiresInDays: number;
  /** A rotation statement (parsed JSON: one DSSE envelope or an array of them) to publish at {@link ROTATION_PATH}. */
  rotation?: unknown;
}

/** A value of {@link SIGNING_KEY_ENV} that is a file's path rather than PEM text: one line, no PEM armour, naming a file or ending in `.pem`/`.key`. */
function looksLikePath(value: string): boolean {
  const line = value.trim();
  return !line.includes('\n') && !line.includes('-----') && line.length < 4096 && (/\.(?:pem|key)$/iu.test(line) || /^(?:\/|\.{1,2}\/|~\/)/u.test(line) || existsSync(line));
}

/**
 * The private key's PEM text from {@link SIGNING_KEY_ENV}, or read from the file that
 * {@link SIGNING_KEY_FILE_ENV} names; both are removed from `env`. Undefined when neither is set.
 * @throws LoadoutError `config` when both are set, when the key variable holds a path (it holds
 *   the PEM text; the path goes in the `_FILE` variable), or when the file cannot be read
 */
function takePrivateKeyText(env: NodeJS.ProcessEnv): { text: string; from: string } | undefined {
  const pem = env[SIGNING_KEY_ENV];
  const file = env[SIGNING_KEY_FILE_ENV];
  delete env[SIGNING_KEY_ENV];
  delete env[SIGNING_KEY_FILE_ENV];
  const given = pem !== undefined && pem.trim() !== '';
  const givenFile = file !== undefined && file.trim() !== '';
  if (given && givenFile) throw new LoadoutError('config', `${SIGNING_KEY_ENV} and ${SIGNING_KEY_FILE_ENV} are both set (expected one: the key's PEM text, or the path of a file holding it)`);
  if (given) {
    // A path is safe to quote; a value that might be a key never is.
    if (looksLikePath(pem)) throw new LoadoutError('config', `${SIGNING_KEY_ENV} holds a path, ${JSON.stringify(pem.trim())}, not the key's PEM text (expected the text that begins -----BEGIN PRIVATE KEY-----)`, { hint: `Set ${SIGNING_KEY_FILE_ENV}=${pem.trim()} instead, or ${SIGNING_KEY_ENV}="$(cat ${pem.trim()})" (docs/signing.md).` });
    return { text: pem, from: SIGNING_KEY_ENV };
  }
  if (!givenFile) return undefined;
  try {
    return { text: readFileSync(file, 'utf8'), from: `${SIGNING_KEY_FILE_ENV} (${file})` };
  } catch (cause) {
    throw new LoadoutError('config', `${SIGNING_KEY_FILE_ENV}: cannot read ${file} (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}; expected a file holding the Ed25519 private key as PKCS#8 PEM)`, { cause });
  }
}

/**
 * Reads the signing settings from `env` and removes the key from it; undefined when
 * neither {@link SIGNING_KEY_ENV} nor {@link SIGNING_KEY_FILE_ENV} is set (the tree is then
 * unsigned, as before).
 * @throws LoadoutError `config` for a key that is not an Ed25519 PKCS#8 PEM key, a bad
 *   number of days, or a rotation file that cannot be read or is not JSON (messages never
 *   quote the key)
 */
export function takeSigningSettings(env: NodeJS.ProcessEnv): SigningSettings | undefined {
  const pem = takePrivateKeyText(env);
  if (pem === undefined) return undefined;
  let key: SigningKey;
  try {
    key = readSigningKey(pem.text);
  } catch (error) {
    if (error instanceof SigningKeyError) throw new LoadoutError('config', `${pem.from}: ${error.message}`, { hint: 'Make one with `openssl genpkey -algorithm ed25519` (docs/signing.md).' });
    throw error;
  }
  const days = env[SIGNING_EXPIRES_ENV] === undefined || env[SIGNING_EXPIRES_ENV] === '' ? DEFAULT_EXPIRY_DAYS : Number(env[SIGNING_EXPIRES_ENV]);
  if (!Number.isFinite(days) || days <= 0 || days > 366) throw new LoadoutError('config', `${SIGNING_EXPIRES_ENV}: expected a number of days above 0 and at most 366, got ${JSON.stringify(env[SIGNING_EXPIRES_ENV])}`);
  const rotationFile = env[SIGNING_ROTATION_ENV];
  if (rotationFile === undefined || rotationFile === '') return { key, expiresInDays: days };
  let rotation: unknown;
  try {
    rotation = JSON.parse(readFileSync(rotationFile, 'utf8'));
  } catch (cause) {
    throw new LoadoutError('config', `${SIGNING_ROTATION_ENV}: cannot read ${rotationFile} as JSON (${(cause as Error).message}; expected a rotation statement, docs/signing.md)`, { cause });
  }
  return { key, expiresInDays: days, rotation };
}

/**
 * The digests of the versions documents of `loadouts` (id → store entry name), by tree path:
 * from `previous` (the live tree's {@link DIGESTS_FILE}, {@link readVersionsDigests}) for
 * entries already hashed, else read from the entry in `storeDir`. Returns them with the digests
 * by entry name to keep.
 * @throws the file system's error when an entry's versions document cannot be read
 */
export function digestVersionsDocuments(storeDir: string, previous: Readonly<Record<string, [string, number]>>, loadouts: ReadonlyMap<string, string>): { byPath: Map<string, DocumentDigest>; byEntry: Record<string, [string, number]> } {
  const byPath = new Map<string, DocumentDigest>();
  const byEntry: Record<string, [string, number]> = {};
  for (const [id, name] of loadouts) {
    const kept = versionsDigestOf(storeDir, previous, name);
    byEntry[name] = kept;
    byPath.set(versionsDocumentPath(id), { sha256: kept[0], bytes: kept[1] });
  }
  return { byPath, byEntry };
}

/**
 * The digest of the versions document of store entry `name`, `[sha256 hex, bytes]`: from
 * `previous` when it has one, else hashed from the entry in `storeDir`.
 * @throws the file system's error when the document cannot be read
 */
export function versionsDigestOf(storeDir: string, previous: Readonly<Record<string, [string, number]>>, name: string): [string, number] {
  const kept = previous[name];
  if (kept !== undefined) return kept;
  const bytes = readFileSync(join(storeDir, 'api/loadouts', name, 'versions.json'));
  return [createHash('sha256').update(bytes).digest('hex'), bytes.byteLength];
}

/** The digests by entry name kept in `tree`'s {@link DIGESTS_FILE}; empty without a tree, a file, or one of that shape. */
export function readVersionsDigests(tree: string | undefined): Record<string, [string, number]> {
  if (tree === undefined) return {};
  try {
    const value = JSON.parse(readFileSync(join(tree, DIGESTS_FILE), 'utf8')) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
    const kept: Record<string, [string, number]> = {};
    for (const [name, d] of Object.entries(value)) if (Array.isArray(d) && typeof d[0] === 'string' && /^[0-9a-f]{64}$/u.test(d[0]) && Number.isSafeInteger(d[1])) kept[name] = [d[0], d[1] as number];
    return kept;
  } catch {
    return {};
  }
}

/** The digest of `bytes`: sha256 (lowercase hex) and length in bytes. */
export function digestBytes(bytes: Uint8Array): DocumentDigest {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength };
}

/** The digest of `text` as written (UTF-8), hashed without copying it into a buffer first. */
export function digestText(text: string): DocumentDigest {
  return { sha256: createHash('sha256').update(text, 'utf8').digest('hex'), bytes: Buffer.byteLength(text, 'utf8') };
}

/**
 * `pieces` passed through as they are taken, hashed on the way: once the last is taken, `done`
 * gets the digest of their text as written (UTF-8), as {@link digestText} gives it for the text
 * joined.
 */
export function* digestPieces(pieces: Iterable<string>, done: (digest: DocumentDigest) => void): Generator<string, void, undefined> {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const piece of pieces) {
    hash.update(piece, 'utf8');
    bytes += Buffer.byteLength(piece, 'utf8');
    yield piece;
  }
  done({ sha256: hash.digest('hex'), bytes });
}

/**
 * Writes the signed snapshot of `documents` (tree path → digest) made at `now` into `tree`
 * at {@link SNAPSHOT_PATH}, the rotation statement at {@link ROTATION_PATH} when there is one,
 * and the digests to keep for the next build.
 */
export async function writeSignedSnapshot(tree: OutputTree, input: { base: string; settings: SigningSettings; documents: ReadonlyMap<string, DocumentDigest>; byEntry: Record<string, [string, number]>; now: Date }): Promise<void> {
  const snapshot = makeSnapshot({ generatedAt: input.now, expiresInDays: input.settings.expiresInDays, baseUrl: input.base, documents: input.documents });
  await tree.writeJson(SNAPSHOT_PATH, signSnapshot(snapshot, input.settings.key));
  if (input.settings.rotation !== undefined) await tree.writeJson(ROTATION_PATH, input.settings.rotation);
  await tree.write(DIGESTS_FILE, JSON.stringify(input.byEntry));
}
