/**
 * Wiring the submissions API from the configuration (DESIGN.md section 2): opens and migrates
 * the database, finds or creates the form-token secret, builds the bot challenge (ALTCHA with
 * `CHALLENGE_SECRET` or a key generated into the data folder by default; a hosted vendor with
 * `CHALLENGE_PROVIDER`; docs/maintaining.md "The bot challenge"), and reports truthfully what
 * the description document says (`submissions_open`, `config`).
 */
import type { Policy } from '../policy/policy.js';
import { CheckPool } from './check-pool.js';
import { checksBudgetMs } from '../verify/budget.js';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { ServiceConfigReport } from '../tree/render/description.js';
import { LoadoutError } from '../catalogue/errors.js';
import { ensurePrivateFolder, isNoDatabase, openDatabase, type Database } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrations.js';
import { createStores } from '../storage/stores.js';
import { ALTCHA_DIFFICULTY, createAltchaVerifier } from './altcha.js';
import { createSiteverifyVerifier, VENDOR_VERIFY_URLS, type ChallengeProvider, type ChallengeVerifier } from './challenge.js';
import type { RateLimits } from './rate-limit.js';
import { createSubmissionRoutes } from './routes.js';

/** The settings the submissions API reads (a subset of the CLI's `ResolvedConfig`). */
export interface SubmissionsConfig {
  databaseUrl: string;
  submissionsOpen: boolean;
  formTokenSecret: string | undefined;
  /** `CHALLENGE_PROVIDER`: `altcha` (default), `turnstile` or `hcaptcha`. */
  challengeProvider: ChallengeProvider;
  challengeSecret: string | undefined;
  challengeSiteKey: string | undefined;
  /** `CHALLENGE_VERIFY_URL`; undefined for the vendor's own siteverify address. */
  challengeVerifyUrl: string | undefined;
  /** `CHALLENGE_MAX_COUNTER`: ALTCHA's difficulty (see `AltchaDifficulty`); undefined for the default. */
  challengeMaxCounter?: number;
  baseUrl: string;
  rateLimits: RateLimits;
  trustProxy: boolean;
  /** Submissions that may wait for the checks (`LOADOUT_CHECKS_QUEUE`, check-queue.ts); default 32. */
  checksQueue?: number;
  /** Seconds a submission's body may take to arrive (`LOADOUT_BODY_TIMEOUT_SECONDS`, body.ts); default 60. */
  bodyTimeoutSeconds?: number;
  /** Submission bodies without an API key one client address may be sending at once (`LOADOUT_BODIES_PER_ADDRESS`, bodies-per-address.ts); default 4. */
  bodiesPerAddress?: number;
  /** The catalogue's policy, read from `LOADOUT_POLICY` by `loadout serve` (docs/policy.md): submissions that break it fail their checks. */
  policy?: Policy;
}

/** The submissions API, ready to mount. */
export interface SubmissionsSetup {
  mount: (app: Hono) => void;
  /** `submissions_open` of the description document: open, and a database is there. */
  submissionsOpen: boolean;
  /** `config` of the description document. */
  report: ServiceConfigReport;
  /** The bot challenge the browser form uses. */
  challengeProvider: ChallengeProvider;
  /** The open database, if any. */
  database: Database | undefined;
  close(): Promise<void>;
}

/** Name of the generated form-token secret inside the data folder. */
export const FORM_TOKEN_SECRET_FILE = 'form-token-secret';
/** Name of the generated ALTCHA key inside the data folder (when `CHALLENGE_SECRET` is unset). */
export const CHALLENGE_SECRET_FILE = 'challenge-secret';

/**
 * Sets up the submissions API for the tree in `distDir`. With `DATABASE_URL` empty or `none`
 * the API answers 503 `submissions_closed`.
 * @throws LoadoutError `config` for a bad DATABASE_URL or an incomplete challenge
 *   configuration ({@link resolveChallenge}), `io` when the database cannot be opened or
 *   migrated or a secret cannot be written (the server should not start half-working).
 */
