/**
 * Slow submission bodies (issue 53, point 7: 40 unauthenticated POSTs trickling a byte every 5 s
 * held every place of the checks' queue, so every other submission got 503 `checks_busy` for up
 * to Node's `requestTimeout`). Only a sender whose credential passed takes a place; a body has a
 * deadline (408 `request_timeout`, then the connection closes); one address sends at most
 * `bodiesPerAddress` bodies at once (429 `rate_limited` with `Retry-After`). A real server on
 * 127.0.0.1 over real SQLite, the slow clients on raw sockets. Nothing waits on a timer of the
 * test: the deadlines are the server's, set small, and the test waits for events (a body being
 * read, an answer, a closed socket).
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { resolveConfig } from '../../src/cli/config.js';
import { BodiesPerAddress } from '../../src/submissions/bodies-per-address.js';
import { CheckQueue } from '../../src/submissions/check-queue.js';
import { buildSmallCatalogue, startServer } from '../server/serve-harness.js';
import { bearer, json, startHarness, validBody, type Harness } from './harness.js';

/** A promise with its resolve at hand. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Watches each submission request as it reaches the routes: `reading(n)` resolves once `n`
 * requests have each either begun to have their body read (Node's request stream resumed) or
 * been answered; `answered(n)` once `n` have been answered; `answeredSoFar()` counts them.
 */
function watchBodies(): { before: (app: Hono) => void; reading: (count: number) => Promise<void>; answered: (count: number) => Promise<void>; answeredSoFar: () => number } {
  const counts = { reading: 0, answered: 0 };
  const waiters: { kind: 'reading' | 'answered'; count: number; resolve: () => void }[] = [];
  const bump = (kind: 'reading' | 'answered'): void => {
    counts[kind]++;
    for (const waiter of waiters.filter((w) => w.kind === kind && w.count <= counts[kind])) waiter.resolve();
  };
  const waitFor = (kind: 'reading' | 'answered') => (count: number): Promise<void> => {
    if (counts[kind] >= count) return Promise.resolve();
    const waiter = deferred();
    waiters.push({ kind, count, resolve: waiter.resolve });
    return waiter.promise;
  };
  return {
    reading: waitFor('reading'),
    answered: waitFor('answered'),
    answeredSoFar: () => counts.answered,
    before: (app) =>
      app.use('/api/v1/submissions', async (c, next) => {
        let counted = false;
        const reading = (): void => {
          if (counted) return;
          counted = true;
          bump('reading');
        };
        (c.env as { incoming: NodeJS.ReadableStream }).incoming.once('resume', reading);
        try {
          await next();
        } finally {
          reading();
          bump('answered');
        }
      }),
  };
}

/** A raw connection that sent a submission's headers (`Content-Length: 100000`) and the first bytes of its body, and then nothing. */
interface SlowBody {
  socket: Socket;
  /** The first response, once it has wholly arrived (the connection may stay open). */
  answered: Promise<string>;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

/** Opens a {@link SlowBody} to the server at `h.url` from `address` (as the trusted proxy reports it), with `headers` added. */
function sendSlowBody(h: Pick<Harness, 'url'>, options: { address?: string; headers?: Record<string, string> } = {}): SlowBody {
  const { port } = new URL(h.url);
  const socket = connect(Number(port), '127.0.0.1');
  onTestFinished(() => void socket.destroy());
  const received: Buffer[] = [];
  let whole = (): void => undefined;
  const answered = new Promise<string>((resolve) => {
    whole = () => {
      const text = Buffer.concat(received).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/iu.exec(text.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length)) resolve(text);
    };
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      whole();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(received).toString('utf8')));
  });
  const headers = { 'content-type': 'application/json', 'content-length': '100000', ...(options.address === undefined ? {} : { 'x-forwarded-for': options.address }), ...options.headers };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.write(`POST /api/v1/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n{"name": "a slow bo`);
  return { socket, answered, closed };
}

/** The values of the first `count` of `promises` to resolve, in the order they resolved. */
function firstOf<T>(promises: Promise<T>[], count: number): Promise<T[]> {
  return new Promise((resolve) => {
    const values: T[] = [];
    for (const promise of promises) {
      void promise.then((value) => {
        values.push(value);
        if (values.length === count) resolve(values);
      });
    }
  });
}

/** Status, headers and JSON body of the one response in `text`. */
function parseResponse(text: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(text.slice(split + 4)) as Record<string, unknown> };
}

