/** `loadout serve [--port 8787] [--host 127.0.0.1] [--out dist]`: the tree and the dynamic API. */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { loadSearchEngine } from '../../search/engine.js';
import { mountSearch, SEARCH_ROUTE } from '../../search/route.js';
import { createApp } from '../../server/app.js';
import { listen, type RunningServer } from '../../server/listen.js';
import { releaseMemoryWhenIdle } from '../../server/idle-memory.js';
import { createStagedApp } from '../../server/staged-app.js';
import type { SubmissionsSetup } from '../../submissions/setup.js';
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
 * Starts the server and resolves once every route answers. Search answers earlier: the server
 * listens as soon as the search index is loaded, and loads MCP and submissions meanwhile
 * (`server/staged-app.ts`; issue 13: search answers within a second of start).
 * Warns on `err` when the tree was built for another base URL than `config.baseUrl`.
 * @throws LoadoutError `not_found` when `out` holds no built tree, `config` when the port is
 * taken; any error of setting up MCP or submissions, after closing the server.
 */
export async function serveCommand(options: ServeOptions, out: Write, err: Write = () => undefined): Promise<RunningServer> {
  await access(join(options.out, 'api', 'loadouts.json')).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${options.out} holds no built catalogue`, { cause, hint: 'Run `loadout build` first.' });
  });
  const { out: distDir, config } = options;
  const builtFor = await builtBaseUrl(distDir);
  if (builtFor !== undefined && builtFor !== config.baseUrl) {
    err(`loadout: warning: ${distDir} was built for ${builtFor}, but this server publishes ${config.baseUrl}; the pages' links and commands point at ${builtFor} (rebuild with the same LOADOUT_BASE_URL or PORT, or set LOADOUT_BASE_URL=${builtFor})\n`);
  }
  const engine = await loadSearchEngine(distDir);
  // Until the whole app has loaded, search is answered by an app with the search route alone
  // (the same middleware; its description document is never asked for).
  const searchOnly = createApp({ routes: [mountSearch(engine)], distDir, baseUrl: config.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });

  // Routes beyond the static tree. Search and MCP (src/search, src/mcp) and submissions
  // (src/submissions) each add one mount function here; MCP and submissions are imported here,
  // after listening, because importing them is most of the start-up.
  let submissions: SubmissionsSetup | undefined;
  const whole = (async () => {
    const [{ loadMcpRoutes }, { setUpSubmissions }] = await Promise.all([import('../../mcp/mount.js'), import('../../submissions/setup.js')]);
    const mcp = await loadMcpRoutes(engine, distDir, config.baseUrl);
    // Submissions: opens DATABASE_URL (the SQLite file is created on first start), runs the
    // migrations, and finds or generates the form-token secret and the ALTCHA key in data/.
    submissions = await setUpSubmissions(config, { distDir, dataDir: 'data' });
    return createApp({ routes: [mountSearch(engine), mcp, submissions.mount], distDir, baseUrl: config.baseUrl, submissionsOpen: submissions.submissionsOpen, config: submissions.report });
  })();
  // Not awaited yet: a failure is handled below, after listening.
  whole.catch(() => undefined);

  // Memory back to V8's baseline once the load stops (server/idle-memory.ts).
  const idle = releaseMemoryWhenIdle();
  let server: RunningServer;
  try {
    server = await listen(createStagedApp({ paths: [SEARCH_ROUTE], app: searchOnly }, whole, idle.touch), { port: options.port, host: options.host });
  } catch (error) {
    idle.stop();
    await whole.then(() => submissions?.close(), () => undefined);
    throw error;
  }
  try {
    await whole;
  } catch (error) {
    idle.stop();
    await server.close();
    await submissions?.close();
    throw error;
  }
  const setup = submissions as SubmissionsSetup;
  const closeServer = server.close;
  server.close = async () => {
    idle.stop();
    await closeServer();
    await setup.close();
  };
  out(`serving ${distDir} at ${server.url} (published addresses use ${config.baseUrl}; bot challenge: ${setup.challengeProvider})\n`);
  return server;
}

/**
 * The base URL the tree in `distDir` was built for, read from its description document's
 * `schema` address (`<base>/api/schema.json`, tree/render/description.ts); undefined when the
 * tree has none.
 */
export async function builtBaseUrl(distDir: string): Promise<string | undefined> {
  try {
    const doc = JSON.parse(await readFile(join(distDir, 'api', 'v1', 'index.json'), 'utf8')) as { schema?: unknown };
    return typeof doc.schema === 'string' && doc.schema.endsWith('/api/schema.json') ? doc.schema.slice(0, -'/api/schema.json'.length) : undefined;
  } catch {
    return undefined;
  }
}
