/**
 * Concurrent `POST /api/v1/submissions` for one loadout id (SECURITY.md: one open submission
 * per loadout id), over a real HTTP server, on SQLite and PostgreSQL: whatever the
 * interleaving, one open submission holds the id, and every request gets the answer it would
 * get if the requests came one by one (409 `id_taken` for another submitter, a replacement for
 * the same API key), never a 500.
 */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/submissions/api-key.js';
import { DATABASE_KINDS } from '../storage/databases.js';
import { bearer, json, startHarness, validBody, type Harness } from './harness.js';
import { requires } from '../run/requirements.js';

const PARALLEL = 20;

/** Counts the rows of `table`; of `form_token_nonces`, the form tokens' only (passed challenges are kept there too, as `challenge:…`). */
async function count(h: Harness, table: 'submissions' | 'submission_files' | 'submission_events' | 'form_token_nonces'): Promise<number> {
  if (table === 'form_token_nonces') {
    return Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('nonce', 'not like', 'challenge:%').executeTakeFirstOrThrow()).n);
  }
  return Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}

/** Status and body of each response, in the order sent. */
async function settle(responses: Promise<Response>[]): Promise<{ status: number; body: Record<string, unknown> }[]> {
  return Promise.all(responses.map(async (pending) => {
    const response = await pending;
    return { status: response.status, body: await json(response) };
  }));
}

describe.each(DATABASE_KINDS)('concurrent submissions for one loadout id on $kind', ({ kind, skip, requirement }) => {
  requires(requirement);
  it.skipIf(skip)(`${PARALLEL} parallel browser submissions store one; the others get 409 and keep their form token unspent`, async () => {
    const h = await startHarness(kind);
    const tokens = await Promise.all(Array.from({ length: PARALLEL }, () => h.formToken()));
    const answers = await settle(tokens.map((token, i) => h.post(validBody({ form_token: token, challenge_token: `pass-${i}` }))));
    expect(answers.map((a) => a.status).sort()).toEqual([202, ...Array<number>(PARALLEL - 1).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toMatchObject({ code: 'id_taken', detail: expect.stringMatching(/another submission is already under review for loadout id "rust-cli-helpers"/) as unknown });
    }
    expect(await count(h, 'submissions')).toBe(1);
    expect(await count(h, 'submission_events')).toBe(1);
    // Sequentially, a 409 spends no form token; neither does losing the race.
    expect(await count(h, 'form_token_nonces')).toBe(1);
  });

  it.skipIf(skip)(`${PARALLEL + 1} parallel submissions from 3 API keys: one key holds the id, its requests replace, the others get 409`, async () => {
    const h = await startHarness(kind);
    const keys = [h.key, (await createApiKey(h.stores.keys, 'second agent', new Date())).key, (await createApiKey(h.stores.keys, 'third agent', new Date())).key];
    const senders = Array.from({ length: PARALLEL + 1 }, (_, i) => i % 3);
    const answers = await settle(senders.map((k, i) => h.post(validBody({ notes: `request ${i}` }), bearer(keys[k] ?? ''))));
    expect(answers.filter((a) => a.status !== 202 && a.status !== 409)).toEqual([]);
    const winners = new Set(senders.filter((_, i) => answers[i]?.status === 202));
    expect(winners.size).toBe(1);
    const winner = [...winners][0];
    const mine = answers.filter((_, i) => senders[i] === winner);
    expect(mine.map((a) => a.status)).toEqual(Array<number>(7).fill(202));
    expect(new Set(mine.map((a) => a.body['id'])).size).toBe(1);
    for (const refused of answers.filter((_, i) => senders[i] !== winner)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'id_taken' });
    }
    const stored = await h.stores.submissions.list();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toBe(mine[0]?.body['id']);
    const events = await h.stores.submissions.events(String(stored[0]?.id));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.map((e) => e.note)).toEqual([null, ...Array<string>(6).fill('resubmitted')]);
  });

  it.skipIf(skip)(`${PARALLEL} parallel submissions from one API key create one submission and replace it ${PARALLEL - 1} times`, async () => {
    const h = await startHarness(kind);
    const answers = await settle(Array.from({ length: PARALLEL }, (_, i) => h.post(validBody({ notes: `request ${i}` }), bearer(h.key))));
    expect(answers.map((a) => a.status)).toEqual(Array<number>(PARALLEL).fill(202));
    const ids = new Set(answers.map((a) => a.body['id']));
    expect(ids.size).toBe(1);
    const stored = await h.stores.submissions.list();
    expect(stored.map((s) => s.id)).toEqual([...ids]);
    const events = await h.stores.submissions.events(String(stored[0]?.id));
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: PARALLEL }, (_, i) => i + 1));
    expect(events.filter((e) => e.note === 'resubmitted')).toHaveLength(PARALLEL - 1);
    // The files are those of one request, not a mixture: four files (AGENTS.md, two adapters, one rule).
    expect(await count(h, 'submission_files')).toBe(4);
    expect(String(stored[0]?.request['notes'])).toMatch(/^request \d+$/);
  });
});
