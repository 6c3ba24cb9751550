/**
 * A real server for the submissions tests: the app from `createApp` with the submissions
 * routes over a real database, a published-catalogue folder holding `taken-id`, and the fake
 * challenge vendor, listening on 127.0.0.1 on an ephemeral port. Everything is closed when the
 * test finishes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import type { Database } from '../../src/storage/database.js';
import { createStores, type Stores } from '../../src/storage/stores.js';
import { createApiKey } from '../../src/submissions/api-key.js';
import { createSiteverifyVerifier, type ChallengeVerifier } from '../../src/submissions/challenge.js';
import type { Hono } from 'hono';
import type { SubmissionChecks } from '../../src/submissions/check-pool.js';
import type { CheckQueue } from '../../src/submissions/check-queue.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../src/submissions/rate-limit.js';
import { catalogueHas } from '../../src/submissions/setup.js';
import { createSubmissionRoutes, type SubmissionsOptions } from '../../src/submissions/routes.js';
import { makeTempDir } from '../helpers/temp.js';
import { openTestDatabase, type TestDatabaseKind } from '../storage/databases.js';
import { startChallengeVendor, type ChallengeVendor } from './challenge-vendor.js';

export const FORM_SECRET = 'test-form-token-secret-0123456789abcdef';
export const CHALLENGE_SECRET = 'test-challenge-secret';
export const SITE_KEY = 'test-site-key';
/** A loadout id the published catalogue of the harness already has. */
export const TAKEN_ID = 'taken-id';

/** A running test server. */
export interface Harness {
  url: string;
  database: Database;
  stores: Stores;
  vendor: ChallengeVendor;
  distDir: string;
  /** A valid API key. */
  key: string;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A fresh form token from the session endpoint. */
  formToken(): Promise<string>;
}

/** Options of {@link startHarness}: overrides of the routes' options. */
export interface HarnessOptions {
  limits?: Partial<RateLimits>;
  open?: boolean;
  noDatabase?: boolean;
  noChallenge?: boolean;
  /** Siteverify address to use instead of the fake vendor's (e.g. one that does not answer). */
  challengeUrl?: string;
  /** A challenge to use instead of the fake vendor (e.g. ALTCHA). */
  challenge?: ChallengeVerifier;
  /** The fake vendor forgets the tokens it passed, so only the server's own record refuses a replay. */
  forgetfulVendor?: boolean;
  /** Where the checks of a submission run (e.g. a pool with a tiny budget); default the process's pool. */
  checks?: SubmissionChecks;
  /** Take the client address from `X-Forwarded-For`, to test addresses other than 127.0.0.1. */
  trustProxy?: boolean;
  /** The queue the checks wait in (check-queue.ts); default one of the routes' own. */
  queue?: CheckQueue;
  /** Mounted before the submissions routes (e.g. middleware that watches requests). */
  before?: (app: Hono) => void;
  /** Milliseconds a submission's body may take to arrive; default the routes' own (60 s). */
  bodyTimeoutMs?: number;
  /** Submission bodies one address may be sending at once; default the routes' own (4). */
  bodiesPerAddress?: number;
}

/** Starts a server on a fresh database of `kind`. */
export async function startHarness(kind: TestDatabaseKind, options: HarnessOptions = {}): Promise<Harness> {
  const database = await openTestDatabase(kind);
  const stores = createStores(database);
  const vendor = await startChallengeVendor(CHALLENGE_SECRET, { forgetful: options.forgetfulVendor === true });
  const distDir = makeTempDir('loadout-dist-');
  mkdirSync(join(distDir, 'api', 'loadouts'), { recursive: true });
  writeFileSync(join(distDir, 'api', 'loadouts.json'), '[]');
  writeFileSync(join(distDir, 'api', 'loadouts', `${TAKEN_ID}.json`), '{}');
  const routeOptions: SubmissionsOptions = {
    open: options.open ?? true,
    stores: options.noDatabase === true ? undefined : stores,
    baseUrl: 'http://catalogue.test',
    formTokenSecret: FORM_SECRET,
    challenge: options.noChallenge === true ? undefined : (options.challenge ?? createSiteverifyVerifier({ secret: CHALLENGE_SECRET, siteKey: SITE_KEY, verifyUrl: options.challengeUrl ?? vendor.url, timeoutMs: 5000 })),
    catalogueHas: (id) => catalogueHas(distDir, id),
    limits: { ...DEFAULT_RATE_LIMITS, perAddress: 1000, perKey: 1000, ...options.limits },
    ...(options.checks === undefined ? {} : { checks: options.checks }),
    ...(options.queue === undefined ? {} : { queue: options.queue }),
    ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
    ...(options.bodiesPerAddress === undefined ? {} : { bodiesPerAddress: options.bodiesPerAddress }),
    trustProxy: options.trustProxy === true,
  };
  const app = createApp({
    distDir,
    baseUrl: 'http://catalogue.test',
    submissionsOpen: routeOptions.open,
    config: { database: true, challenge_secret: true, challenge_site_key: true },
    routes: [...(options.before === undefined ? [] : [options.before]), createSubmissionRoutes(routeOptions)],
  });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  onTestFinished(() => server.close());
  const { key } = await createApiKey(stores.keys, 'test agent', new Date());
  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${server.url}/api/v1/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const formToken = async (): Promise<string> => {
    const response = await fetch(`${server.url}/api/v1/submissions/session`);
    if (response.status !== 200) throw new Error(`session answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { form_token: string }).form_token;
  };
  return { url: server.url, database, stores, vendor, distDir, key, post, formToken };
}

/** Authorization header for `key`. */
export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/** A valid submission body; `overrides` replace fields (undefined removes one). */
export function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: 'Rust CLI Helpers',
    summary: 'Conventions and helpers for writing Rust command-line tools.',
    description: 'Instructions that keep a Rust command-line project tidy: clap for arguments, anyhow for errors.',
    highlights: ['clap for arguments', 'anyhow for errors'],
    category: 'workflow',
    stacks: ['rust'],
    agents: ['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot'],
    files: [
      { path: 'AGENTS.md', content: '# Rust CLI Helpers\n\nUse clap for arguments and anyhow for errors. Run `cargo test` before you commit.\n' },
      { path: 'rules/errors.md', content: '---\ndescription: Error handling\nglobs: "**/*.rs"\napplyTo: "**/*.rs"\n---\n\nUse anyhow::Result in binaries.\n' },
    ],
    licence: 'MIT',
    author: { name: 'Ada Lovelace', url: 'https://example.org/ada', github: 'ada' },
    contact_email: 'ada@example.org',
    source_url: 'https://github.com/ada/rust-cli',
    notes: 'First submission.',
    rights_confirmed: true,
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

/** The body of a response as a problem (or anything JSON). */
export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}
