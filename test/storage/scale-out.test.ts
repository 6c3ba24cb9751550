import { randomBytes } from 'node:crypto';
import { expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { createStores } from '../../src/storage/stores.js';
import { createApiKey } from '../../src/submissions/api-key.js';
import { buildSmallCatalogue, postgresUrl, startServer, type TestServer } from '../server/serve-harness.js';
import { startChallengeVendor } from '../submissions/challenge-vendor.js';
import { validBody } from '../submissions/harness.js';
import { adminQuery } from './databases.js';
import { describeWith, NEEDS_POSTGRES } from '../run/requirements.js';

const PG = process.env['TEST_DATABASE_URL'] ?? '';
const CHALLENGE_SECRET = 'scale-out-vendor-secret';

/** Two `loadout serve` instances of one tree on one fresh PostgreSQL schema, and a valid API key there. */
async function startTwoInstances(env: Record<string, string>): Promise<{ a: TestServer; b: TestServer; key: string }> {
  const root = await buildSmallCatalogue();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(PG, `CREATE SCHEMA ${schema}`);
  onTestFinished(() => adminQuery(PG, `DROP SCHEMA ${schema} CASCADE`));
  const vendor = await startChallengeVendor(CHALLENGE_SECRET, { forgetful: true });
  const shared = {
    DATABASE_URL: postgresUrl(PG, schema),
    FORM_TOKEN_SECRET: 'shared-form-token-secret-0123456789abcdef',
    CHALLENGE_PROVIDER: 'turnstile',
    CHALLENGE_SECRET,
    CHALLENGE_SITE_KEY: 'site-key',
    CHALLENGE_VERIFY_URL: vendor.url,
    LOG_LEVEL: 'silent',
    ...env,
  };
  const a = await startServer(root, shared);
  const b = await startServer(root, shared);
  const database = openDatabase(PG, { schema });
  const { key } = await createApiKey(createStores(database).keys, 'scale-out test', new Date());
  await database.close();
  return { a, b, key };
}

const submit = (server: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${server.url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describeWith(NEEDS_POSTGRES)('two instances on one PostgreSQL (DESIGN.md section 1, scale-out)', () => {
  it('a per-key limit of 2 allows two submissions spread over both instances and refuses the third with 429', async () => {
    const { a, b, key } = await startTwoInstances({ RATE_LIMIT_PER_KEY: '2' });
    const auth = { authorization: `Bearer ${key}` };
    expect((await submit(a, validBody({ id: 'first-loadout' }), auth)).status).toBe(202);
    expect((await submit(b, validBody({ id: 'second-loadout' }), auth)).status).toBe(202);
    const third = await submit(a, validBody({ id: 'third-loadout' }), auth);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await submit(b, validBody({ id: 'fourth-loadout' }), auth)).status).toBe(429);
  }, 90_000);

  it('a form token or a challenge solution used at one instance is refused when replayed at the other', async () => {
    const { a, b } = await startTwoInstances({});
    const token = ((await (await fetch(`${a.url}/api/v1/submissions/session`)).json()) as { form_token: string }).form_token;
    expect((await submit(a, validBody({ id: 'browser-one', form_token: token, challenge_token: 'pass-1' }))).status).toBe(202);
    const replayed = await submit(b, validBody({ id: 'browser-two', form_token: token, challenge_token: 'pass-2' }));
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { detail: string }).detail).toMatch(/used already/u);

    // The vendor passes a solution every time (forgetful): only the shared database refuses its replay.
    const fresh = ((await (await fetch(`${b.url}/api/v1/submissions/session`)).json()) as { form_token: string }).form_token;
    const solution = await submit(b, validBody({ id: 'browser-three', form_token: fresh, challenge_token: 'pass-1' }));
    expect(solution.status).toBe(403);
    expect(((await solution.json()) as { challenge_errors: string[] }).challenge_errors).toEqual(['already-used']);
  }, 90_000);
});
