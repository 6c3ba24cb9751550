/**
 * Wiring from configuration: the database is created and migrated on first start, the
 * form-token secret is generated into the data folder, the description document reports
 * `submissions_open` and `config` truthfully, and a vendor that does not answer is a 503.
 */
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import { createSiteverifyVerifier } from '../../src/submissions/challenge.js';
import { DEFAULT_RATE_LIMITS } from '../../src/submissions/rate-limit.js';
import { FORM_TOKEN_SECRET_FILE, setUpSubmissions, type SubmissionsConfig } from '../../src/submissions/setup.js';
import { makeTempDir } from '../helpers/temp.js';
import { startChallengeVendor } from './challenge-vendor.js';

function config(dir: string, overrides: Partial<SubmissionsConfig> = {}): SubmissionsConfig {
  return {
    databaseUrl: `sqlite:${join(dir, 'data', 'catalogue.db')}`,
    submissionsOpen: true,
    formTokenSecret: undefined,
    challengeSecret: undefined,
    challengeSiteKey: undefined,
    challengeVerifyUrl: 'http://127.0.0.1:9/siteverify',
    baseUrl: 'http://catalogue.test',
    rateLimits: DEFAULT_RATE_LIMITS,
    trustProxy: false,
    ...overrides,
  };
}

async function describeApi(dir: string, cfg: SubmissionsConfig): Promise<Record<string, unknown>> {
  const setup = await setUpSubmissions(cfg, { distDir: dir, dataDir: join(dir, 'data') });
  onTestFinished(() => setup.close());
  const server = await listen(createApp({ distDir: dir, baseUrl: cfg.baseUrl, submissionsOpen: setup.submissionsOpen, config: setup.report, routes: [setup.mount] }), { port: 0, host: '127.0.0.1' });
  onTestFinished(() => server.close());
  return (await (await fetch(`${server.url}/api/v1`)).json()) as Record<string, unknown>;
}

describe('setUpSubmissions', () => {
  it('creates the SQLite database and a private form-token secret on first start, and reuses the secret', async () => {
    const dir = makeTempDir();
    const doc = await describeApi(dir, config(dir));
    expect(statSync(join(dir, 'data', 'catalogue.db')).isFile()).toBe(true);
    const secretFile = join(dir, 'data', FORM_TOKEN_SECRET_FILE);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, 'utf8');
    expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(doc).toMatchObject({ submissions_open: true, config: { database: true, challenge_secret: false, challenge_site_key: false } });
    await describeApi(dir, config(dir));
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
  });

  it('reports the challenge pieces that are configured', async () => {
    const dir = makeTempDir();
    const doc = await describeApi(dir, config(dir, { challengeSecret: 's', challengeSiteKey: 'k', formTokenSecret: 'x'.repeat(40) }));
    expect(doc['config']).toEqual({ database: true, challenge_secret: true, challenge_site_key: true });
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
    expect(await createSiteverifyVerifier({ secret: 'right', verifyUrl: vendor.url }).verify('pass-x', '10.0.0.1')).toEqual({ success: true, errorCodes: [] });
    expect(await createSiteverifyVerifier({ secret: 'wrong', verifyUrl: vendor.url }).verify('pass-y', undefined)).toEqual({ success: false, errorCodes: ['invalid-input-secret'] });
    expect(vendor.requests).toEqual([{ secret: 'right', response: 'pass-x', remoteip: '10.0.0.1' }, { secret: 'wrong', response: 'pass-y' }]);
  });

  it('throws when the vendor does not answer, which the API turns into 503 challenge_unavailable', async () => {
    const verifier = createSiteverifyVerifier({ secret: 's', verifyUrl: 'http://127.0.0.1:9/siteverify', timeoutMs: 2000 });
    await expect(verifier.verify('pass', undefined)).rejects.toThrow(/did not answer/);
  });
});
