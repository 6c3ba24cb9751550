import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import { createServerMetrics } from '../../src/server/metrics.js';
import { createLogger, observeRequests } from '../../src/server/observe.js';
import { resolveOperationsConfig } from '../../src/server/operations-config.js';
import { openDatabase } from '../../src/storage/database.js';
import { createStores } from '../../src/storage/stores.js';
import { createApiKey } from '../../src/submissions/api-key.js';
import { startChallengeVendor } from '../submissions/challenge-vendor.js';
import { makeTempDir } from '../helpers/temp.js';
import { validBody } from '../submissions/harness.js';
import { buildSmallCatalogue, startServer } from './serve-harness.js';

const CHALLENGE_SECRET = 'vendor-secret-for-the-log-test';

/** The JSON request lines of a log. */
const requestLines = (log: string[]): Record<string, unknown>[] => log.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'request');

describe('request log and metrics', () => {
  it('logs one JSON line per request with route patterns, and never a secret of a full submission run', async () => {
    const root = await buildSmallCatalogue();
    const vendor = await startChallengeVendor(CHALLENGE_SECRET);
    const { url, log, server } = await startServer(root, {
      DATABASE_URL: `sqlite:${join(root, 'data', 'catalogue.db')}`,
      CHALLENGE_PROVIDER: 'turnstile',
      CHALLENGE_SECRET,
      CHALLENGE_SITE_KEY: 'site-key',
      CHALLENGE_VERIFY_URL: vendor.url,
      FORM_TOKEN_SECRET: 'form-token-secret-0123456789abcdef-0123456789',
      METRICS_PORT: '0',
    });
    const database = openDatabase(`sqlite:${join(root, 'data', 'catalogue.db')}`);
    const { key } = await createApiKey(createStores(database).keys, 'log test', new Date());
    await database.close();

    // The browser path: a form token and a challenge solution.
    const session = (await (await fetch(`${url}/api/v1/submissions/session`)).json()) as { form_token: string };
    const challengeToken = 'pass-challenge-solution-7d1e9c';
    const browser = await fetch(`${url}/api/v1/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'browser-run-1' },
      body: JSON.stringify(validBody({ id: 'browser-loadout', form_token: session.form_token, challenge_token: challengeToken })),
    });
    expect(browser.status).toBe(202);
    expect(browser.headers.get('x-request-id')).toBe('browser-run-1');
    // The agent path: an API key.
    const agent = await fetch(`${url}/api/v1/submissions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(validBody({ id: 'agent-loadout' })) });
    expect(agent.status).toBe(202);
    const { id } = (await agent.json()) as { id: string };
    expect((await fetch(`${url}/api/v1/submissions/${id}?form_token=${encodeURIComponent(session.form_token)}`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/search?q=dbt`)).status).toBe(200);
    const generated = (await fetch(`${url}/api/loadouts/dbt-analytics.json`)).headers.get('x-request-id') ?? '';
    expect(generated).toMatch(/^[0-9a-f-]{36}$/u);
    const metricsText = await (await fetch(`${server.metricsUrl ?? ''}/metrics`)).text();
    await server.close();

    const text = log.join('');
    for (const secret of [key, key.split('_').pop() ?? key, session.form_token, challengeToken, `Bearer ${key}`, 'authorization']) {
      expect(text.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
    const lines = requestLines(log);
    const browserLine = lines.find((l) => l['req_id'] === 'browser-run-1');
    expect(browserLine).toMatchObject({ method: 'POST', route: '/api/v1/submissions', status: 202 });
    expect(typeof browserLine?.['time']).toBe('string');
    expect(typeof browserLine?.['duration_ms']).toBe('number');
    expect(browserLine?.['bytes']).toBeGreaterThan(0);
    expect(lines.find((l) => l['req_id'] === generated)).toMatchObject({ route: '/*', status: 200 });
    // The route pattern, never the raw path (which held the id and a query).
    expect(lines.filter((l) => l['route'] === '/api/v1/submissions/:id')).toHaveLength(1);
    expect(text).not.toContain(id);
    // The static record's bytes are exact: the length of what was sent.
    const record = lines.find((l) => l['req_id'] === generated);
    expect(record?.['bytes']).toBe(Number((await import('node:fs')).statSync(join(root, 'dist', 'api', 'loadouts', 'dbt-analytics.json')).size));

    // Metrics: requests by route and status, latency per route, search, submissions by state, the generation.
    expect(metricsText).toMatch(/loadout_http_requests_total\{route="\/api\/v1\/submissions",status="202"\} 2/u);
    expect(metricsText).toMatch(/loadout_http_request_duration_seconds_count\{route="\/api\/v1\/search"\} 1/u);
    expect(metricsText).toMatch(/loadout_search_duration_seconds_count 1/u);
    expect(metricsText).toMatch(/loadout_submissions\{state="(?:pending-review|checks-failed)"\} \d/u);
    expect(metricsText).toMatch(/loadout_tree_generation 1/u);
    expect(metricsText).toMatch(/loadout_tree_load_seconds \d/u);
  }, 90_000);

  it('serves metrics only on METRICS_PORT, measures MCP tools there, and LOG_LEVEL sets the level', async () => {
    const root = await buildSmallCatalogue();
    const quiet = await startServer(root, { LOG_LEVEL: 'warn' });
    expect(quiet.server.metricsUrl).toBeUndefined();
    expect((await fetch(`${quiet.url}/metrics`)).status).toBe(404);
    expect(requestLines(quiet.log)).toEqual([]);

    const { url, log, server } = await startServer(root, { METRICS_PORT: '0' });
    const call = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_loadouts', arguments: { query: 'rust' } } }),
    });
    expect(call.status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    const metricsText = await (await fetch(`${server.metricsUrl ?? ''}/metrics`)).text();
    expect(metricsText).toMatch(/loadout_mcp_tool_duration_seconds_count\{tool="search_loadouts"\} 1/u);
    expect(metricsText).toMatch(/loadout_http_requests_total\{route="\/mcp",status="200"\} 1/u);
    expect(requestLines(log).map((l) => l['route'])).toContain('/mcp');
    expect(() => resolveOperationsConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/u);
    expect(() => resolveOperationsConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/u);
  }, 90_000);

  it('logs and counts a request whose client went away before the answer, as 499 with aborted: true (a real server on 127.0.0.1)', async () => {
    const lines: Record<string, unknown>[] = [];
    let logged = (): void => undefined;
    const logger = createLogger('info', { write: (line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
      logged();
    } });
    const metrics = createServerMetrics();
    const arrived = deferred();
    const aborted = deferred();
    const gate = deferred();
    const app = new Hono();
    app.use('*', observeRequests(logger, metrics));
    app.get('/held/:id', async (c) => {
      c.req.raw.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
      arrived.resolve();
      await gate.promise;
      return c.json({ held: true });
    });
    app.get('/ok', (c) => c.json({ ok: true }));
    const server = await listen(app, { port: 0, host: '127.0.0.1' });
    onTestFinished(() => server.close());

    const requestLine = (route: string): Promise<Record<string, unknown>> =>
      new Promise((resolve) => {
        const look = (): void => {
          const line = lines.find((l) => l['msg'] === 'request' && l['route'] === route);
          if (line !== undefined) resolve(line);
        };
        logged = look;
        look();
      });
    expect((await fetch(`${server.url}/ok`)).status).toBe(200);
    expect(await requestLine('/ok')).toMatchObject({ method: 'GET', status: 200 });

    const client = httpRequest(`${server.url}/held/42`, { agent: false });
    client.on('error', () => undefined);
    client.end();
    await arrived.promise;
    client.destroy();
    await aborted.promise;
    gate.resolve();
    const line = await requestLine('/held/:id');
    expect(line).toMatchObject({ method: 'GET', status: 499, aborted: true, bytes: 0 });
    expect(typeof line['duration_ms']).toBe('number');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/loadout_http_requests_total\{route="\/held\/:id",status="499"\} 1/u);
    expect(text).toMatch(/loadout_http_requests_total\{route="\/ok",status="200"\} 1/u);
  }, 30_000);

  it('logs a client that hangs up during its upload as the 499 it is, never as a database that does not answer (a real loadout serve on SQLite)', async () => {
    const root = await buildSmallCatalogue();
    const databaseUrl = `sqlite:${join(root, 'data', 'catalogue.db')}`;
    // debug: a line as each request starts, the event the client waits for before it hangs up.
    const { url, log } = await startServer(root, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'debug', FORM_TOKEN_SECRET: 'form-token-secret-0123456789abcdef-0123456789' });
    const database = openDatabase(databaseUrl);
    const { key } = await createApiKey(createStores(database).keys, 'hang-up test', new Date());
    await database.close();
    const { port } = new URL(url);
    const lines = (): Record<string, unknown>[] => log.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Both paths: the agent's (an API key) and the browser's (the credential is in the body).
    for (const [n, authorization] of [[1, `Authorization: Bearer ${key}\r\n`], [2, '']] as const) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`POST /api/v1/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nX-Request-Id: hang-up-${n}\r\n${authorization}\r\n{"name": "half a bo`);
      await until(log, () => lines().some((l) => l['msg'] === 'request started' && l['req_id'] === `hang-up-${n}`));
      socket.destroy();
      await until(log, () => lines().some((l) => l['msg'] === 'request' && l['req_id'] === `hang-up-${n}`));
    }
    for (const n of [1, 2]) expect(lines().find((l) => l['msg'] === 'request' && l['req_id'] === `hang-up-${n}`)).toMatchObject({ route: '/api/v1/submissions', status: 499, aborted: true });
    expect(lines().filter((l) => (l['level'] as number) >= 40)).toEqual([]);
  }, 60_000);

  it('takes the error of a client that hung up, thrown by any route reading its body, for the 499 and not for a database failure', async () => {
    const lines: Record<string, unknown>[] = [];
    let logged = (): void => undefined;
    const logger = createLogger('debug', { write: (line: string) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
      logged();
    } });
    const seen = (ready: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        logged = () => ready() && resolve();
        logged();
      });
    // A route that reads its body itself (as the MCP route does), so that the error reaches the app's onError.
    const app = createApp({
      distDir: makeTempDir('loadout-observe-'),
      baseUrl: 'http://localhost:8787',
      submissionsOpen: false,
      config: { database: false, challenge_secret: false, challenge_site_key: false },
      logger,
      routes: [(inner) => inner.post('/upload', async (c) => c.text(await c.req.text()))],
    });
    const front = new Hono();
    front.use('*', observeRequests(logger, createServerMetrics()));
    front.all('*', (c) => app.fetch(c.req.raw, c.env));
    const server = await listen(front, { port: 0, host: '127.0.0.1' });
    onTestFinished(() => server.close());
    const socket = connect(server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nthe first bytes');
    await seen(() => lines.some((l) => l['msg'] === 'request started'));
    socket.destroy();
    await seen(() => lines.some((l) => l['msg'] === 'request'));
    expect(lines.find((l) => l['msg'] === 'request')).toMatchObject({ route: '/upload', status: 499, aborted: true });
    expect(lines.filter((l) => (l['level'] as number) >= 40)).toEqual([]);
  });
});

/** Resolves once `ready()` holds, looked at again as each line is added to `log` (no timer). */
function until(log: string[], ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (ready()) return resolve();
    const push = log.push.bind(log);
    log.push = (...items: string[]): number => {
      const length = push(...items);
      if (ready()) {
        log.push = push;
        resolve();
      }
      return length;
    };
  });
}

/** A promise with its resolve at hand. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
