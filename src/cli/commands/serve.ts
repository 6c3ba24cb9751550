/** `loadout serve [--port 8787] [--host 127.0.0.1] [--out dist]`: the tree and the dynamic API. */
import { readPolicyAt } from '../policy-source.js';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { LoadoutError } from '../../catalogue/errors.js';
import { loadSearchEngine } from '../../search/engine.js';
import { mountSearch, SEARCH_ROUTE } from '../../search/route.js';
import { createApp } from '../../server/app.js';
import { builtBaseUrl, otherBaseWarning } from '../../server/built-description.js';
import { followRebuilds } from '../../server/follow.js';
import { createFrontApp } from '../../server/front.js';
import { createGenerationHolder, loadGeneration, resolveTreeRoot, type GenerationAppFactory } from '../../server/generation.js';
import { listen, type RunningServer } from '../../server/listen.js';
import { releaseMemoryWhenIdle } from '../../server/idle-memory.js';
import { createServerMetrics, listenMetrics, type MetricsServer } from '../../server/metrics.js';
import { createLogger } from '../../server/observe.js';
import { resolveOperationsConfig } from '../../server/operations-config.js';
import { isNoDatabase, pingDatabase } from '../../storage/database.js';
import { DatabaseNotOpenError } from '../../storage/database-failure.js';
import { countSubmissionsByStatus } from '../../storage/submission-counts.js';
import type { SubmissionsSetup } from '../../submissions/setup.js';
import type { ResolvedConfig } from '../config.js';
import type { Write } from '../report.js';

/** Options of `loadout serve`. */
export interface ServeOptions {
  out: string;
  port: number;
  host: string;
  config: ResolvedConfig;
  /** Where `LOG_LEVEL`, `METRICS_PORT` and `SHUTDOWN_TIMEOUT_SECONDS` are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where the JSON log lines go (default standard output). */
  logDestination?: DestinationStream;
  /** The folder of generated secrets and the default SQLite file (default `data`). */
  dataDir?: string;
}

/** A running `loadout serve`: `close()` drains (see {@link serveCommand}). */
export interface ServingServer extends RunningServer {
  /** The metrics endpoint, when `METRICS_PORT` is set. */
  metricsUrl: string | undefined;
}

/**
 * Starts the server and resolves once every route answers. Search answers earlier: the server
 * listens as soon as the search index is loaded, and loads MCP and submissions meanwhile
 * (`server/staged-app.ts`; DESIGN.md section 7: the server answers within 1 s of start). It
 * then follows rebuilds of `out` (server/follow.ts). `close()` shuts down gracefully: it stops accepting,
 * lets requests in flight finish for up to `SHUTDOWN_TIMEOUT_SECONDS`, then closes the database.
 * Warns on `err` when the tree was built for another base URL than `config.baseUrl`, at start
 * and whenever it follows a rebuild to such a tree (then also in the log, at `warn`).
 * @throws LoadoutError `not_found` when `out` holds no built tree, `config` when the port is
 * taken or an operation variable is malformed; any error of setting up MCP or submissions,
 * after closing the server.
 */
