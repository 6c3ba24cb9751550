/**
 * Submissions under load and from clients that went away (issue 35, point 6): the checks' queue
 * is bounded (503 `checks_busy` with `Retry-After`, as a problem), and a submission whose client
 * left is dropped: its checks do not run if they had not started, and it is not stored. A real
 * server on 127.0.0.1 over a real SQLite database and the real check threads, with the checks
 * held at a gate the test opens, so that nothing depends on timing.
 */
import { request } from 'node:http';
import type { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CheckPool, type SubmissionChecks } from '../../src/submissions/check-pool.js';
import { CheckQueue, type CheckPlace } from '../../src/submissions/check-queue.js';
import { bearer, startHarness, validBody, type Harness } from './harness.js';

/** A promise with its resolve at hand. */
interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The real checks on one thread, each run held until `gate` opens; `runs` lists the ids checked, `started` resolves as each run starts. */
function gatedChecks(): { checks: SubmissionChecks; gate: Deferred; runs: string[]; started: () => Promise<void> } {
  const pool = new CheckPool({ budgetMs: 5000, threads: 1 });
  onTestFinished(() => pool.close());
  const gate = deferred();
  const runs: string[] = [];
  let next = deferred();
  const checks: SubmissionChecks = {
    budgetMs: pool.budgetMs,
    threads: 1,
    async run(submission, today) {
      runs.push(submission.id);
      next.resolve();
      await gate.promise;
      return pool.run(submission, today);
    },
    close: () => pool.close(),
  };
  return {
    checks,
    gate,
    runs,
    started: async () => {
      await next.promise;
      next = deferred();
    },
  };
}

/** A queue that tells the test each time a submission asks for its turn at the checks. */
class WatchedQueue extends CheckQueue {
  #asked = 0;
  #waiters: { count: number; resolve: () => void }[] = [];
  override reserve(): CheckPlace | undefined {
    const place = super.reserve();
    if (place === undefined) return undefined;
    return {
      release: place.release,
      turn: (signal) => {
        const turn = place.turn(signal);
        this.#asked++;
        for (const w of this.#waiters.filter((w) => w.count <= this.#asked)) w.resolve();
        return turn;
      },
    };
  }
  /** Resolves once `count` submissions have asked for their turn. */
  asked(count: number): Promise<void> {
    if (this.#asked >= count) return Promise.resolve();
    const w = deferred();
    this.#waiters.push({ count, resolve: w.resolve });
    return w.promise;
  }
}

/** Watches each submission request: `aborted` resolves when its client left (the request's signal), `done` once the app answered it. */
function watchRequests(): { before: (app: Hono) => void; requests: { aborted: Promise<void>; done: Promise<void> }[] } {
  const requests: { aborted: Promise<void>; done: Promise<void> }[] = [];
  return {
    requests,
    before: (app) =>
      app.use('/api/v1/submissions', async (c, next) => {
        const aborted = deferred();
        const done = deferred();
        requests.push({ aborted: aborted.promise, done: done.promise });
        c.req.raw.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
        try {
          await next();
        } finally {
          done.resolve();
        }
      }),
  };
}

/** Sends a submission on its own connection and returns a function that drops the connection (the client leaving). */
function sendAndLeave(h: Harness, body: unknown): () => void {
  const url = new URL('/api/v1/submissions', h.url);
  const client = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(h.key) }, agent: false });
  client.on('error', () => undefined);
  client.end(JSON.stringify(body));
  return () => client.destroy();
}

const stored = async (h: Harness): Promise<number> => (await h.database.db.selectFrom('submissions').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

describe('the checks queue', () => {
  it('answers 503 checks_busy with Retry-After as a problem once every place is taken, and serves the others when their turn comes', async () => {
    const { checks, gate, started } = gatedChecks();
    const queue = new WatchedQueue({ running: 1, waiting: 2 });
    const h = await startHarness('sqlite', { checks, queue });
    const first = h.post(validBody({ id: 'queued-one' }), bearer(h.key));
    await started();
    const waiting = [h.post(validBody({ id: 'queued-two' }), bearer(h.key)), h.post(validBody({ id: 'queued-three' }), bearer(h.key))];
    await queue.asked(3);
    expect(queue.full).toBe(true);

    const refused = await h.post(validBody({ id: 'queued-four' }), bearer(h.key));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/u);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ status: 503, code: 'checks_busy', title: 'Checks busy', type: '/docs/#problem-checks_busy' });

    gate.resolve();
    expect((await Promise.all([first, ...waiting])).map((r) => r.status)).toEqual([202, 202, 202]);
    expect(await stored(h)).toBe(3);
    expect((await h.post(validBody({ id: 'queued-five' }), bearer(h.key))).status).toBe(202);
  }, 60_000);
});

describe('submissions whose client went away', () => {
  it('are neither checked (when still waiting) nor stored (when being checked), and the queue serves the next', async () => {
    const { checks, gate, runs, started } = gatedChecks();
    const queue = new WatchedQueue({ running: 1, waiting: 4 });
    const watch = watchRequests();
    const h = await startHarness('sqlite', { checks, queue, before: watch.before });

    const leaveChecked = sendAndLeave(h, validBody({ id: 'left-while-checked' }));
    await started();
    const leaveWaiting = sendAndLeave(h, validBody({ id: 'left-while-waiting' }));
    await queue.asked(2);
    leaveWaiting();
    leaveChecked();
    await Promise.all(watch.requests.map((r) => r.aborted));
    // The waiting one left the queue at once; the one being checked finishes its checks.
    await watch.requests[1]?.done;
    expect(queue.queued).toBe(0);
    gate.resolve();
    await watch.requests[0]?.done;

    expect(runs).toEqual(['left-while-checked']);
    expect(await stored(h)).toBe(0);
    expect(queue.active).toBe(0);
    const next = await h.post(validBody({ id: 'stayed' }), bearer(h.key));
    expect(next.status).toBe(202);
    expect(await stored(h)).toBe(1);
  }, 60_000);
});

describe('CheckQueue', () => {
  it('holds running + waiting places, gives turns in the order asked, and gives a place back when a waiting caller aborts', async () => {
    const queue = new CheckQueue({ running: 1, waiting: 2 });
    const a = queue.reserve();
    const b = queue.reserve();
    const c = queue.reserve();
    if (a === undefined || b === undefined || c === undefined) throw new Error('expected three places');
    expect(queue.reserve()).toBeUndefined();
    expect(queue.full).toBe(true);
    expect(await a.turn()).toBe(true);
    const stop = new AbortController();
    const bTurn = b.turn(stop.signal);
    const cTurn = c.turn();
    expect([queue.active, queue.queued, queue.held]).toEqual([1, 2, 3]);
    stop.abort();
    expect(await bTurn).toBe(false);
    expect([queue.queued, queue.held]).toEqual([1, 2]);
    a.release();
    a.release(); // twice is once
    expect(await cTurn).toBe(true);
    expect([queue.active, queue.queued, queue.held]).toEqual([1, 0, 1]);
    const d = queue.reserve();
    expect(await d?.turn(AbortSignal.abort())).toBe(false);
    c.release();
    expect([queue.active, queue.held]).toEqual([0, 0]);
    expect(() => new CheckQueue({ running: 0, waiting: 1 })).toThrow(/running is 0/u);
  });
});
