/** `loadout serve [--port 8787] [--host 127.0.0.1] [--out dist]`: the tree and the dynamic API. */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { createApp, type AppDependencies } from '../../server/app.js';
import { listen, type RunningServer } from '../../server/listen.js';
import { loadSearchAndMcpRoutes } from '../../mcp/mount.js';
import { setUpSubmissions } from '../../submissions/setup.js';
import type { ResolvedConfig } from '../config.js';
import type { Write } from '../report.js';

/** Options of `loadout serve`. */
export interface ServeOptions {
  out: string;
  port: number;
  host: string;
  config: ResolvedConfig;
}

/**
 * Starts the server and resolves once it listens.
 * @throws LoadoutError `not_found` when `out` holds no built tree, `config` when the port is taken.
 */
export async function serveCommand(options: ServeOptions, out: Write): Promise<RunningServer> {
  await access(join(options.out, 'api', 'loadouts.json')).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${options.out} holds no built catalogue`, { cause, hint: 'Run `loadout build` first.' });
  });
  // Routes beyond the static tree. Search and MCP (src/search, src/mcp) and submissions
  // (src/submissions) each add one mount function here.
  const routes: AppDependencies['routes'] = [];
  routes.push(...(await loadSearchAndMcpRoutes(options.out, options.config.baseUrl)));
  // Submissions: opens DATABASE_URL (the SQLite file is created on first start), runs the
  // migrations, and finds or generates the form-token secret and the ALTCHA key in data/.
  const submissions = await setUpSubmissions(options.config, { distDir: options.out, dataDir: 'data' });
  routes.push(submissions.mount);
  const app = createApp({
    routes,
    distDir: options.out,
    baseUrl: options.config.baseUrl,
    submissionsOpen: submissions.submissionsOpen,
    config: submissions.report,
  });
  let server: RunningServer;
  try {
    server = await listen(app, { port: options.port, host: options.host });
  } catch (error) {
    await submissions.close();
    throw error;
  }
  const closeServer = server.close;
  server.close = async () => {
    await closeServer();
    await submissions.close();
  };
  out(`serving ${options.out} at ${server.url} (published addresses use ${options.config.baseUrl}; bot challenge: ${submissions.challengeProvider})\n`);
  return server;
}
