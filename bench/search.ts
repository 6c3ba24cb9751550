/**
 * Search benchmark (DESIGN.md section 7): generates 10,000 synthetic loadouts, builds what the
 * server reads, starts the server in one process and drives it from a second one with
 * keep-alive connections: a static record, `GET /api/v1/search` with realistic queries, and
 * MCP `tools/call search_loadouts`. Prints p50/p99 latency and requests per second for each,
 * then the ratios against the targets and pass or fail.
 *
 *   npx tsx bench/search.ts [--loadouts 10000] [--seconds 4] [--concurrency 16] [--full-build]
 *
 * `--full-build` runs the real `loadout build` (checks, zips, pages: about 90 ms a loadout
 * here, so 15 minutes for 10,000) instead of the fast path of `search-generate.ts`.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCatalogue } from '../src/build/build.js';
import type { BenchRequest, ClientJob, ClientReport } from './search-client.js';
import { BENCH_QUERIES, syntheticLoadouts, uniqueQueries, writeSyntheticCatalogue, writeSyntheticTree } from './search-generate.js';

const TARGETS = { searchP99Ms: 5, searchVsStatic: 0.5, mcpVsSearch: 0.25, rssMb: 300 };
const TSX = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const here = (file: string): string => new URL(file, import.meta.url).pathname;

const { values } = parseArgs({ options: { loadouts: { type: 'string', default: '10000' }, seconds: { type: 'string', default: '4' }, concurrency: { type: 'string', default: '16' }, 'full-build': { type: 'boolean', default: false } } });
const count = Number(values.loadouts);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const baseUrl = 'http://127.0.0.1:8787';

function message<T>(child: ChildProcess, test: (m: unknown) => m is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown): void => {
      if (test(m)) {
        child.off('message', onMessage);
        resolve(m);
      }
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${child.spawnargs.join(' ')} exited with ${code}`)));
  });
}

async function drive(url: string, requests: BenchRequest[], connections: number): Promise<ClientReport> {
  const client = fork(here('./search-client.ts'), [], { execArgv: ['--import', TSX] });
  const job: ClientJob = { url, requests, concurrency: connections, warmupSeconds: 1, seconds };
  client.send(job);
  const report = await message(client, (m): m is ClientReport => typeof m === 'object' && m !== null && 'rps' in m);
  client.kill();
  return report;
}

/** A query string of BENCH_QUERIES as `search_loadouts` arguments. */
function toolArguments(qs: string): Record<string, unknown> {
  const p = new URLSearchParams(qs);
  const args: Record<string, unknown> = { query: p.get('q') ?? '', limit: Number(p.get('limit') ?? 20) };
  for (const key of ['agent', 'category', 'has'] as const) if (p.has(key)) args[key] = p.get(key);
  if (p.has('tags')) args['tags'] = (p.get('tags') ?? '').split(',');
  if (p.has('verified')) args['verified'] = p.get('verified') === 'true';
  return args;
}

