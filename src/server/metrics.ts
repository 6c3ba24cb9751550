/**
 * Prometheus metrics (prom-client; exposition format per the Prometheus documentation, "Exposition
 * formats"), served on a port of their own (`METRICS_PORT`), never on the public one: they
 * describe the service, not the catalogue. Each server gets its own registry, so two servers in
 * one process (the tests) never share counters.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { LoadoutError } from '../catalogue/errors.js';

/** Latency buckets in seconds: from a cached search (well under 1 ms) to a slow submission. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** The metrics of one server. */
export interface ServerMetrics {
  readonly registry: Registry;
  /** One answered request: its route pattern, status and duration in seconds. */
  observeRequest(route: string, status: number, seconds: number): void;
  /** One search (`GET /api/v1/search`), seconds. */
  observeSearch(seconds: number): void;
  /** One MCP tool call, seconds. */
  observeTool(tool: string, seconds: number): void;
  /** A generation in service: its number and how long it took to load (ms). */
  setGeneration(number: number, loadMs: number): void;
  /** Where `submissions_by_state` comes from at each scrape (the database), if anywhere. */
  countSubmissions(source: () => Promise<Map<string, number>>): void;
}

/** Creates the metrics of one server, with Node's default process metrics. */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'loadout_http_requests_total', help: 'HTTP requests answered, by route pattern and status.', labelNames: ['route', 'status'], registers: [registry] });
  const latency = new Histogram({ name: 'loadout_http_request_duration_seconds', help: 'HTTP request latency by route pattern, seconds.', labelNames: ['route'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const search = new Histogram({ name: 'loadout_search_duration_seconds', help: 'Search latency (GET /api/v1/search), seconds.', buckets: LATENCY_BUCKETS, registers: [registry] });
  const tools = new Histogram({ name: 'loadout_mcp_tool_duration_seconds', help: 'MCP tool call latency by tool, seconds.', labelNames: ['tool'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const generation = new Gauge({ name: 'loadout_tree_generation', help: 'The tree generation in service (1 at start, one more per rebuild followed).', registers: [registry] });
  const loadSeconds = new Gauge({ name: 'loadout_tree_load_seconds', help: 'How long the generation in service took to load, seconds.', registers: [registry] });
  let source: (() => Promise<Map<string, number>>) | undefined;
  new Gauge({
    name: 'loadout_submissions',
    help: 'Submissions by state, read from the database at each scrape.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      if (source === undefined) return;
      for (const [state, count] of await source()) this.set({ state }, count);
    },
  });
  return {
    registry,
    observeRequest(route, status, seconds) {
      requests.inc({ route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    observeSearch: (seconds) => search.observe(seconds),
    observeTool: (tool, seconds) => tools.observe({ tool }, seconds),
    setGeneration(number, loadMs) {
      generation.set(number);
      loadSeconds.set(loadMs / 1000);
    },
    countSubmissions(next) {
      source = next;
    },
  };
}

/** A listening metrics endpoint. */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` from `metrics` on `host`:`port` (0 picks one), in Prometheus' text format.
 * @throws LoadoutError `config` when the port cannot be bound.
 */
export function listenMetrics(metrics: ServerMetrics, port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.url !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new LoadoutError('config', `cannot serve metrics on ${host}:${port}: ${error.code ?? error.message}`, { cause: error, hint: 'Pick another METRICS_PORT.' })));
    server.listen(port, host, () => {
      const info = server.address() as AddressInfo;
      resolve({
        url: `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