describe('slow submission bodies', () => {
  it('do not keep an agent out of the checks: 40 unauthenticated bodies trickling from its own address, and it still gets 202', async () => {
    const watch = watchBodies();
    const queue = new CheckQueue({ running: 1, waiting: 2 });
    const h = await startHarness('sqlite', { queue, before: watch.before });
    const slow = Array.from({ length: 40 }, () => sendSlowBody(h));
    // Each is being read, or was answered.
    await watch.reading(40);

    const agent = await h.post(validBody({ id: 'agent-past-slow-bodies' }), bearer(h.key));
    expect(agent.status, JSON.stringify(await agent.clone().json())).toBe(202);
    // Four bodies (the cap per address) are still arriving and hold no place; the others were refused.
    const refused = await firstOf(slow.map(({ answered }) => answered), 36);
    expect(new Set(refused.map((text) => parseResponse(text).status))).toEqual(new Set([429]));
    expect(watch.answeredSoFar()).toBe(37);
    expect(queue.held).toBe(0);
    for (const { socket } of slow) socket.destroy();
    await watch.answered(41);
    expect(queue.held).toBe(0);
  }, 60_000);

  it('answers a body that trickles past its deadline with a 408 problem and closes the connection, on both paths, and frees its slot', async () => {
    const h = await startHarness('sqlite', { bodyTimeoutMs: 200, bodiesPerAddress: 1 });
    for (const headers of [bearer(h.key), {}]) {
      const { closed } = sendSlowBody(h, { headers });
      // The connection closes: the server's deadline ended it (Node's own requestTimeout is 300 s).
      const response = parseResponse(await closed);
      expect(response.status).toBe(408);
      expect(response.headers['connection']).toBe('close');
      expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(response.body).toMatchObject({ status: 408, code: 'request_timeout', title: 'Request timeout', type: '/docs/#problem-request_timeout' });
      expect(response.body['detail']).toMatch(/did not arrive within 200 ms: \d+ bytes came .*LOADOUT_BODY_TIMEOUT_SECONDS/u);
    }
    // The one slot of the address is free again (the next body is read: 401, no credential in it), and so is every place.
    expect((await h.post(validBody({ id: 'after-the-deadline' }))).status).toBe(401);
    expect((await h.post(validBody({ id: 'after-the-deadline' }), bearer(h.key))).status).toBe(202);
  }, 60_000);

  it('lets one address send at most bodiesPerAddress bodies without an API key at once: the next gets 429 with Retry-After, an agent there and another address get in, and a slot comes back when a body ends', async () => {
    const watch = watchBodies();
    const h = await startHarness('sqlite', { trustProxy: true, bodiesPerAddress: 2, before: watch.before });
    const address = '192.0.2.10';
    const slow = [sendSlowBody(h, { address }), sendSlowBody(h, { address }), sendSlowBody(h, { address, headers: bearer(h.key) })];
    await watch.reading(3);

    const refused = await h.post(validBody({ id: 'one-too-many' }), { 'x-forwarded-for': address });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await json(refused)).toMatchObject({ status: 429, code: 'rate_limited', detail: expect.stringMatching(/sending 2 submission bodies without an API key already.*LOADOUT_BODIES_PER_ADDRESS/u) as unknown });
    // An agent on the same address, and anyone on another, are not held back.
    expect((await h.post(validBody({ id: 'agent-on-that-address' }), { ...bearer(h.key), 'x-forwarded-for': address })).status).toBe(202);
    const elsewhere = await h.post(validBody({ id: 'from-elsewhere' }), { 'x-forwarded-for': '203.0.113.8' });
    expect([elsewhere.status, (await json(elsewhere))['code']]).toEqual([401, 'unauthorized']);

    // A slow body ends: its slot comes back, and the next body from the address is read (401: no credential in it).
    slow[0]?.socket.destroy();
    await watch.answered(4);
    const next = await h.post(validBody({ id: 'slot-came-back' }), { 'x-forwarded-for': address });
    expect([next.status, (await json(next))['code']]).toEqual([401, 'unauthorized']);
  }, 60_000);

  it('reads LOADOUT_BODY_TIMEOUT_SECONDS (60) and LOADOUT_BODIES_PER_ADDRESS (4), refusing what is not a positive whole number, and loadout serve obeys both', async () => {
    expect(resolveConfig({})).toMatchObject({ bodyTimeoutSeconds: 60, bodiesPerAddress: 4 });
    expect(resolveConfig({ LOADOUT_BODY_TIMEOUT_SECONDS: '15', LOADOUT_BODIES_PER_ADDRESS: '2' })).toMatchObject({ bodyTimeoutSeconds: 15, bodiesPerAddress: 2 });
    for (const name of ['LOADOUT_BODY_TIMEOUT_SECONDS', 'LOADOUT_BODIES_PER_ADDRESS']) {
      for (const bad of ['0', '-1', '1.5', 'x']) expect(() => resolveConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(`${name} is "${bad.replace('.', '\\.')}"`, 'u'));
      expect(() => resolveConfig({ [name]: '0' })).toThrow(LoadoutError);
    }

    const root = await buildSmallCatalogue();
    const server = await startServer(root, { DATABASE_URL: `sqlite:${join(root, 'data', 'catalogue.db')}`, LOADOUT_BODY_TIMEOUT_SECONDS: '1', LOADOUT_BODIES_PER_ADDRESS: '1' });
    // Two bodies from 127.0.0.1 at once: whichever the server reaches second is refused at once,
    // and the other is answered 408 once its second is up.
    const statuses = await Promise.all([sendSlowBody(server), sendSlowBody(server)].map(async ({ answered }) => parseResponse(await answered)));
    const byStatus = Object.fromEntries(statuses.map((response) => [response.status, response.body]));
    expect(Object.keys(byStatus).sort()).toEqual(['408', '429']);
    expect(byStatus['429']?.['detail']).toMatch(/sending 1 submission body without an API key already/u);
    expect(byStatus['408']?.['detail']).toMatch(/within 1000 ms/u);
  }, 90_000);
});

describe('BodiesPerAddress', () => {
  it('gives each address at most cap slots, counts each address apart, and takes a slot back once however often it is released', () => {
    const bodies = new BodiesPerAddress(2);
    const first = bodies.take('192.0.2.1');
    const second = bodies.take('192.0.2.1');
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(bodies.take('192.0.2.1')).toBeUndefined();
    expect(bodies.take('192.0.2.2')).toBeTypeOf('function');
    first?.();
    first?.();
    expect(bodies.reading('192.0.2.1')).toBe(1);
    expect(bodies.take('192.0.2.1')).toBeTypeOf('function');
    expect(bodies.take('192.0.2.1')).toBeUndefined();
    expect(() => new BodiesPerAddress(0)).toThrow(/cap is 0 \(expected a whole number of at least 1\)/u);
  });
});