const root = mkdtempSync(join(tmpdir(), 'loadout-bench-search-'));
const dist = join(root, 'dist');
let server: ChildProcess | undefined;
try {
  let t = performance.now();
  const loadouts = syntheticLoadouts(count);
  if (values['full-build']) {
    writeSyntheticCatalogue(root, loadouts);
    const result = await buildCatalogue({ root, out: dist, baseUrl });
    if (!result.written) throw new Error(`build refused ${result.refused.length} loadouts`);
  } else {
    await writeSyntheticTree(dist, loadouts, baseUrl);
  }
  const ids = loadouts.map((l) => l.id);
  const indexBytes = statSync(join(dist, 'api', 'search-index.json')).size;
  console.log(`built ${count} loadouts in ${((performance.now() - t) / 1000).toFixed(1)} s (${values['full-build'] ? 'loadout build' : 'records + search index'}); index ${(indexBytes / 1024 / 1024).toFixed(1)} MB`);

  t = performance.now();
  // The server runs the compiled code, as `loadout serve` does: compile it first.
  execFileSync(process.execPath, [here('../node_modules/typescript/bin/tsc'), '-p', here('../tsconfig.build.json')], { stdio: 'inherit' });
  server = fork(here('./search-server.mjs'), [dist, baseUrl], { execArgv: ['--expose-gc'] });
  const { url } = await message(server, (m): m is { url: string } => typeof m === 'object' && m !== null && 'url' in m);
  console.log(`server at ${url}, index loaded in ${((performance.now() - t) / 1000).toFixed(2)} s; per scenario ${seconds} s with 1 connection (latency) and ${seconds} s with ${concurrency} (throughput)\n`);

  const staticRequests: BenchRequest[] = ids.filter((_, i) => i % Math.ceil(count / 64) === 0).map((id) => ({ method: 'GET', path: `/api/loadouts/${id}.json` }));
  const searchRequests: BenchRequest[] = BENCH_QUERIES.map((q) => ({ method: 'GET', path: `/api/v1/search?${q}` }));
  // Searches that are all different (two-word pairs), so the server's ranking cache never helps:
  // what ranking itself costs. Printed for the record; the targets use the realistic set above.
  const uniqueRequests: BenchRequest[] = uniqueQueries(4000).map((q) => ({ method: 'GET', path: `/api/v1/search?q=${encodeURIComponent(q)}` }));
  const mcpRequests: BenchRequest[] = BENCH_QUERIES.map((q, i) => ({
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_loadouts', arguments: toolArguments(q) } }),
  }));

  // Latency is measured with one connection (service time, no queueing behind the other
  // connections on this 2-core machine, where client and server share the CPUs); throughput
  // with `concurrency` connections. Both runs are printed.
  const results: Record<string, ClientReport> = {};
  for (const [name, requests] of [['static record', staticRequests], ['search API', searchRequests], ['MCP search_loadouts', mcpRequests], ['search, all different', uniqueRequests]] as const) {
    const light = await drive(url, [...requests], 1);
    const loaded = await drive(url, [...requests], concurrency);
    results[name] = { ...loaded, p50: light.p50, p99: light.p99, errors: light.errors + loaded.errors };
    console.log(
      `${name.padEnd(20)} p50 ${light.p50.toFixed(2).padStart(6)} ms  p99 ${light.p99.toFixed(2).padStart(6)} ms  ${loaded.rps.toFixed(0).padStart(6)} req/s` +
        `  (under load: p50 ${loaded.p50.toFixed(1)} ms, p99 ${loaded.p99.toFixed(1)} ms; ${light.requests + loaded.requests} requests, ${light.errors + loaded.errors} errors)`,
    );
  }
  server.send('rss');
  const { rss, peak } = await message(server, (m): m is { rss: number; peak: number } => typeof m === 'object' && m !== null && 'rss' in m);
  console.log(`\nserver resident memory: ${(peak / 1024 / 1024).toFixed(0)} MB right after the load, ${(rss / 1024 / 1024).toFixed(0)} MB once idle`);

  const [st, se, mc] = [results['static record'], results['search API'], results['MCP search_loadouts']] as ClientReport[];
  const checks = [
    [`search p99 ${se?.p99.toFixed(2)} ms`, `< ${TARGETS.searchP99Ms} ms`, (se?.p99 ?? Infinity) < TARGETS.searchP99Ms],
    [`search / static throughput ${((se?.rps ?? 0) / (st?.rps ?? 1)).toFixed(2)}`, `>= ${TARGETS.searchVsStatic}`, (se?.rps ?? 0) / (st?.rps ?? 1) >= TARGETS.searchVsStatic],
    [`MCP / search throughput ${((mc?.rps ?? 0) / (se?.rps ?? 1)).toFixed(2)}`, `>= ${TARGETS.mcpVsSearch}`, (mc?.rps ?? 0) / (se?.rps ?? 1) >= TARGETS.mcpVsSearch],
    [`server RSS (idle) ${(rss / 1024 / 1024).toFixed(0)} MB`, `< ${TARGETS.rssMb} MB`, rss / 1024 / 1024 < TARGETS.rssMb],
    [`errors ${(st?.errors ?? 0) + (se?.errors ?? 0) + (mc?.errors ?? 0)}`, '= 0', (st?.errors ?? 0) + (se?.errors ?? 0) + (mc?.errors ?? 0) === 0],
  ] as const;
  console.log('');
  for (const [what, target, ok] of checks) console.log(`${what} (target ${target}): ${ok ? 'pass' : 'FAIL'}`);
  const pass = checks.every(([, , ok]) => ok);
  console.log(`search benchmark: ${pass ? 'pass' : 'FAIL'}`);
  process.exitCode = pass ? 0 : 1;
} finally {
  server?.kill();
  rmSync(root, { recursive: true, force: true });
}
