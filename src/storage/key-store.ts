/**
 * The API key store (DESIGN.md section 6: hash, prefix, name, created, revoked, last used).
 * Only the sha256 of a key and its public prefix are stored; the key itself never is.
 */
import type { ApiKeysTable, Db } from './tables.js';

/** A stored API key, without any secret. Times are ISO 8601 UTC strings. */
export interface StoredApiKey {
  prefix: string;
  name: string;
  /** sha256 of the whole key, lowercase hex. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Reading and writing API keys. */
export interface ApiKeyStore {
  insert(key: Omit<StoredApiKey, 'revokedAt' | 'lastUsedAt'>): Promise<void>;
  /** The key with this prefix, revoked or not. */
  find(prefix: string): Promise<StoredApiKey | undefined>;
  /** Every key, oldest first. */
  list(): Promise<StoredApiKey[]>;
  /** Marks the key revoked at `at`. @returns false when no key has this prefix or it was already revoked. */
  revoke(prefix: string, at: string): Promise<boolean>;
  /** Records that the key was used at `at`. */
  touch(prefix: string, at: string): Promise<void>;
}

/** The Kysely implementation of {@link ApiKeyStore}. */
export function createApiKeyStore(db: Db): ApiKeyStore {
  return {
    async insert(key) {
      await db.insertInto('api_keys').values({ prefix: key.prefix, name: key.name, hash: key.hash, created_at: key.createdAt, revoked_at: null, last_used_at: null }).execute();
    },
    async find(prefix) {
      const row = await db.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst();
      return row === undefined ? undefined : fromRow(row);
    },
    async list() {
      return (await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('prefix').execute()).map(fromRow);
    },
    async revoke(prefix, at) {
      const result = await db.updateTable('api_keys').set({ revoked_at: at }).where('prefix', '=', prefix).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async touch(prefix, at) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('prefix', '=', prefix).execute();
    },
  };
}

function fromRow(r: ApiKeysTable): StoredApiKey {
  return { prefix: r.prefix, name: r.name, hash: r.hash, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at };
}
