/**
 * API keys for agents (spec "Authentication": `Authorization: Bearer <API_KEY>`). A key is
 * `lk_<prefix>_<secret>`: a 12-hex-digit public prefix (the key's id) and 32 random bytes
 * in base64url. Only the sha256 of the whole key is stored; a presented key is hashed and
 * compared with the stored hash in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyStore, StoredApiKey } from '../storage/key-store.js';

const KEY_PATTERN = /^lk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/u;

/** A key as created: the full key (shown once) and what is stored. */
export interface CreatedApiKey {
  key: string;
  stored: StoredApiKey;
}

/** sha256 of `key`, lowercase hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The prefix of a well-formed key, or undefined. */
export function apiKeyPrefix(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

/** Creates and stores a key named `name`. The returned `key` is not stored anywhere. */
export async function createApiKey(store: ApiKeyStore, name: string, now: Date): Promise<CreatedApiKey> {
  const prefix = randomBytes(6).toString('hex');
  const key = `lk_${prefix}_${randomBytes(32).toString('base64url')}`;
  const stored: StoredApiKey = { prefix, name, hash: hashApiKey(key), createdAt: now.toISOString(), revokedAt: null, lastUsedAt: null };
  await store.insert(stored);
  return { key, stored };
}

/** Why a presented key is refused; each is a 401. */
export type ApiKeyProblem = 'malformed' | 'unknown' | 'revoked';

/**
 * Authenticates a presented key: well-formed, known, not revoked, and its hash equal to the
 * stored one (constant-time comparison). Records `last_used_at` on success.
 */
export async function authenticateApiKey(store: ApiKeyStore, presented: string, now: Date): Promise<{ ok: true; key: StoredApiKey } | { ok: false; problem: ApiKeyProblem }> {
  const prefix = apiKeyPrefix(presented);
  if (prefix === undefined) return { ok: false, problem: 'malformed' };
  const stored = await store.find(prefix);
  // Hash even when the prefix is unknown, so the answer takes the same time either way.
  const given = Buffer.from(hashApiKey(presented), 'hex');
  const expected = Buffer.from(stored?.hash ?? '0'.repeat(64), 'hex');
  const equal = expected.length === given.length && timingSafeEqual(given, expected);
  if (stored === undefined || !equal) return { ok: false, problem: 'unknown' };
  if (stored.revokedAt !== null) return { ok: false, problem: 'revoked' };
  await store.touch(prefix, now.toISOString());
  return { ok: true, key: stored };
}
