/**
 * Wiring the submissions API from the configuration (DESIGN.md section 2): opens and migrates
 * the database, finds or creates the form-token secret, builds the challenge verifier, and
 * reports truthfully what the description document says (`submissions_open`, `config`).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { ServiceConfigReport } from '../build/description.js';
import { LoadoutError } from '../catalogue/errors.js';
import { isNoDatabase, openDatabase, type Database } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrations.js';
import { createStores } from '../storage/stores.js';
import { createSiteverifyVerifier } from './challenge.js';
import type { RateLimits } from './rate-limit.js';
import { createSubmissionRoutes } from './routes.js';

/** The settings the submissions API reads (a subset of the CLI's `ResolvedConfig`). */
export interface SubmissionsConfig {
  databaseUrl: string;
  submissionsOpen: boolean;
  formTokenSecret: string | undefined;
  challengeSecret: string | undefined;
  challengeSiteKey: string | undefined;
  challengeVerifyUrl: string;
  baseUrl: string;
  rateLimits: RateLimits;
  trustProxy: boolean;
}

/** The submissions API, ready to mount. */
export interface SubmissionsSetup {
  mount: (app: Hono) => void;
  /** `submissions_open` of the description document: open, and a database is there. */
  submissionsOpen: boolean;
  /** `config` of the description document. */
  report: ServiceConfigReport;
  /** The open database, if any. */
  database: Database | undefined;
  close(): Promise<void>;
}

/** Name of the generated form-token secret inside the data folder. */
export const FORM_TOKEN_SECRET_FILE = 'form-token-secret';

/**
 * Sets up the submissions API for the tree in `distDir`. With `DATABASE_URL` empty or `none`
 * the API answers 503 `submissions_closed`.
 * @throws LoadoutError `config` for a bad DATABASE_URL, `io` when the database cannot be
 *   opened or migrated (the server should not start half-working).
 */
export async function setUpSubmissions(config: SubmissionsConfig, options: { distDir: string; dataDir: string }): Promise<SubmissionsSetup> {
  let database: Database | undefined;
  if (!isNoDatabase(config.databaseUrl)) {
    database = openDatabase(config.databaseUrl);
    try {
      await migrateToLatest(database.db);
    } catch (error) {
      await database.close();
      throw error instanceof LoadoutError ? error : new LoadoutError('io', `cannot prepare the database ${database.label}: ${(error as Error).message}`, { cause: error });
    }
  }
  const challenge = config.challengeSecret === undefined ? undefined : createSiteverifyVerifier({ secret: config.challengeSecret, verifyUrl: config.challengeVerifyUrl });
  const mount = createSubmissionRoutes({
    open: config.submissionsOpen,
    stores: database === undefined ? undefined : createStores(database),
    baseUrl: config.baseUrl,
    formTokenSecret: config.formTokenSecret ?? readOrCreateSecret(options.dataDir),
    challengeSiteKey: config.challengeSiteKey,
    challenge,
    catalogueHas: (id) => catalogueHas(options.distDir, id),
    limits: config.rateLimits,
    trustProxy: config.trustProxy,
  });
  return {
    mount,
    submissionsOpen: config.submissionsOpen && database !== undefined,
    report: { database: database !== undefined, challenge_secret: config.challengeSecret !== undefined, challenge_site_key: config.challengeSiteKey !== undefined },
    database,
    close: async () => database?.close(),
  };
}

/** True when the built tree in `distDir` publishes loadout `id` (a slug). */
export async function catalogueHas(distDir: string, id: string): Promise<boolean> {
  return access(join(distDir, 'api', 'loadouts', `${id}.json`)).then(
    () => true,
    () => false,
  );
}

/**
 * The form-token secret from `<dataDir>/form-token-secret`, created (32 random bytes, hex,
 * mode 0600) on first start. Several instances must share FORM_TOKEN_SECRET instead.
 */
export function readOrCreateSecret(dataDir: string): string {
  const file = resolve(dataDir, FORM_TOKEN_SECRET_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new LoadoutError('io', `cannot create ${file}: ${(error as Error).message}`, { cause: error, hint: 'Set FORM_TOKEN_SECRET instead.' });
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new LoadoutError('config', `${file} holds a secret shorter than 32 characters`, { hint: 'Delete the file to generate a new one, or set FORM_TOKEN_SECRET.' });
  return secret;
}
