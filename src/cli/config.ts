/**
 * Configuration resolved once (defaults → environment → flags) into a `ResolvedConfig` that
 * is passed explicitly (DESIGN.md section 2 lists the variables).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { ALTCHA_DIFFICULTY } from '../submissions/altcha.js';
import { CHALLENGE_PROVIDERS, type ChallengeProvider } from '../submissions/challenge.js';
import { DEFAULT_BODIES_PER_ADDRESS } from '../submissions/bodies-per-address.js';
import { DEFAULT_BODY_TIMEOUT_SECONDS } from '../submissions/body.js';
import { DEFAULT_CHECKS_QUEUE } from '../submissions/check-queue.js';
import { DEFAULT_IPV6_PREFIX } from '../submissions/rate-limit.js';
import type { SubmissionsConfig } from '../submissions/setup.js';

/**
 * Everything the commands read from the environment: the submissions API's settings
 * (`DATABASE_URL`, default `sqlite:data/catalogue.db`; `SUBMISSIONS_OPEN`, default true;
 * `FORM_TOKEN_SECRET`; `CHALLENGE_PROVIDER` (default `altcha`, or `turnstile`, `hcaptcha`),
 * `CHALLENGE_SECRET`, `CHALLENGE_SITE_KEY`, `CHALLENGE_VERIFY_URL`, `CHALLENGE_MAX_COUNTER`
 * (10000, ALTCHA's difficulty); rate limits `RATE_LIMIT_PER_ADDRESS` (30), `RATE_LIMIT_PER_KEY`
 * (120) per `RATE_LIMIT_WINDOW_SECONDS` (3600), IPv6 addresses grouped by
 * `RATE_LIMIT_IPV6_PREFIX` (64, 1 to 128); `TRUST_PROXY`; `LOADOUT_CHECKS_QUEUE` (32), the
 * submissions that may wait for the checks; `LOADOUT_BODY_TIMEOUT_SECONDS` (60), the time a
 * submission's body may take to arrive; `LOADOUT_BODIES_PER_ADDRESS` (4), the bodies without an
 * API key one client address may be sending at once), plus
 * `LOADOUT_POLICY` (the catalogue's policy that submissions must keep, a path or an address:
 * docs/policy.md), and `LOADOUT_BASE_URL` (no trailing slash; when unset, the address the server answers at:
 * `http://localhost:<PORT>`, see {@link localBaseUrl}) and `PORT` (8787).
 */
export interface ResolvedConfig extends SubmissionsConfig {
  port: number;
  /** `LOADOUT_POLICY`: the catalogue's policy, a path or an http(s) address, whose rules submissions must keep (docs/policy.md); `loadout serve` reads it. */
  policyLocation?: string;
  /** True when `LOADOUT_BASE_URL` set `baseUrl`; false when it was derived from `PORT`, so that `serve` derives it again from `--port` and `--host`. */
  baseUrlSet: boolean;
}

/**
 * The base URL of a server that listens on `host`:`port` when `LOADOUT_BASE_URL` is unset
 * (DESIGN.md section 2): `http://localhost:<port>` for a loopback or wildcard address, as a
 * browser on the same machine reaches it; else `http://<host>:<port>` (IPv6 in brackets,
 * RFC 3986 section 3.2.2). Pure.
 */
export function localBaseUrl(host: string, port: number): string {
  const local = host === '' || host === 'localhost' || host === '0.0.0.0' || host === '::' || host === '::1' || host.startsWith('127.');
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * Reads the configuration from `env`.
 * @throws LoadoutError `config` naming the variable when a value is malformed.
 */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const port = parsePort(env['PORT'] ?? '8787', 'PORT');
  const set = env['LOADOUT_BASE_URL'] !== undefined && env['LOADOUT_BASE_URL'] !== '';
  const baseUrl = (set ? (env['LOADOUT_BASE_URL'] as string) : localBaseUrl('127.0.0.1', port)).replace(/(?<!\/)\/+$/u, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new LoadoutError('config', `LOADOUT_BASE_URL is ${JSON.stringify(baseUrl)} (expected an absolute URL such as https://loadouts.example)`);
  }
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
    baseUrlSet: set,
    port,
    databaseUrl: env['DATABASE_URL'] ?? 'sqlite:data/catalogue.db',
    submissionsOpen: open !== 'false',
    formTokenSecret: nonEmpty(env['FORM_TOKEN_SECRET']),
    challengeProvider: provider as ChallengeProvider,
    challengeSecret: nonEmpty(env['CHALLENGE_SECRET']),
    challengeSiteKey: nonEmpty(env['CHALLENGE_SITE_KEY']),
    challengeVerifyUrl: nonEmpty(env['CHALLENGE_VERIFY_URL']),
    challengeMaxCounter: parsePositive(env, 'CHALLENGE_MAX_COUNTER', ALTCHA_DIFFICULTY.maxCounter),
    rateLimits: {
      perAddress: parsePositive(env, 'RATE_LIMIT_PER_ADDRESS', 30),
      perKey: parsePositive(env, 'RATE_LIMIT_PER_KEY', 120),
      windowSeconds: parsePositive(env, 'RATE_LIMIT_WINDOW_SECONDS', 3600),
      ipv6Prefix: parseIpv6Prefix(env),
    },
    trustProxy: env['TRUST_PROXY'] === 'true',
    checksQueue: parsePositive(env, 'LOADOUT_CHECKS_QUEUE', DEFAULT_CHECKS_QUEUE),
    bodyTimeoutSeconds: parsePositive(env, 'LOADOUT_BODY_TIMEOUT_SECONDS', DEFAULT_BODY_TIMEOUT_SECONDS),
    bodiesPerAddress: parsePositive(env, 'LOADOUT_BODIES_PER_ADDRESS', DEFAULT_BODIES_PER_ADDRESS),
    ...(nonEmpty(env['LOADOUT_POLICY']) === undefined ? {} : { policyLocation: nonEmpty(env['LOADOUT_POLICY']) }),
  };
}

/**
 * The port and configuration `loadout serve` runs with, flags over the environment: `--port`
 * over `PORT` (8787); and when `LOADOUT_BASE_URL` is unset, the base URL is where this server
 * answers ({@link localBaseUrl} of `--host` and that port). Pure.
 * @throws LoadoutError `usage` when `--port` is not a port number.
 */
export function resolveServeConfig(config: ResolvedConfig, flags: { port?: string | undefined; host: string }): { port: number; config: ResolvedConfig } {
  const port = flags.port === undefined ? config.port : parsePort(flags.port, '--port');
  // Port 0 asks the system for any free port: no address to publish, so the default base URL stays.
  return { port, config: config.baseUrlSet || port === 0 ? config : { ...config, baseUrl: localBaseUrl(flags.host, port) } };
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

/** `RATE_LIMIT_IPV6_PREFIX`: a prefix length from 1 to 128, default 64. */
function parseIpv6Prefix(env: NodeJS.ProcessEnv): number {
  const value = env['RATE_LIMIT_IPV6_PREFIX'];
  if (value === undefined || value === '') return DEFAULT_IPV6_PREFIX;
  if (!/^\d{1,3}$/u.test(value) || Number(value) < 1 || Number(value) > 128) throw new LoadoutError('config', `RATE_LIMIT_IPV6_PREFIX is ${JSON.stringify(value)} (expected a prefix length from 1 to 128, such as 64 or 56)`);
  return Number(value);
}

const nonEmpty = (v: string | undefined): string | undefined => (v === undefined || v === '' ? undefined : v);
