/**
 * What `POST /api/v1/submissions` answers to bodies it cannot read and to servers that do not
 * take submissions: 413 (checked before parsing), 415, 400, 503 `submissions_closed`, 503
 * `database_unavailable`, 429 per client address, 405; and the crash test: a failure between validation and storage leaves
 * no half-written submission.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ERRORS } from '../../src/server/problem.js';
import { MAX_BODY_BYTES } from '../../src/submissions/body.js';
import { DATABASE_KINDS } from '../storage/databases.js';
import { bearer, json, startHarness, validBody } from './harness.js';
import { requires } from '../run/requirements.js';

describe.each(DATABASE_KINDS)('submission errors on $kind', ({ kind, skip, requirement }) => {
  requires(requirement);
  it.skipIf(skip)('answers 413 for a body over the limit, declared or streamed', async () => {
    const h = await startHarness(kind);
    const big = JSON.stringify(validBody({ notes: 'n'.repeat(MAX_BODY_BYTES) }));
    const declared = await h.post(big, bearer(h.key));
    expect(declared.status).toBe(413);
    expect(await json(declared)).toMatchObject({ code: 'body_too_large', status: 413 });
    // Without Content-Length (chunked): the server counts bytes as they arrive.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await fetch(`${h.url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(h.key) }, body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it.skipIf(skip)('answers 415 for a body that is not JSON, and accepts a charset parameter', async () => {
    const h = await startHarness(kind);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await h.post(JSON.stringify(validBody()), { ...bearer(h.key), 'content-type': type });
      expect(response.status, type).toBe(415);
      expect(await json(response)).toMatchObject({ code: 'unsupported_media_type' });
    }
    const noType = await fetch(`${h.url}/api/v1/submissions`, { method: 'POST', headers: bearer(h.key), body: new Blob([JSON.stringify(validBody())]) });
    expect(noType.status).toBe(415);
    expect((await h.post(validBody(), { ...bearer(h.key), 'content-type': 'application/json; charset=utf-8' })).status).toBe(202);
  });

  it.skipIf(skip)('answers 415 naming the charset for any charset but utf-8, and takes utf-8 in any spelling', async () => {
    const h = await startHarness(kind);
    const refused: [string, string][] = [
      ['application/json; charset=latin1', '"latin1"'],
      ['application/json;charset=ISO-8859-1', '"ISO-8859-1"'],
      ['application/json; charset="utf-16"', '"utf-16"'],
      ['application/json; charset=utf8', '"utf8"'],
      ['application/json; charset=us-ascii', '"us-ascii"'],
      ['application/json; charset=""', '""'],
      ['application/json; charset=utf-8; charset=latin1', 'twice'],
      ['application/json; charset', 'not name=value'],
      ['application/json; charset=utf-8 x', 'malformed'],
    ];
    for (const [type, named] of refused) {
      const response = await h.post(validBody(), { ...bearer(h.key), 'content-type': type });
      expect(response.status, type).toBe(415);
      expect(await json(response), type).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining(named) as unknown });
    }
    expect(await h.stores.submissions.list()).toEqual([]);
    const accepted = ['application/json', 'Application/JSON; Charset=UTF-8', 'application/json;charset="utf-8"', 'application/json ; charset=Utf-8 ; profile=x'];
    for (const [i, type] of accepted.entries()) {
      const response = await h.post(validBody({ id: `charset-ok-${i}` }), { ...bearer(h.key), 'content-type': type });
      expect(response.status, type).toBe(202);
    }
  });

  it.skipIf(skip)('lists at most 50 field errors and counts the rest, so a 422 stays small whatever the body', async () => {
    const h = await startHarness(kind);
    const body = validBody();
    for (let i = 0; i < 45_000; i++) body[`u${i}`] = 1;
    const sent = JSON.stringify(body);
    expect(sent.length).toBeLessThan(MAX_BODY_BYTES);
    const response = await h.post(sent, bearer(h.key));
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text.length).toBeLessThan(20_000);
    const problem = JSON.parse(text) as { errors: { pointer: string }[]; errors_omitted: number; detail: string };
    expect(problem.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(problem.errors[0]?.pointer).toBe('/u0');
    expect(problem.errors_omitted).toBe(45_000 - MAX_LISTED_ERRORS);
    expect(problem.detail).toMatch(/45000 invalid fields.*first 50 of 45000 errors are listed; 44950 more are not/);

    // At the limit nothing is left out and no count is added.
    const fifty = validBody();
    for (let i = 0; i < MAX_LISTED_ERRORS; i++) fifty[`u${i}`] = 1;
    const exact = await json(await h.post(fifty, bearer(h.key)));
    expect(exact['errors']).toHaveLength(MAX_LISTED_ERRORS);
    expect(exact).not.toHaveProperty('errors_omitted');
  });

  it.skipIf(skip)('answers 400 for malformed JSON', async () => {
    const h = await startHarness(kind);
    for (const body of ['{"name": ', '', '{name: "x"}']) {
      const response = await h.post(body, bearer(h.key));
      expect(response.status, body).toBe(400);
      expect(await json(response)).toMatchObject({ code: 'malformed_json' });
    }
  });

  it.skipIf(skip)('answers 503 submissions_closed when SUBMISSIONS_OPEN=false, and still serves status', async () => {
    const h = await startHarness(kind, { open: false });
    const response = await h.post(validBody(), bearer(h.key));
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: 'submissions_closed', detail: expect.stringMatching(/SUBMISSIONS_OPEN/) as unknown });
    expect((await fetch(`${h.url}/api/v1/submissions/session`)).status).toBe(503);
    expect((await fetch(`${h.url}/api/v1/submissions/5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`)).status).toBe(404);
  });

  it.skipIf(skip)('answers 503 submissions_closed when no database is configured', async () => {
    const h = await startHarness(kind, { noDatabase: true });
    const response = await h.post(validBody(), bearer(h.key));
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: 'submissions_closed', detail: expect.stringMatching(/no database/) as unknown });
    expect((await fetch(`${h.url}/api/v1/submissions/5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`)).status).toBe(503);
  });

  // As while the server shuts down, or while PostgreSQL restarts: a failure of the database is
  // the service being unavailable, not a bug, and the client may retry.
  it.skipIf(skip)('answers 503 database_unavailable with Retry-After when the database does not answer, giving the reason only', async () => {
    const h = await startHarness(kind);
    await h.database.close();
    const logged: unknown[] = [];
    const silence = console.error;
    console.error = (error: unknown): void => void logged.push(error);
    let posted: Response;
    let status: Response;
    try {
      posted = await h.post(validBody(), bearer(h.key));
      status = await fetch(`${h.url}/api/v1/submissions/5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`);
    } finally {
      console.error = silence;
    }
    for (const response of [posted, status]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ code: 'database_unavailable', reason: 'not_open', detail: expect.stringMatching(/the database did not answer \(not_open; .*retry after 5 seconds/u) as unknown });
      expect(text).not.toMatch(/destroyed|not open/u);
    }
    expect(logged.map((e) => (e as Error).message)).toEqual([expect.stringMatching(/destroyed|not open/u), expect.stringMatching(/destroyed|not open/u)]);
  });

  it.skipIf(skip)('answers 429 with Retry-After per client address, whatever the credential', async () => {
    const h = await startHarness(kind, { limits: { perAddress: 3 } });
    expect((await h.post(validBody())).status).toBe(401);
    expect((await h.post('{', bearer(h.key))).status).toBe(400);
    expect((await h.post(validBody(), bearer(h.key))).status).toBe(202);
    const limited = await h.post(validBody({ id: 'another-one' }), bearer(h.key));
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await json(limited)).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/client address/) as unknown });
  });

  it.skipIf(skip)('answers 405 with Allow for other methods on /api/v1/submissions', async () => {
    const h = await startHarness(kind);
    const response = await fetch(`${h.url}/api/v1/submissions`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it.skipIf(skip)('leaves no half-written submission when storage fails after validation', async () => {
    const h = await startHarness(kind);
    // A database trigger makes the second insert of the transaction (the files) fail.
    if (kind === 'sqlite') {
      await sql.raw(`CREATE TRIGGER fail_files BEFORE INSERT ON submission_files BEGIN SELECT RAISE(ABORT, 'simulated crash'); END`).execute(h.database.db);
    } else {
      await sql.raw(`CREATE FUNCTION fail_files() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'simulated crash'; END $$ LANGUAGE plpgsql`).execute(h.database.db);
      await sql.raw(`CREATE TRIGGER fail_files BEFORE INSERT ON submission_files FOR EACH ROW EXECUTE FUNCTION fail_files()`).execute(h.database.db);
    }
    const token = await h.formToken();
    const silence = console.error;
    console.error = (): void => undefined;
    let crashed: Response;
    try {
      crashed = await h.post(validBody({ form_token: token, challenge_token: 'pass-1' }));
    } finally {
      console.error = silence;
    }
    expect(crashed.status).toBe(500);
    expect(await json(crashed)).toMatchObject({ code: 'internal_error' });
    // Of form_token_nonces, the form tokens' rows only (passed challenges are kept there too, as `challenge:…`).
    const count = async (table: 'submissions' | 'submission_files' | 'submission_events' | 'form_token_nonces'): Promise<number> =>
      table === 'form_token_nonces'
        ? Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('nonce', 'not like', 'challenge:%').executeTakeFirstOrThrow()).n)
        : Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect([await count('submissions'), await count('submission_files'), await count('submission_events'), await count('form_token_nonces')]).toEqual([0, 0, 0, 0]);

    // The form token was not spent: once storage works, the same token goes through.
    await sql.raw('DROP TRIGGER fail_files' + (kind === 'postgres' ? ' ON submission_files' : '')).execute(h.database.db);
    expect((await h.post(validBody({ form_token: token, challenge_token: 'pass-2' }))).status).toBe(202);
    expect([await count('submissions'), await count('submission_files'), await count('submission_events'), await count('form_token_nonces')]).toEqual([1, 4, 1, 1]);
  });
});
