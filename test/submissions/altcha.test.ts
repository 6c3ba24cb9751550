/**
 * The embedded ALTCHA challenge over HTTP (docs/maintaining.md "The bot challenge"): the server
 * issues signed challenges, a solution (found here with altcha-lib's own solver, as the
 * widget's workers do) passes once, and a replayed, tampered, expired or malformed one is a
 * 403. Also: a vendor's token that its vendor would pass again is refused by the server's own
 * record.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { ALTCHA_LIFETIME_MS, createAltchaVerifier } from '../../src/submissions/altcha.js';
import { DATABASE_KINDS } from '../storage/databases.js';
import { json, startHarness, validBody, type Harness } from './harness.js';
import { requires } from '../run/requirements.js';

/** Easy enough to solve in a few milliseconds here; the real difficulty is tested in the browser. */
const EASY = { cost: 1, maxCounter: 40 };

async function fetchChallenge(h: Harness): Promise<Challenge> {
  const response = await fetch(`${h.url}/api/v1/submissions/challenge`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as Challenge;
}

/** The widget's payload for `challenge`: base64 of `{challenge: {parameters, signature}, solution}`. */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('no solution found');
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}

describe.each(DATABASE_KINDS)('the ALTCHA challenge on $kind', ({ kind, skip, requirement }) => {
  requires(requirement);
  it.skipIf(skip)('issues a challenge, passes its solution once, and refuses the replay with a new form token', async () => {
    const h = await startHarness(kind, { challenge: createAltchaVerifier({ secret: 'altcha-test-key', difficulty: EASY }) });
    const session = await json(await fetch(`${h.url}/api/v1/submissions/session`));
    expect(session).toMatchObject({ challenge_provider: 'altcha', challenge_site_key: null, challenge_url: 'http://catalogue.test/api/v1/submissions/challenge' });
    const token = await solve(await fetchChallenge(h));
    const first = await h.post(validBody({ id: 'first-one', form_token: session['form_token'], challenge_token: token }));
    expect(first.status, JSON.stringify(await first.clone().json())).toBe(202);
    const replay = await h.post(validBody({ id: 'second-one', form_token: await h.formToken(), challenge_token: token }));
    expect(replay.status).toBe(403);
    expect(await json(replay)).toMatchObject({ code: 'forbidden', challenge_errors: ['already-used'], detail: expect.stringMatching(/used already/) as unknown });
    expect(await h.stores.submissions.list()).toHaveLength(1);
  });

  it.skipIf(skip)('lets exactly one of two concurrent uses of one solution through', async () => {
    const h = await startHarness(kind, { challenge: createAltchaVerifier({ secret: 'altcha-test-key', difficulty: EASY }) });
    const token = await solve(await fetchChallenge(h));
    const [a, b] = await Promise.all([
      h.post(validBody({ id: 'racer-one', form_token: await h.formToken(), challenge_token: token })),
      h.post(validBody({ id: 'racer-two', form_token: await h.formToken(), challenge_token: token })),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 403]);
  });

  it.skipIf(skip)('spends the solution on a 422 too, so a corrected body needs a new one', async () => {
    const h = await startHarness(kind, { challenge: createAltchaVerifier({ secret: 'altcha-test-key', difficulty: EASY }) });
    const token = await solve(await fetchChallenge(h));
    const formToken = await h.formToken();
    expect((await h.post(validBody({ licence: 'GPL', form_token: formToken, challenge_token: token }))).status).toBe(422);
    expect((await h.post(validBody({ form_token: formToken, challenge_token: token }))).status).toBe(403);
    expect((await h.post(validBody({ form_token: formToken, challenge_token: await solve(await fetchChallenge(h)) }))).status).toBe(202);
  });

  it.skipIf(skip)('refuses tampered, foreign, expired and malformed solutions with 403 and a code', async () => {
    const verifier = createAltchaVerifier({ secret: 'altcha-test-key', difficulty: EASY });
    const h = await startHarness(kind, { challenge: verifier });
    const refused = async (challengeToken: unknown): Promise<unknown> => {
      const response = await h.post(validBody({ form_token: await h.formToken(), challenge_token: challengeToken }));
      expect(response.status).toBe(403);
      return (await json(response))['challenge_errors'];
    };
    const challenge = await fetchChallenge(h);
    const good = JSON.parse(Buffer.from(await solve(challenge), 'base64').toString('utf8')) as { challenge: Challenge; solution: { counter: number; derivedKey: string } };
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');
    // A cheaper challenge: the signature no longer matches the parameters.
    expect(await refused(encode({ ...good, challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, cost: 0 } } }))).toEqual(['invalid-signature']);
    expect(await refused(encode({ ...good, solution: { counter: good.solution.counter + 1, derivedKey: '00'.repeat(32) } }))).toEqual(['invalid-solution']);
    const foreign = createAltchaVerifier({ secret: 'another server', difficulty: EASY });
    expect(await refused(await solve((await foreign.issue?.(new Date())) as Challenge))).toEqual(['invalid-signature']);
    const old = (await verifier.issue?.(new Date(Date.now() - ALTCHA_LIFETIME_MS - 1000))) as Challenge;
    expect(await refused(await solve(old))).toEqual(['expired']);
    for (const garbage of ['not base64!', Buffer.from('{"challenge":1}').toString('base64'), Buffer.from('[]').toString('base64'), 'x'.repeat(5000)]) {
      expect(await refused(garbage), garbage.slice(0, 20)).toEqual(['malformed-payload']);
    }
    // The good solution was never spent by those refusals.
    expect((await h.post(validBody({ form_token: await h.formToken(), challenge_token: encode(good) }))).status).toBe(202);
  });

  it.skipIf(skip)('refuses a vendor token the vendor would pass again: the server keeps its own record', async () => {
    const h = await startHarness(kind, { forgetfulVendor: true });
    expect((await h.post(validBody({ id: 'first-one', form_token: await h.formToken(), challenge_token: 'pass-again' }))).status).toBe(202);
    const replay = await h.post(validBody({ id: 'second-one', form_token: await h.formToken(), challenge_token: 'pass-again' }));
    expect(replay.status).toBe(403);
    expect(await json(replay)).toMatchObject({ challenge_errors: ['already-used'] });
    expect(h.vendor.requests).toHaveLength(2);
  });
});
