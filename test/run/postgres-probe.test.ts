/**
 * The global setup's choice of PostgreSQL (issue 57, point 13): the local one when
 * TEST_DATABASE_URL is unset and it answers a query, none when nothing answers or the variable
 * is empty, the variable's otherwise. Probed for real: a closed port, a TCP server that is not
 * PostgreSQL, and the database of this run when there is one.
 */
import { createServer, type Server } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { choosePostgres, LOCAL_TEST_DATABASE_URL, probePostgres } from './postgres-probe.js';
import { itWith, NEEDS_POSTGRES } from './requirements.js';

/** A TCP server on 127.0.0.1 that closes every connection at once; resolves with its port. */
async function closingServer(): Promise<number> {
  const server: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

describe('probePostgres', () => {
  it('says nothing answers at a closed port', async () => {
    const port = await freePort();
    expect(await probePostgres(`postgres://postgres@127.0.0.1:${port}/test`)).toEqual({ ok: false, why: `nothing answers at 127.0.0.1:${port} (ECONNREFUSED)` });
  });

  it('says a server that is not PostgreSQL does not answer a query', async () => {
    const port = await closingServer();
    const outcome = await probePostgres(`postgres://postgres:secret@127.0.0.1:${port}/test`);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.why).toMatch(new RegExp(`^postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${port}/test does not answer a query \\(`, 'u'));
  });

  itWith(NEEDS_POSTGRES)('finds the database this run uses', async () => {
    expect(await probePostgres(process.env['TEST_DATABASE_URL'] ?? '')).toEqual({ ok: true });
  });
});

describe('choosePostgres', () => {
  it('keeps TEST_DATABASE_URL when it is set, and uses none when it is empty, without probing', async () => {
    const probe = (): never => {
      throw new Error('probed');
    };
    expect(await choosePostgres({ TEST_DATABASE_URL: 'postgres://ci:pw@db:5432/ci' }, probe)).toEqual({ url: 'postgres://ci:pw@db:5432/ci', line: 'PostgreSQL: the tests use TEST_DATABASE_URL (postgres://ci:***@db:5432/ci)', why: '' });
    expect(await choosePostgres({ TEST_DATABASE_URL: '' }, probe)).toEqual({ url: undefined, line: 'PostgreSQL: TEST_DATABASE_URL is empty: its tests are skipped', why: '' });
  });

  it('probes the local address when it is unset, and says why its tests skip when nothing answers there', async () => {
    const port = await freePort();
    const probed: string[] = [];
    const choice = await choosePostgres({}, (url) => {
      probed.push(url);
      return probePostgres(`postgres://postgres@127.0.0.1:${port}/test`);
    });
    expect(probed).toEqual([LOCAL_TEST_DATABASE_URL]);
    expect(choice).toEqual({ url: undefined, line: `PostgreSQL: TEST_DATABASE_URL unset and nothing answers at 127.0.0.1:${port} (ECONNREFUSED): its tests are skipped`, why: `nothing answers at 127.0.0.1:${port} (ECONNREFUSED)` });
  });

  itWith(NEEDS_POSTGRES)('uses the local address when it answers', async () => {
    const choice = await choosePostgres({}, () => probePostgres(process.env['TEST_DATABASE_URL'] ?? ''));
    expect(choice.url).toBe(LOCAL_TEST_DATABASE_URL);
    expect(choice.line).toContain(`PostgreSQL answers at ${LOCAL_TEST_DATABASE_URL}: the tests use it`);
  });
});
