import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mountHealth } from '../../src/server/health.js';
import { createLogger } from '../../src/server/observe.js';
import { openDatabase } from '../../src/storage/database.js';
import { sql } from 'kysely';
import { adminQuery } from '../storage/databases.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildSmallCatalogue, postgresUrl, startServer, type TestServer } from './serve-harness.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { itWith, NEEDS_POSTGRES } from '../run/requirements.js';

const PG = process.env['TEST_DATABASE_URL'] ?? '';

/** A real server on a fresh schema of the local PostgreSQL, reached through a proxy the test can cut. */
async function serveThroughProxy(): Promise<TestServer & { proxy: TcpProxy }> {
  const root = await buildSmallCatalogue();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(PG, `CREATE SCHEMA ${schema}`);
  onTestFinished(() => adminQuery(PG, `DROP SCHEMA ${schema} CASCADE`));
  const target = new URL(PG);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  return { ...(await startServer(root, { DATABASE_URL: postgresUrl(PG, schema, proxy.port) })), proxy };
}

describe('health endpoints', () => {
  it('/readyz names the tree and the database when they are not ready, and answers 200 when both are', async () => {
    let tree = false;
    let database: Error | undefined = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432 (db-secret-host.internal)'), { code: 'ECONNREFUSED' });
    const app = new Hono();
    const log: string[] = [];
    mountHealth(app, { treeLoaded: () => tree, pingDatabase: async () => (database === undefined ? undefined : Promise.reject(database)) }, createLogger('info', { write: (line: string) => void log.push(line) }));
    const first = await app.request('/readyz');
    expect(first.status).toBe(503);
    expect(first.headers.get('content-type')).toMatch(/^application\/problem\+json/u);
    const text = await first.text();
    const body = JSON.parse(text) as { code: string; errors: { pointer: string; reason?: string }[] };
    expect(body.code).toBe('not_ready');
    expect(body.errors.map((e) => e.pointer)).toEqual(['/tree', '/database']);
    expect(body.errors[1]?.reason).toBe('unreachable');
    // The driver's words go to the log, never to the client.
    expect(text).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|db-secret-host/u);
    expect(log.join('')).toContain('db-secret-host.internal');
    expect(JSON.parse(log[0] ?? '{}')).toMatchObject({ level: 40, reason: 'unreachable', msg: 'readiness: the database does not answer' });
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

  it('a real SQLite database that was closed: /readyz answers the reason code not_open and logs the driver\'s message', async () => {
    const file = join(makeTempDir('loadout-ready-'), 'private-name.db');
    const database = openDatabase(`sqlite:${file}`);
    await sql`select 1`.execute(database.db);
    await database.close();
    const app = new Hono();
    const log: string[] = [];
    mountHealth(app, { treeLoaded: () => true, pingDatabase: async () => void (await sql`select 1`.execute(database.db)) }, createLogger('info', { write: (line: string) => void log.push(line) }));
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    const text = await response.text();
    expect((JSON.parse(text) as { errors: { pointer: string; reason: string }[] }).errors).toEqual([expect.objectContaining({ pointer: '/database', reason: 'not_open' })]);
    expect(JSON.parse(log[0] ?? '{}')).toMatchObject({ reason: 'not_open', err: { message: expect.any(String) } });
    expect(text).not.toContain(JSON.parse(log[0] ?? '{}').err.message);
  });

  itWith(NEEDS_POSTGRES)('a real server on PostgreSQL: a role that may no longer log in and a database that no longer exists are answered as reason codes, their names only logged', async () => {
    const suffix = randomBytes(5).toString('hex');
    const role = `ready_role_${suffix}`;
    const databaseName = `ready_db_${suffix}`;
    await adminQuery(PG, `CREATE ROLE ${role} LOGIN`);
    await adminQuery(PG, `CREATE DATABASE ${databaseName} OWNER ${role}`);
    onTestFinished(async () => {
      await adminQuery(PG, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await adminQuery(PG, `DROP ROLE IF EXISTS ${role}`);
    });
    const url = new URL(PG);
    url.username = role;
    url.password = '';
    url.pathname = `/${databaseName}`;
    const root = await buildSmallCatalogue();
    const { url: server, log } = await startServer(root, { DATABASE_URL: url.toString() });
    expect((await fetch(`${server}/readyz`)).status).toBe(200);
    const readiness = async (): Promise<{ status: number; text: string }> => {
      const response = await fetch(`${server}/readyz`);
      return { status: response.status, text: await response.text() };
    };
    const logged = (reason: string): Record<string, unknown> | undefined =>
      log.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'readiness: the database does not answer' && l['reason'] === reason);

    // The role may no longer log in: its open connections are ended, the next one is refused.
    await adminQuery(PG, `ALTER ROLE ${role} NOLOGIN`);
    await adminQuery(PG, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${role}'`);
    const refused = await readiness();
    expect(refused.status).toBe(503);
    expect((JSON.parse(refused.text) as { errors: unknown[] }).errors).toEqual([expect.objectContaining({ pointer: '/database', reason: 'auth_failed' })]);
    expect(refused.text).not.toContain(role);
    expect(refused.text).not.toMatch(/permitted|log in/u);
    expect(JSON.stringify(logged('auth_failed'))).toContain(`role \\"${role}\\" is not permitted to log in`);

    // The database is dropped.
    await adminQuery(PG, `ALTER ROLE ${role} LOGIN`);
    await adminQuery(PG, `DROP DATABASE ${databaseName} WITH (FORCE)`);
    const missing = await readiness();
    expect(missing.status).toBe(503);
    expect((JSON.parse(missing.text) as { errors: unknown[] }).errors).toEqual([expect.objectContaining({ pointer: '/database', reason: 'no_database' })]);
    expect(missing.text).not.toContain(databaseName);
    expect(JSON.stringify(logged('no_database'))).toContain(`database \\"${databaseName}\\" does not exist`);
    expect((await fetch(`${server}/healthz`)).status).toBe(200);
  }, 60_000);

  itWith(NEEDS_POSTGRES)('a real server on PostgreSQL: /readyz answers 503 naming the database once it stops answering, while /healthz stays 200', async () => {
    const { url, proxy } = await serveThroughProxy();
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    proxy.cut();
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; detail: string; errors: { pointer: string }[] };
    expect(body.code).toBe('not_ready');
    expect(body.errors.map((e) => e.pointer)).toEqual(['/database']);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 60_000);

  itWith(NEEDS_POSTGRES)('a real server on PostgreSQL: while the database is away, a request that needs it is answered 503 database_unavailable, and the server answers again once it is back', async () => {
    const { url, log, proxy } = await serveThroughProxy();
    // The status of a submission reads the database, and needs no credential.
    const status = `${url}/api/v1/submissions/5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`;
    expect((await fetch(status)).status).toBe(404);
    proxy.cut();
    const away = await fetch(status);
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    const text = await away.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'database_unavailable', reason: 'unreachable', type: '/docs/#problem-database_unavailable', title: 'Database unavailable' });
    expect(text).not.toContain(String(proxy.port));
    const warned = log.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'a request failed: the database does not answer');
    expect(warned).toEqual([expect.objectContaining({ level: 40, reason: 'unreachable', err: expect.objectContaining({ message: expect.any(String) }) as unknown })]);
    expect(log.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['level'] === 50)).toEqual([]);
    proxy.restore();
    expect((await fetch(status)).status).toBe(404);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  }, 60_000);
});
