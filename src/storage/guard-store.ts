/**
 * The stores behind the submission guards: used form-token nonces and fixed rate-limit
 * windows (DESIGN.md sections 5 and 6). Both live in the database, so that several
 * `loadout serve` instances on one PostgreSQL share them.
 */
import { sql } from 'kysely';
import type { Db } from './tables.js';

/**
 * Used single-use nonces: form-token nonces (recorded with the submission, in
 * SubmissionStore.submit's transaction) and bot-challenge solutions (recorded by {@link consume}
 * when they pass, under a `challenge:` prefix, so that no solution passes twice).
 */
export interface NonceStore {
  /** True when `nonce` is recorded as used. */
  isUsed(nonce: string): Promise<boolean>;
  /**
   * Records `nonce` as used at `usedAt` (ISO) until `expiresAt` (ISO). Atomic: of concurrent
   * calls with one nonce exactly one resolves true.
   * @returns false, writing nothing, when `nonce` was recorded already.
   */
  consume(nonce: string, usedAt: string, expiresAt: string): Promise<boolean>;
  /** Deletes nonces whose token expired before `now` (ISO): they can no longer be replayed anyway. */
  purgeExpired(now: string): Promise<void>;
}

/** Fixed-window hit counters. */
export interface RateLimitStore {
  /**
   * Counts one hit for `bucket` in the window starting at `windowStart` (ISO) and returns the
   * hits so far, this one included. Atomic: concurrent hits are all counted.
   */
  hit(bucket: string, windowStart: string, expiresAt: string): Promise<number>;
  /** Deletes windows that ended before `now` (ISO). */
  purgeExpired(now: string): Promise<void>;
}

/** The Kysely implementation of {@link NonceStore}. */
export function createNonceStore(db: Db): NonceStore {
  return {
    async isUsed(nonce) {
      return (await db.selectFrom('form_token_nonces').select('nonce').where('nonce', '=', nonce).executeTakeFirst()) !== undefined;
    },
    async consume(nonce, usedAt, expiresAt) {
      const inserted = await db
        .insertInto('form_token_nonces')
        .values({ nonce, used_at: usedAt, expires_at: expiresAt })
        .onConflict((oc) => oc.column('nonce').doNothing())
        .returning('nonce')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async purgeExpired(now) {
      await db.deleteFrom('form_token_nonces').where('expires_at', '<', now).execute();
    },
  };
}

/** The Kysely implementation of {@link RateLimitStore}: one upsert per hit. */
export function createRateLimitStore(db: Db): RateLimitStore {
  return {
    async hit(bucket, windowStart, expiresAt) {
      const row = await db
        .insertInto('rate_limit_windows')
        .values({ bucket, window_start: windowStart, hits: 1, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limit_windows.hits + 1` }))
        .returning('hits')
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },
    async purgeExpired(now) {
      await db.deleteFrom('rate_limit_windows').where('expires_at', '<', now).execute();
    },
  };
}
