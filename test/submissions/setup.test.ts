/**
 * Wiring from configuration: the database is created and migrated on first start, the
 * form-token secret and the ALTCHA key are generated into the data folder, the description
 * document reports `submissions_open` and `config` truthfully, a vendor needs its secret and
 * site key, and a vendor that does not answer is a 503.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { PAGE_CSP, pageCspWith } from '../../src/server/static.js';
import { listen } from '../../src/server/listen.js';
import { createSiteverifyVerifier } from '../../src/submissions/challenge.js';
import { DEFAULT_RATE_LIMITS } from '../../src/submissions/rate-limit.js';
import { CHALLENGE_SECRET_FILE, FORM_TOKEN_SECRET_FILE, setUpSubmissions, type SubmissionsConfig } from '../../src/submissions/setup.js';
import { makeTempDir } from '../helpers/temp.js';
import { startChallengeVendor } from './challenge-vendor.js';

function config(dir: string, overrides: Partial<SubmissionsConfig> = {}): SubmissionsConfig {
  return {
    databaseUrl: `sqlite:${join(dir, 'data', 'catalogue.db')}`,
    submissionsOpen: true,
    formTokenSecret: undefined,
    challengeProvider: 'altcha',
    challengeSecret: undefined,
    challengeSiteKey: undefined,
    challengeVerifyUrl: 'http://127.0.0.1:9/siteverify',
    baseUrl: 'http://catalogue.test',
    rateLimits: DEFAULT_RATE_LIMITS,
    trustProxy: false,
    ...overrides,
  };
}

async function startServer(dir: string, cfg: SubmissionsConfig): Promise<string> {
  const setup = await setUpSubmissions(cfg, { distDir: dir, dataDir: join(dir, 'data') });
  onTestFinished(() => setup.close());
  const server = await listen(createApp({ distDir: dir, baseUrl: cfg.baseUrl, submissionsOpen: setup.submissionsOpen, config: setup.report, routes: [setup.mount] }), { port: 0, host: '127.0.0.1' });
  onTestFinished(() => server.close());
  return server.url;
}

async function describeApi(dir: string, cfg: SubmissionsConfig): Promise<Record<string, unknown>> {
  return (await (await fetch(`${await startServer(dir, cfg)}/api/v1`)).json()) as Record<string, unknown>;
}

describe('setUpSubmissions', () => {
  it('creates the SQLite database, a private form-token secret and a private ALTCHA key on first start, and reuses them', async () => {
    const dir = makeTempDir();
    const doc = await describeApi(dir, config(dir));
    expect(statSync(join(dir, 'data', 'catalogue.db')).isFile()).toBe(true);
    const secrets = [FORM_TOKEN_SECRET_FILE, CHALLENGE_SECRET_FILE].map((name) => join(dir, 'data', name));
    const before = secrets.map((file) => readFileSync(file, 'utf8'));
    for (const [i, file] of secrets.entries()) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(before[i]?.trim()).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(before[0]).not.toBe(before[1]);
    // ALTCHA has its key (generated) and no site key.
    expect(doc).toMatchObject({ submissions_open: true, config: { database: true, challenge_secret: true, challenge_site_key: false } });
    await describeApi(dir, config(dir));
    expect(secrets.map((file) => readFileSync(file, 'utf8'))).toEqual(before);
  });

  it('uses CHALLENGE_SECRET as the ALTCHA key when it is set, and generates none', async () => {
    const dir = makeTempDir();
    const url = await startServer(dir, config(dir, { challengeSecret: 'an ALTCHA key set by the operator' }));
    const session = (await (await fetch(`${url}/api/v1/submissions/session`)).json()) as Record<string, unknown>;
    expect(session).toMatchObject({ challenge_provider: 'altcha', challenge_site_key: null, challenge_url: 'http://catalogue.test/api/v1/submissions/challenge' });
    expect(existsSync(join(dir, 'data', CHALLENGE_SECRET_FILE))).toBe(false);
    const challenge = (await (await fetch(`${url}/api/v1/submissions/challenge`)).json()) as { parameters: Record<string, unknown>; signature: string };
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1000 });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports the challenge pieces of a vendor, and answers its session with the site key', async () => {
    const dir = makeTempDir();
    const cfg = config(dir, { challengeProvider: 'hcaptcha', challengeSecret: 's', challengeSiteKey: 'k', formTokenSecret: 'x'.repeat(40) });
    const url = await startServer(dir, cfg);
    expect(((await (await fetch(`${url}/api/v1`)).json()) as Record<string, unknown>)['config']).toEqual({ database: true, challenge_secret: true, challenge_site_key: true });
    expect(await (await fetch(`${url}/api/v1/submissions/session`)).json()).toMatchObject({ challenge_provider: 'hcaptcha', challenge_site_key: 'k', challenge_url: null });
    const noChallenge = await fetch(`${url}/api/v1/submissions/challenge`);
    expect(noChallenge.status).toBe(404);
    expect(existsSync(join(dir, 'data', CHALLENGE_SECRET_FILE))).toBe(false);
  });

  it('widens the docs page CSP to the vendor, and only the docs page; ALTCHA keeps the pages policy', async () => {
    const dir = makeTempDir();
    for (const page of ['docs', 'loadouts/x']) {
      mkdirSync(join(dir, page), { recursive: true });
      writeFileSync(join(dir, page, 'index.html'), '<!doctype html><title>page</title>');
    }
    const csp = async (url: string, path: string): Promise<string | null> => (await fetch(`${url}${path}`)).headers.get('content-security-policy');
    const turnstile = await startServer(dir, config(dir, { challengeProvider: 'turnstile', challengeSecret: 's', challengeSiteKey: 'k' }));
    expect(await csp(turnstile, '/docs/')).toBe(pageCspWith(['https://challenges.cloudflare.com']));
    expect(await csp(turnstile, '/docs/')).toContain("frame-src https://challenges.cloudflare.com;");
    expect(await csp(turnstile, '/loadouts/x/')).toBe(PAGE_CSP);
    const hcaptcha = await startServer(dir, config(dir, { challengeProvider: 'hcaptcha', challengeSecret: 's', challengeSiteKey: 'k' }));
    expect(await csp(hcaptcha, '/docs/')).toContain("script-src 'self' https://hcaptcha.com https://*.hcaptcha.com;");
    const altcha = await startServer(dir, config(dir));
    expect(await csp(altcha, '/docs/')).toBe(PAGE_CSP);
  });

  it('refuses an incomplete or contradicting challenge configuration at start, naming the variable', async () => {
    const dir = makeTempDir();
    const start = (overrides: Partial<SubmissionsConfig>): Promise<unknown> => setUpSubmissions(config(dir, overrides), { distDir: dir, dataDir: join(dir, 'data') });
    await expect(start({ challengeSiteKey: 'k' })).rejects.toMatchObject({ code: 'config', message: expect.stringMatching(/CHALLENGE_SITE_KEY is set, but CHALLENGE_PROVIDER is altcha/) as unknown });
    await expect(start({ challengeProvider: 'turnstile', challengeSiteKey: 'k' })).rejects.toMatchObject({ code: 'config', message: expect.stringMatching(/CHALLENGE_SECRET is not set/) as unknown });
    await expect(start({ challengeProvider: 'turnstile', challengeSecret: 's' })).rejects.toMatchObject({ code: 'config', message: expect.stringMatching(/CHALLENGE_SITE_KEY is not set/) as unknown });
  });

  it('reports submissions closed when SUBMISSIONS_OPEN=false or no database is configured', async () => {
    const dir = makeTempDir();
    expect(await describeApi(dir, config(dir, { submissionsOpen: false }))).toMatchObject({ submissions_open: false, config: { database: true } });
    expect(await describeApi(dir, config(dir, { databaseUrl: 'none' }))).toMatchObject({ submissions_open: false, config: { database: false } });
    expect(await describeApi(dir, config(dir, { databaseUrl: '' }))).toMatchObject({ submissions_open: false, config: { database: false } });
  });
});

describe('the siteverify verifier', () => {
  it('posts secret, response and remoteip as a form and reads success and error-codes', async () => {
    const vendor = await startChallengeVendor('right');
    expect(await createSiteverifyVerifier({ secret: 'right', verifyUrl: vendor.url }).verify('pass-x', '10.0.0.1', new Date())).toMatchObject({ success: true, errorCodes: [] });
    expect(await createSiteverifyVerifier({ secret: 'wrong', verifyUrl: vendor.url }).verify('pass-y', undefined, new Date())).toEqual({ success: false, errorCodes: ['invalid-input-secret'] });
    expect(vendor.requests).toEqual([{ secret: 'right', response: 'pass-x', remoteip: '10.0.0.1' }, { secret: 'wrong', response: 'pass-y' }]);
  });

  it('throws when the vendor does not answer, which the API turns into 503 challenge_unavailable', async () => {
    const verifier = createSiteverifyVerifier({ secret: 's', verifyUrl: 'http://127.0.0.1:9/siteverify', timeoutMs: 2000 });
    await expect(verifier.verify('pass', undefined, new Date())).rejects.toThrow(/did not answer/);
  });
});
