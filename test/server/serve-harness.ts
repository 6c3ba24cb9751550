/**
 * `loadout serve` in this process (serveCommand) over a small catalogue built from a real git
 * repository, with its log lines collected, for the operation tests (health, logs, metrics,
 * scale-out). Everything is closed and removed when the test finishes.
 */
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { serveCommand, type ServingServer } from '../../src/cli/commands/serve.js';
import { resolveConfig } from '../../src/cli/config.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** A catalogue of two loadouts in a real git repository, built into `<root>/dist`; returns `root`. */
export async function buildSmallCatalogue(): Promise<string> {
  const root = makeTempDir('loadout-serve-');
  initRepo(root);
  writeLoadout(root, { id: 'dbt-analytics', title: 'dbt Analytics', manifest: { stacks: ['dbt'] } });
  writeLoadout(root, { id: 'rust-cli', title: 'Rust CLI', manifest: { stacks: ['rust'] } });
  commitAll(root, 'two loadouts');
  await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: 'http://localhost:8787' });
  return root;
}

/** A server started by {@link startServer}, with the JSON log lines it wrote so far. */
export interface TestServer {
  server: ServingServer;
  url: string;
  log: string[];
}

/**
 * Serves `<root>/dist` on an ephemeral port with `env` as the whole environment (the
 * configuration and the operation variables; DATABASE_URL defaults to none). Closed when the test finishes.
 */
export async function startServer(root: string, env: Record<string, string> = {}): Promise<TestServer> {
  const log: string[] = [];
  const full = { DATABASE_URL: 'none', ...env };
  const server = await serveCommand(
    { out: join(root, 'dist'), port: 0, host: '127.0.0.1', config: resolveConfig(full), env: full, dataDir: join(root, 'data'), logDestination: { write: (line: string) => void log.push(line) } },
    () => undefined,
  );
  let closed = false;
  const close = server.close.bind(server);
  server.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  onTestFinished(() => server.close());
  return { server, url: server.url, log };
}

/** A PostgreSQL URL for `schema` (created by the caller) on the server at `url`, with `port` instead of its own when given. */
export function postgresUrl(url: string, schema: string, port?: number): string {
  const parsed = new URL(url);
  if (port !== undefined) parsed.port = String(port);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}
