/**
 * All stores of one database, built together (the submissions API and the CLI take this).
 */
import type { Database } from './database.js';
import { createNonceStore, createRateLimitStore, type NonceStore, type RateLimitStore } from './guard-store.js';
import { createApiKeyStore, type ApiKeyStore } from './key-store.js';
import { createSubmissionStore, type SubmissionStore } from './submission-store.js';

/** The stores over one database. */
export interface Stores {
  submissions: SubmissionStore;
  keys: ApiKeyStore;
  nonces: NonceStore;
  rateLimits: RateLimitStore;
}

/** Builds every store over `database`. Pure: opens nothing. */
export function createStores(database: Database): Stores {
  return {
    submissions: createSubmissionStore(database.db),
    keys: createApiKeyStore(database.db),
    nonces: createNonceStore(database.db),
    rateLimits: createRateLimitStore(database.db),
  };
}
