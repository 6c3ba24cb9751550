/**
 * Configuration resolved once (defaults → environment → flags) into a `ResolvedConfig` that
 * is passed explicitly (DESIGN.md section 2 lists the variables).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { CHALLENGE_PROVIDERS, type ChallengeProvider } from '../submissions/challenge.js';
import type { SubmissionsConfig } from '../submissions/setup.js';

/**
 * Everything the commands read from the environment: the submissions API's settings
 * (`DATABASE_URL`, default `sqlite:data/catalogue.db`; `SUBMISSIONS_OPEN`, default true;
 * `FORM_TOKEN_SECRET`; `CHALLENGE_PROVIDER` (default `altcha`, or `turnstile`, `hcaptcha`),
 * `CHALLENGE_SECRET`, `CHALLENGE_SITE_KEY`, `CHALLENGE_VERIFY_URL`; rate limits `RATE_LIMIT_PER_ADDRESS` (30),
 * `RATE_LIMIT_PER_KEY` (120) per `RATE_LIMIT_WINDOW_SECONDS` (3600); `TRUST_PROXY`), plus
 * `LOADOUT_BASE_URL` (default `http://localhost:8787`, no trailing slash) and `PORT` (8787).
 */
export interface ResolvedConfig extends SubmissionsConfig {
  port: number;
}

/**
 * Reads the configuration from `env`.
 * @throws LoadoutError `config` naming the variable when a value is malformed.
 */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const baseUrl = (env['LOADOUT_BASE_URL'] ?? 'http://localhost:8787').replace(/(?<!\/)\/+$/u, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new LoadoutError('config', `LOADOUT_BASE_URL is ${JSON.stringify(baseUrl)} (expected an absolute URL such as https://loadouts.example)`);
  }
  const port = parsePort(env['PORT'] ?? '8787', 'PORT');
  const open = env['SUBMISSIONS_OPEN'];
  if (open !== undefined && open !== 'true' && open !== 'false') {
    throw new LoadoutError('config', `SUBMISSIONS_OPEN is ${JSON.stringify(open)} (expected true or false)`);
  }
  const provider = env['CHALLENGE_PROVIDER'] === undefined || env['CHALLENGE_PROVIDER'] === '' ? 'altcha' : env['CHALLENGE_PROVIDER'];
  if (!(CHALLENGE_PROVIDERS as readonly string[]).includes(provider)) {
    throw new LoadoutError('config', `CHALLENGE_PROVIDER is ${JSON.stringify(provider)} (expected ${CHALLENGE_PROVIDERS.join(', ')})`);
  }
  return {
    baseUrl,
    port,
    databaseUrl: env['DATABASE_URL'] ?? 'sqlite:data/catalogue.db',
    submissionsOpen: open !== 'false',
    formTokenSecret: nonEmpty(env['FORM_TOKEN_SECRET']),
    challengeProvider: provider as ChallengeProvider,
    challengeSecret: nonEmpty(env['CHALLENGE_SECRET']),
    challengeSiteKey: nonEmpty(env['CHALLENGE_SITE_KEY']),
    challengeVerifyUrl: nonEmpty(env['CHALLENGE_VERIFY_URL']),
    rateLimits: {
      perAddress: parsePositive(env, 'RATE_LIMIT_PER_ADDRESS', 30),
      perKey: parsePositive(env, 'RATE_LIMIT_PER_KEY', 120),
      windowSeconds: parsePositive(env, 'RATE_LIMIT_WINDOW_SECONDS', 3600),
    },
    trustProxy: env['TRUST_PROXY'] === 'true',
  };
}

/** Parses a TCP port (0 to 65535). @throws LoadoutError `usage` naming `name`. */
export function parsePort(value: string, name: string): number {
  const port = Number(value);
  if (!/^\d+$/u.test(value) || port > 65535) throw new LoadoutError('usage', `${name} is ${JSON.stringify(value)} (expected a port number from 0 to 65535)`);
  return port;
}

function parsePositive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^[1-9]\d{0,8}$/u.test(value)) throw new LoadoutError('config', `${name} is ${JSON.stringify(value)} (expected a positive whole number)`);
  return Number(value);
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);
