import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mountHealth } from '../../src/server/health.js';
import { adminQuery } from '../storage/databases.js';
import { buildSmallCatalogue, postgresUrl, startServer } from './serve-harness.js';
import { startTcpProxy } from './tcp-proxy.js';

const PG = process.env['TEST_DATABASE_URL'] ?? '';

describe('health endpoints', () => {
  it('/readyz names the tree and the database when they are not ready, and answers 200 when both are', async () => {
    let tree = false;
    let database: Error | undefined = new Error('connection refused');
    const app = new Hono();
    mountHealth(app, { treeLoaded: () => tree, pingDatabase: async () => (database === undefined ? undefined : Promise.reject(database)) });
    const first = await app.request('/readyz');
    expect(first.status).toBe(503);
    expect(first.headers.get('content-type')).toMatch(/^application\/problem\+json/u);
    const body = (await first.json()) as { code: string; errors: { pointer: string; message: string }[] };
    expect(body.code).toBe('not_ready');
    expect(body.errors.map((e) => e.pointer)).toEqual(['/tree', '/database']);
    expect(body.errors[1]?.message).toMatch(/connection refused/u);
    tree = true;
    expect(((await (await app.request('/readyz')).json()) as { errors: { pointer: string }[] }).errors.map((e) => e.pointer)).toEqual(['/database']);
    database = undefined;
    expect((await app.request('/readyz')).status).toBe(200);
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('a real server: /healthz and /readyz answer 200, are in the description document, and are never rate limited', async () => {
    const root = await buildSmallCatalogue();
    const { url } = await startServer(root, { DATABASE_URL: `sqlite:${root}/data/catalogue.db`, RATE_LIMIT_PER_ADDRESS: '1' });
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    }
    const endpoints = ((await (await fetch(`${url}/api/v1`)).json()) as { endpoints: Record<string, string> }).endpoints;
    expect(Object.keys(endpoints)).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz']));
  }, 60_000);

  it.skipIf(PG === '')('a real server on PostgreSQL: /readyz answers 503 naming the database once it stops answering, while /healthz stays 200', async () => {
    const root = await buildSmallCatalogue();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await adminQuery(PG, `CREATE SCHEMA ${schema}`);
    onTestFinished(() => adminQuery(PG, `DROP SCHEMA ${schema} CASCADE`));
    const target = new URL(PG);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const { url } = await startServer(root, { DATABASE_URL: postgresUrl(PG, schema, proxy.port) });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    proxy.cut();
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; detail: string; errors: { pointer: string }[] };
    expect(body.code).toBe('not_ready');
    expect(body.errors.map((e) => e.pointer)).toEqual(['/database']);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 60_000);
});
