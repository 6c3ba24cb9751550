/**
 * Finding the local PostgreSQL for the tests (issue 57, point 13: `TEST_DATABASE_URL` was unset
 * while PostgreSQL answered on 127.0.0.1:5432, and 55 tests skipped without a word). The global
 * setup probes {@link LOCAL_TEST_DATABASE_URL} when the variable is unset and uses it when it
 * answers; `.ci/run` starts that server and sets the same address.
 */
import { connect } from 'node:net';
import pg from 'pg';

/** The database `.ci/run` sets up and the tests use when nothing else is said. */
export const LOCAL_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The key under which the global setup provides the probe's outcome to the workers (vitest `provide`/`inject`). */
export const POSTGRES_PROBE_KEY = 'postgresProbe';

declare module 'vitest' {
  interface ProvidedContext {
    /** Why the local PostgreSQL is not used, as the end of a sentence ("nothing answers …"); empty when it is. */
    postgresProbe: string;
  }
}

/** What a probe found: `ok`, or why not, as the end of a sentence naming the address. */
export type ProbeOutcome = { ok: true } | { ok: false; why: string };

/** How long a probe waits for each of the connection and the query, in milliseconds. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether the PostgreSQL database at `url` answers a query: a TCP connection to its host and
 * port first (a refusal is known at once), then `SELECT 1` over a `pg` client. Never throws.
 */
export async function probePostgres(url: string): Promise<ProbeOutcome> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    port = parsed.port === '' ? 5432 : Number(parsed.port);
  } catch {
    return { ok: false, why: `${url} is not a URL` };
  }
  const shown = shownAddress(url);
  const reached = await new Promise<string | undefined>((resolve) => {
    const socket = connect({ host, port, timeout: PROBE_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`no answer within ${PROBE_TIMEOUT_MS} ms`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  if (reached !== undefined) return { ok: false, why: `nothing answers at ${host}:${port} (${reached})` };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
  // A server that ends the connection emits an error on the client as well as rejecting: keep it from being unhandled.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, why: `${shown} does not answer a query (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `url` without a password, for a message. */
function shownAddress(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** What {@link choosePostgres} decided: the `TEST_DATABASE_URL` to run with (undefined: none), the line to print, and why not for the skipped tests. */
export interface PostgresChoice {
  url: string | undefined;
  line: string;
  /** Empty when a database is used or the variable said otherwise; else why the local one is not. */
  why: string;
}

/**
 * Decides the tests' PostgreSQL from `env`: `TEST_DATABASE_URL` when set (an empty value says
 * "none"), else {@link LOCAL_TEST_DATABASE_URL} when `probe` finds that it answers, else none.
 */
export async function choosePostgres(env: NodeJS.ProcessEnv, probe: (url: string) => Promise<ProbeOutcome> = probePostgres): Promise<PostgresChoice> {
  const set = env['TEST_DATABASE_URL'];
  if (set === '') return { url: undefined, line: 'PostgreSQL: TEST_DATABASE_URL is empty: its tests are skipped', why: '' };
  if (set !== undefined) return { url: set, line: `PostgreSQL: the tests use TEST_DATABASE_URL (${shownAddress(set)})`, why: '' };
  const outcome = await probe(LOCAL_TEST_DATABASE_URL);
  if (outcome.ok) return { url: LOCAL_TEST_DATABASE_URL, line: `PostgreSQL answers at ${LOCAL_TEST_DATABASE_URL}: the tests use it (TEST_DATABASE_URL was unset; set it to another address, or empty for none)`, why: '' };
  return { url: undefined, line: `PostgreSQL: TEST_DATABASE_URL unset and ${outcome.why}: its tests are skipped`, why: outcome.why };
}
