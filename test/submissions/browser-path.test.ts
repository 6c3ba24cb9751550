/**
 * `GET /api/v1/submissions/session` and `POST /api/v1/submissions` from the browser form:
 * form token (HMAC, 2 hours, single use) plus challenge token, verified against a local
 * server that speaks the vendor's siteverify protocol.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { FORM_TOKEN_LIFETIME_SECONDS, issueFormToken } from '../../src/submissions/form-token.js';
import { DATABASE_KINDS } from '../storage/databases.js';
import { CHALLENGE_SECRET, FORM_SECRET, json, SITE_KEY, startHarness, validBody } from './harness.js';
import { requires } from '../run/requirements.js';

describe.each(DATABASE_KINDS)('browser submissions on $kind', ({ kind, skip, requirement }) => {
  requires(requirement);
  it.skipIf(skip)('issues a session: form_token and expires_at two hours ahead, and what the vendor widget needs', async () => {
    const h = await startHarness(kind);
    const before = Date.now();
    const response = await fetch(`${h.url}/api/v1/submissions/session`);
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(body).sort()).toEqual(['challenge_provider', 'challenge_site_key', 'challenge_url', 'expires_at', 'form_token']);
    expect(body).toMatchObject({ challenge_provider: 'turnstile', challenge_site_key: SITE_KEY, challenge_url: null });
    const expires = Date.parse(String(body['expires_at']));
    // Token expiry is whole seconds: at most one second before `before` + 2 hours.
    expect(expires - before, String(body['expires_at'])).toBeGreaterThan((FORM_TOKEN_LIFETIME_SECONDS - 5) * 1000);
    expect(expires - Date.now(), String(body['expires_at'])).toBeLessThanOrEqual(FORM_TOKEN_LIFETIME_SECONDS * 1000);
  });

  it.skipIf(skip)('accepts a form token with a passed challenge, and sends secret, response and remoteip to the vendor', async () => {
    const h = await startHarness(kind);
    const response = await h.post(validBody({ form_token: await h.formToken(), challenge_token: 'pass-1' }));
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(body['status']).toBe('pending-review');
    expect(h.vendor.contentTypes).toEqual(['application/x-www-form-urlencoded']);
    expect(h.vendor.requests).toEqual([{ secret: CHALLENGE_SECRET, response: 'pass-1', remoteip: '127.0.0.1' }]);
    const stored = await h.stores.submissions.get(String(body['id']));
    expect(stored?.submitter).toBe('form');
    expect(stored?.request).not.toHaveProperty('form_token');
    expect(stored?.request).not.toHaveProperty('challenge_token');
  });

  it.skipIf(skip)('refuses a replayed form token with 401', async () => {
    const h = await startHarness(kind);
    const token = await h.formToken();
    expect((await h.post(validBody({ id: 'first-one', form_token: token, challenge_token: 'pass-1' }))).status).toBe(202);
    const replay = await h.post(validBody({ id: 'second-one', form_token: token, challenge_token: 'pass-2' }));
    expect(replay.status).toBe(401);
    expect((await json(replay))['detail']).toMatch(/used already/);
    expect(h.vendor.requests).toHaveLength(1);
  });

  it.skipIf(skip)('lets exactly one of two concurrent uses of one form token through', async () => {
    const h = await startHarness(kind);
    const token = await h.formToken();
    const [a, b] = await Promise.all([
      h.post(validBody({ id: 'racer-one', form_token: token, challenge_token: 'pass-a' })),
      h.post(validBody({ id: 'racer-two', form_token: token, challenge_token: 'pass-b' })),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 401]);
    expect(await h.stores.submissions.list()).toHaveLength(1);
  });

  it.skipIf(skip)('refuses an expired, forged or missing form token with 401', async () => {
    const h = await startHarness(kind);
    const expired = issueFormToken(FORM_SECRET, new Date(Date.now() - (FORM_TOKEN_LIFETIME_SECONDS + 1) * 1000)).token;
    const expiredResponse = await h.post(validBody({ form_token: expired, challenge_token: 'pass-1' }));
    expect(expiredResponse.status).toBe(401);
    expect((await json(expiredResponse))['detail']).toMatch(/expired/);
    const forged = issueFormToken('another secret of the same length as the real', new Date()).token;
    expect((await h.post(validBody({ form_token: forged, challenge_token: 'pass-1' }))).status).toBe(401);
    const good = await h.formToken();
    const tampered = `${good.split('.')[0] ?? ''}x.${good.split('.')[1] ?? ''}`;
    expect((await h.post(validBody({ form_token: tampered, challenge_token: 'pass-1' }))).status).toBe(401);
    expect((await h.post(validBody({ form_token: 'garbage', challenge_token: 'pass-1' }))).status).toBe(401);
    expect((await h.post(validBody({ challenge_token: 'pass-1' }))).status).toBe(401);
    expect((await h.post(validBody({ form_token: 12, challenge_token: 'pass-1' }))).status).toBe(401);
    expect((await h.post(validBody({ form_token: good }))).status).toBe(401);
    expect(h.vendor.requests).toEqual([]);
  });

  it.skipIf(skip)('answers 403 when the challenge fails verification, and the form token stays usable', async () => {
    const h = await startHarness(kind);
    const token = await h.formToken();
    const failed = await h.post(validBody({ form_token: token, challenge_token: 'bot' }));
    expect(failed.status).toBe(403);
    expect(await json(failed)).toMatchObject({ code: 'forbidden', challenge_errors: ['invalid-input-response'] });
    expect((await h.post(validBody({ form_token: token, challenge_token: 'pass-1' }))).status).toBe(202);
    // A challenge token the vendor has seen is refused as timeout-or-duplicate.
    const reused = await h.post(validBody({ id: 'other-id', form_token: await h.formToken(), challenge_token: 'pass-1' }));
    expect(reused.status).toBe(403);
    expect(await json(reused)).toMatchObject({ challenge_errors: ['timeout-or-duplicate'] });
  });

  it.skipIf(skip)('keeps the form token when the body is invalid (422), so the form can be corrected', async () => {
    const h = await startHarness(kind);
    const token = await h.formToken();
    const invalid = await h.post(validBody({ licence: 'GPL', form_token: token, challenge_token: 'pass-1' }));
    expect(invalid.status).toBe(422);
    expect((await h.post(validBody({ form_token: token, challenge_token: 'pass-2' }))).status).toBe(202);
  });

  it.skipIf(skip)('closes the browser path with 503 when no challenge is configured; agents still submit', async () => {
    const h = await startHarness(kind, { noChallenge: true });
    const session = await fetch(`${h.url}/api/v1/submissions/session`);
    expect(session.status).toBe(503);
    expect(await json(session)).toMatchObject({ code: 'submissions_closed', detail: expect.stringMatching(/no bot challenge configured/) as unknown });
    const token = issueFormToken(FORM_SECRET, new Date()).token;
    expect((await h.post(validBody({ form_token: token, challenge_token: 'pass-1' }))).status).toBe(503);
    expect((await h.post(validBody(), { authorization: `Bearer ${h.key}` })).status).toBe(202);
  });

  it.skipIf(skip)('answers 503 challenge_unavailable when the vendor does not answer, logging CHALLENGE_VERIFY_URL instead of showing it', async () => {
    // Port 9 (discard) refuses the connection; the path is what an operator would not publish.
    const verifyUrl = 'http://127.0.0.1:9/private-siteverify-7f3a';
    const h = await startHarness(kind, { challengeUrl: verifyUrl });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => logged.mockRestore());
    const response = await h.post(validBody({ form_token: await h.formToken(), challenge_token: 'pass-1' }));
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'challenge_unavailable', detail: expect.stringMatching(/did not answer/) as unknown });
    expect(text).not.toContain('private-siteverify');
    expect(text).not.toContain('127.0.0.1:9');
    expect(response.headers.get('retry-after')).toBe('30');
    expect(logged.mock.calls.map((call) => String(call[0] instanceof Error ? call[0].message : call[0])).join('\n')).toContain(verifyUrl);
  });
});