export async function setUpSubmissions(config: SubmissionsConfig, options: { distDir: string; dataDir: string }): Promise<SubmissionsSetup> {
  const challenge = resolveChallenge(config, options.dataDir);
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
  // A policy's checks run on a pool of their own; without one, the process's pool (service.ts).
  const checks = config.policy === undefined ? undefined : new CheckPool({ budgetMs: checksBudgetMs(), policy: config.policy });
  const mount = createSubmissionRoutes({
    ...(checks === undefined ? {} : { checks }),
    open: config.submissionsOpen,
    stores: database === undefined ? undefined : createStores(database),
    baseUrl: config.baseUrl,
    formTokenSecret: config.formTokenSecret ?? readOrCreateSecret(options.dataDir),
    challenge,
    catalogueHas: (id) => catalogueHas(options.distDir, id),
    limits: config.rateLimits,
    trustProxy: config.trustProxy,
    ...(config.checksQueue === undefined ? {} : { checksQueue: config.checksQueue }),
    ...(config.bodyTimeoutSeconds === undefined ? {} : { bodyTimeoutMs: config.bodyTimeoutSeconds * 1000 }),
    ...(config.bodiesPerAddress === undefined ? {} : { bodiesPerAddress: config.bodiesPerAddress }),
  });
  return {
    mount,
    submissionsOpen: config.submissionsOpen && database !== undefined,
    // ALTCHA always has its key (set or generated) and has no site key; a vendor needs both.
    report: { database: database !== undefined, challenge_secret: true, challenge_site_key: challenge.siteKey !== undefined },
    challengeProvider: challenge.provider,
    database,
    close: async () => {
      await checks?.close();
      await database?.close();
    },
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
 * The bot challenge the configuration asks for (docs/maintaining.md "The bot challenge"):
 * - `altcha` (default): keyed by `CHALLENGE_SECRET`, or by `<dataDir>/challenge-secret`,
 *   generated on first start; `CHALLENGE_SITE_KEY` must be unset (ALTCHA has no site key, so a
 *   set one means the operator meant a vendor).
 * - `turnstile`, `hcaptcha`: `CHALLENGE_SECRET` and `CHALLENGE_SITE_KEY` are both required;
 *   `CHALLENGE_VERIFY_URL` defaults to the vendor's siteverify address.
 * @throws LoadoutError `config` naming the missing or contradicting variable; `io` when the
 *   generated key cannot be written.
 */
export function resolveChallenge(config: SubmissionsConfig, dataDir: string): ChallengeVerifier {
  const provider = config.challengeProvider;
  if (provider === 'altcha') {
    if (config.challengeSiteKey !== undefined) {
      throw new LoadoutError('config', 'CHALLENGE_SITE_KEY is set, but CHALLENGE_PROVIDER is altcha (the default), which has no site key', {
        hint: 'Set CHALLENGE_PROVIDER=turnstile or CHALLENGE_PROVIDER=hcaptcha to use that vendor, or unset CHALLENGE_SITE_KEY.',
      });
    }
    const difficulty = { ...ALTCHA_DIFFICULTY, maxCounter: config.challengeMaxCounter ?? ALTCHA_DIFFICULTY.maxCounter };
    return createAltchaVerifier({ secret: config.challengeSecret ?? readOrCreateSecret(dataDir, CHALLENGE_SECRET_FILE, 'CHALLENGE_SECRET'), difficulty });
  }
  for (const [name, value] of [['CHALLENGE_SECRET', config.challengeSecret], ['CHALLENGE_SITE_KEY', config.challengeSiteKey]] as const) {
    if (value === undefined) {
      throw new LoadoutError('config', `CHALLENGE_PROVIDER is ${provider}, but ${name} is not set (expected the ${name === 'CHALLENGE_SECRET' ? 'secret key' : 'site key'} from the ${provider} dashboard)`, {
        hint: `Set ${name}, or unset CHALLENGE_PROVIDER to use the embedded ALTCHA challenge.`,
      });
    }
  }
  return createSiteverifyVerifier({ provider, secret: config.challengeSecret as string, siteKey: config.challengeSiteKey, verifyUrl: config.challengeVerifyUrl ?? VENDOR_VERIFY_URLS[provider] });
}

/**
 * A secret from `<dataDir>/<file>` (default the form-token secret), created (32 random bytes,
 * hex) on first start. The file is 0600 and a data folder it creates 0700, whatever the umask. Several instances must share the variable (`variable`,
 * default FORM_TOKEN_SECRET) instead.
 * @throws LoadoutError `io` when the file cannot be created, `config` when it holds a short secret.
 */
export function readOrCreateSecret(dataDir: string, name = FORM_TOKEN_SECRET_FILE, variable = 'FORM_TOKEN_SECRET'): string {
  const file = resolve(dataDir, name);
  try {
    ensurePrivateFolder(dataDir);
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new LoadoutError('io', `cannot create ${file}: ${(error as Error).message}`, { cause: error, hint: `Set ${variable} instead.` });
  }
  try {
    chmodSync(file, 0o600);
  } catch (error) {
    throw new LoadoutError('io', `cannot make ${file} private (mode 0600): ${(error as Error).message}`, { cause: error, hint: `Set ${variable} instead.` });
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new LoadoutError('config', `${file} holds a secret shorter than 32 characters`, { hint: `Delete the file to generate a new one, or set ${variable}.` });
  return secret;
}
