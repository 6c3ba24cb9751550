/**
 * The HTTP app of `loadout dev`: the built tree as `loadout serve` serves it (server/app.ts,
 * without search, MCP or submissions), every HTML page with the dev script added
 * (client-script.ts), the session's events as server-sent events (WHATWG HTML, "Server-sent
 * events": `text/event-stream`, `event:` and `data:` lines, a blank line ending each), and the
 * last build's report as JSON. Before the first tree is written, every page is a short one that
 * carries the script, so a refused first build still shows its findings. A request whose `Host`
 * is not a name the session is bound to, nor `localhost`, is answered 421 `misdirected_request`
 * whatever it asks for, the event stream included (allowed-hosts.ts: DNS rebinding).
 */
import { Hono } from 'hono';
import { problem } from '../server/problem.js';
import { allowedHostsOf, describeAllowedHosts, isAllowedHost } from './allowed-hosts.js';
import { DEV_CLIENT_SCRIPT, DEV_PATHS } from './client-script.js';
import type { DevReport } from './report.js';

/** The session's side of the app: the current tree's app and the last report. */
export interface DevAppSource {
  /** The app serving the live tree; undefined before a tree was written. */
  tree(): Hono | undefined;
  /** The last build's report; undefined before the first build ended. */
  report(): DevReport | undefined;
}

/** Sends events to every open page. */
export interface DevEvents {
  /** Opens a stream for one client: the `text/event-stream` response it reads events from. */
  open(): Response;
  /**
   * Sends `event` with `data` (JSON) to every open stream: `reload` when a build was written,
   * `documents` when the catalogue documents it deferred were written after it (session.ts),
   * `refused` when a build was refused.
   */
  send(event: 'reload' | 'documents' | 'refused', data: DevReport): void;
  /** Open streams. */
  readonly clients: number;
  /** Ends every stream (the server closes). */
  close(): void;
}

const SCRIPT_TAG = `<script src="${DEV_PATHS.script}" defer></script>`;
const encoder = new TextEncoder();

/** A broadcaster of server-sent events to the streams it opened. */
export function createDevEvents(): DevEvents {
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  return {
    open() {
      let self: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          self = controller;
          streams.add(controller);
          // A comment line starts the stream at once, so the client's `open` fires.
          controller.enqueue(encoder.encode(': loadout dev\n\n'));
        },
        cancel() {
          if (self !== undefined) streams.delete(self);
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' } });
    },
    send(event, data) {
      const chunk = encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      for (const stream of streams) stream.enqueue(chunk);
    },
    get clients() {
      return streams.size;
    },
    close() {
      for (const stream of streams) stream.close();
      streams.clear();
    },
  };
}

/** Options of {@link createDevApp}. */
export interface DevAppOptions {
  /** The address or name the server is bound to (`--host`): the `Host` it answers (allowed-hosts.ts). */
  host: string;
}

/** The app (see the module comment). Pure apart from what `source` reads. */
export function createDevApp(source: DevAppSource, events: DevEvents, options: DevAppOptions): Hono {
  const app = new Hono();
  const allowed = allowedHostsOf(options.host);
  const detail = `loadout dev answers only requests addressed to ${describeAllowedHosts(allowed)}, and this request's Host header names another host (expected the address loadout dev printed; a page of another site reaching it under its own name is DNS rebinding; RFC 9110 section 15.5.20)`;
  app.use('*', async (c, next) => {
    if (!isAllowedHost(c.req.header('host'), allowed)) return problem(421, 'misdirected_request', detail);
    await next();
  });
  app.get(DEV_PATHS.script, () => new Response(DEV_CLIENT_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' } }));
  app.get(DEV_PATHS.report, (c) => c.json(source.report() ?? null, 200, { 'cache-control': 'no-store' }));
  app.get(DEV_PATHS.events, () => events.open());
  app.all('*', async (c) => {
    const tree = source.tree();
    if (tree === undefined) {
      return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loadout dev</title></head><body><h1>loadout dev</h1><p>No tree is built yet: the report below says why.</p>${SCRIPT_TAG}</body></html>`, 503, { 'cache-control': 'no-store' });
    }
    const response = await tree.fetch(c.req.raw);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html') || c.req.method !== 'GET') return response;
    const html = await response.text();
    const at = html.lastIndexOf('</body>');
    const headers = new Headers(response.headers);
    // The page changes with every build: no validators, no caching.
    for (const name of ['etag', 'last-modified', 'content-length']) headers.delete(name);
    headers.set('cache-control', 'no-store');
    return new Response(at < 0 ? html + SCRIPT_TAG : html.slice(0, at) + SCRIPT_TAG + html.slice(at), { status: response.status, headers });
  });
  return app;
}
