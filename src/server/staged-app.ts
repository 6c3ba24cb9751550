/**
 * An app that answers a few paths before the rest of it has loaded (DESIGN.md section 7: the
 * server answers within 1 s of start; `bench/search.ts` measures it). Search needs only its
 * binary index, which loads in milliseconds; the MCP SDK and submissions (database, migrations,
 * the ten checks) take far longer to import and set up. So the server listens as soon as the early
 * app is ready: requests for its paths are answered by it, every other request waits for the
 * whole app, and once the whole app has loaded it answers everything.
 */
import { Hono } from 'hono';
import { rawPathname } from './app.js';
import { problem } from './problem.js';

/** The app answering `paths` (exact paths as sent) until the whole app has loaded. */
export interface EarlyApp {
  paths: readonly string[];
  app: Hono;
}

/**
 * The app to listen with; `onRequest` is called as each request arrives. Both apps receive the
 * request and the Node bindings (`c.env`) unchanged, so they answer as they would alone. When `whole` rejects, waiting requests get a
 * 500 problem (`internal_error`): the caller closes the server and reports the error.
 */
export function createStagedApp(early: EarlyApp, whole: Promise<Hono>, onRequest: () => void = () => undefined): Hono {
  let loaded: Hono | undefined;
  let failed = false;
  whole.then(
    (app) => {
      loaded = app;
    },
    () => {
      failed = true;
    },
  );
  const front = new Hono();
  front.all('*', async (c) => {
    onRequest();
    if (loaded !== undefined) return loaded.fetch(c.req.raw, c.env);
    if (early.paths.includes(rawPathname(c.req.url))) return early.app.fetch(c.req.raw, c.env);
    const app = failed ? undefined : await whole.catch(() => undefined);
    if (app === undefined) return problem(500, 'internal_error', 'the server failed to start (the error is reported where it was started)');
    return app.fetch(c.req.raw, c.env);
  });
  return front;
}