export async function serveCommand(options: ServeOptions, out: Write, err: Write = () => undefined): Promise<ServingServer> {
  await access(join(options.out, 'api', 'loadouts.json')).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${options.out} holds no built catalogue`, { cause, hint: 'Run `loadout build` first.' });
  });
  const { out: distDir } = options;
  // The catalogue's policy (LOADOUT_POLICY; docs/policy.md), read before the server listens: one that cannot be read stops the start.
  const policy = options.config.policyLocation === undefined ? undefined : await readPolicyAt(options.config.policyLocation, 'LOADOUT_POLICY', []);
  const config: ResolvedConfig = policy === undefined ? options.config : { ...options.config, policy: policy.policy };
  const startWarning = otherBaseWarning(distDir, await builtBaseUrl(distDir), config.baseUrl);
  if (startWarning !== undefined) err(`loadout: warning: ${startWarning}\n`);
  const operations = resolveOperationsConfig(options.env ?? process.env);
  const logger = createLogger(operations.logLevel, options.logDestination);
  const metrics = createServerMetrics();
  const started = performance.now();
  const root = await resolveTreeRoot(distDir);
  const engine = await loadSearchEngine(root);
  // Until the first generation has loaded, search is answered by an app with the search route
  // alone (the same middleware; its description document is never asked for).
  const searchOnly = createApp({ routes: [mountSearch(engine, metrics.observeSearch)], distDir: root, baseUrl: config.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false }, logger });

  const holder = createGenerationHolder();
  let submissions: SubmissionsSetup | undefined;
  let makeApp: GenerationAppFactory | undefined;
  // MCP and submissions are imported here, after listening, because importing them is most of the start-up.
  const firstLoaded = (async () => {
    const [{ loadMcpRoutes }, { setUpSubmissions }] = await Promise.all([import('../../mcp/mount.js'), import('../../submissions/setup.js')]);
    // Submissions: opens DATABASE_URL (the SQLite file is created on first start), runs the
    // migrations, and finds or generates the form-token secret and the ALTCHA key in data/.
    // They are shared by every generation: the database outlives the trees.
    const setup = await setUpSubmissions(config, { distDir, dataDir: options.dataDir ?? 'data' });
    submissions = setup;
    const db = setup.database?.db;
    if (db !== undefined) metrics.countSubmissions(() => countSubmissionsByStatus(db));
    makeApp = async (tree, treeEngine) => {
      const mcp = await loadMcpRoutes(treeEngine, tree, config.baseUrl, { onToolCall: metrics.observeTool });
      return createApp({ routes: [mountSearch(treeEngine, metrics.observeSearch), mcp, setup.mount], distDir: tree, baseUrl: config.baseUrl, submissionsOpen: setup.submissionsOpen, config: setup.report, logger });
    };
    const first = await loadGeneration(distDir, 1, makeApp, { root, engine });
    holder.swap(first);
    metrics.setGeneration(first.number, performance.now() - started);
  })();
  // Not awaited yet: a failure is handled below, after listening.
  firstLoaded.catch(() => undefined);

  const ping = isNoDatabase(config.databaseUrl)
    ? undefined
    : async (): Promise<void> => {
        const db = submissions?.database?.db;
        if (db === undefined) throw new DatabaseNotOpenError('the database is not open yet');
        await pingDatabase(db);
      };
  // Memory back to V8's baseline once the load stops (server/idle-memory.ts).
  const idle = releaseMemoryWhenIdle();
  const front = createFrontApp({ holder, firstLoaded, early: { paths: [SEARCH_ROUTE], app: searchOnly }, logger, metrics, pingDatabase: ping, onRequest: idle.touch });
  let server: RunningServer | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    server = await listen(front, { port: options.port, host: options.host });
    if (operations.metricsPort !== undefined) metricsServer = await listenMetrics(metrics, operations.metricsPort, operations.metricsHost);
  } catch (error) {
    idle.stop();
    await server?.close();
    await firstLoaded.then(() => submissions?.close(), () => undefined);
    throw error;
  }
  try {
    await firstLoaded;
  } catch (error) {
    idle.stop();
    await server.close();
    await metricsServer?.close();
    await submissions?.close();
    throw error;
  }
  const setup = submissions as SubmissionsSetup;
  const follower = followRebuilds(distDir, holder, makeApp as GenerationAppFactory, {
    swapped(generation, swapMs) {
      metrics.setGeneration(generation.number, generation.loadMs);
      logger.info({ generation: generation.number, root: generation.root, load_ms: Math.round(generation.loadMs), swap_ms: Math.round(swapMs) }, 'now serving a new tree');
      // A rebuild for another address (`loadout build --base-url …` beside a running `npm start`)
      // is taken as the start would take it: with the same warning (issue 57, point 6).
      const warning = otherBaseWarning(`the new tree in ${distDir}`, generation.builtFor, config.baseUrl);
      if (warning !== undefined) {
        logger.warn({ generation: generation.number, built_for: generation.builtFor, base_url: config.baseUrl }, warning);
        err(`loadout: warning: ${warning}\n`);
      }
    },
    failed(tree, error) {
      logger.error({ root: tree, err: error }, 'the new tree failed to load; the previous one keeps serving');
    },
  });
  const running = server;
  let closing: Promise<void> | undefined;
  const shutDown = async (): Promise<void> => {
    logger.info({ timeout_ms: operations.shutdownTimeoutMs }, 'shutting down: no new connections, letting requests in flight finish');
    follower.stop();
    idle.stop();
    await running.drain(operations.shutdownTimeoutMs);
    await metricsServer?.close();
    await setup.close();
    logger.info('stopped');
  };
  out(`serving ${distDir} at ${running.url} (published addresses use ${config.baseUrl}; bot challenge: ${setup.challengeProvider}${metricsServer === undefined ? '' : `; metrics at ${metricsServer.url}/metrics`})\n`);
  return {
    url: running.url,
    port: running.port,
    metricsUrl: metricsServer?.url,
    drain: running.drain,
    // Once, however often it is called (SIGINT after SIGTERM).
    close: () => (closing ??= shutDown()),
  };
}
