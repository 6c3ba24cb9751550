/**
 * The app a server listens with: the request log and metrics around everything, the health
 * endpoints, then the generation in service (generation.ts). Until the first generation has
 * loaded, the early app (search alone) answers its paths and other requests wait for it
 * (staged-app.ts).
 */
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { GenerationHolder } from './generation.js';
import { mountHealth, type ReadinessChecks } from './health.js';
import type { ServerMetrics } from './metrics.js';
import { observeRequests } from './observe.js';
import { createStagedApp, type EarlyApp } from './staged-app.js';

/** Dependencies of {@link createFrontApp}. */
export interface FrontOptions {
  holder: GenerationHolder;
  /** Resolves once the first generation is in `holder`; rejects when it cannot load. */
  firstLoaded: Promise<void>;
  early: EarlyApp;
  logger: Logger;
  metrics: ServerMetrics;
  /** The database check of `/readyz`, when the server has a database. */
  pingDatabase?: () => Promise<void>;
  /** Called as each request arrives (idle-memory.ts). */
  onRequest?: () => void;
}

/**
 * Builds the front app. Each request takes the generation in service once, as it arrives, and
 * is answered wholly by that generation's app.
 */
export function createFrontApp(options: FrontOptions): Hono {
  const { holder } = options;
  const dispatch = new Hono();
  dispatch.all('*', (c) => {
    const generation = holder.current();
    if (generation === undefined) throw new Error('internal error: no generation in service after the first loaded');
    return generation.app.fetch(c.req.raw, c.env);
  });
  const staged = createStagedApp(options.early, options.firstLoaded.then(() => dispatch), options.onRequest);
  const front = new Hono();
  front.use('*', observeRequests(options.logger, options.metrics));
  const checks: ReadinessChecks = { treeLoaded: () => holder.current() !== undefined, pingDatabase: options.pingDatabase };
  mountHealth(front, checks, options.logger);
  front.all('*', (c) => staged.fetch(c.req.raw, c.env));
  return front;
}
