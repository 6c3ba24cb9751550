/**
 * Search benchmark (DESIGN.md section 7): generates 10,000 synthetic loadouts,
 * builds what the server reads, starts `loadout serve` on it (the real command, compiled, with
 * a fresh SQLite database) and drives it from a second process over keep-alive connections.
 * Every figure is printed against its target with pass or fail, and the last line sums up.
 *
 *   npx tsx bench/search.ts [--loadouts 10000] [--seconds 4] [--concurrency 16] [--starts 3] [--full-build]
 *
 * Headline figures are the honest worst case: every search different (so the server's cache
 * never answers; the client says when it ran out of different searches), and the slowest of
 * `--starts` cold starts. Ratios are against a static record served by the same server in the
 * same run, so a busy machine moves both sides; the load average is printed at the start and
 * the end, and the start-up's CPU time beside its wall time (what it would take on a quiet
 * machine). Latency is measured with one connection (service time: client and server share
 * the CPUs), throughput with `--concurrency` connections.
 *
 * `--full-build` runs the real `loadout build` (checks, zips, pages: about 90 ms a loadout
 * here, so 15 minutes for 10,000) instead of the fast path of `search-generate.ts`.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SEARCH_INDEX_PATH } from '../src/search/settings.js';
import { SEARCH_RANKING_PATH } from '../src/search/ranking-file.js';
import type { BenchRequest, ClientJob, ClientReport } from './search-client.js';
import { allDifferentQueries, BENCH_QUERIES, syntheticLoadouts, writeSyntheticCatalogue, writeSyntheticTree } from './search-generate.js';

/** DESIGN.md section 7. */
const TARGETS = { searchP99Ms: 5, searchRps: 1500, searchVsStatic: 0.3, mcpVsSearch: 0.5, startMs: 1000, rssMb: 150 };
const TSX = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const here = (file: string): string => new URL(file, import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    loadouts: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    starts: { type: 'string', default: '3' },
    'full-build': { type: 'boolean', default: false },
  },
});
const count = Number(values.loadouts);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const starts = Math.max(1, Number(values.starts));
const baseUrl = 'http://127.0.0.1:8787';
const WARMUP_SECONDS = 1;
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');

/** A started `loadout serve`: its address, and the wall and CPU time from spawn until its first search answer, and until MCP answers. */
interface StartedServer {
  child: ChildProcess;
  url: string;
  wallMs: number;
  cpuMs: number | undefined;
  /** Wall time until MCP answers too (the server loads MCP and submissions after it answers search). */
  wholeMs: number;
}

/** A free loopback port (bound and released: the server binds it next). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Sends `request` until it is answered 200 (refused connections while the server starts), every 2 ms. */
async function firstAnswer(url: string, init?: RequestInit): Promise<void> {
  for (;;) {
    const response = await fetch(url, init).catch(() => undefined);
    if (response !== undefined) {
      await response.text();
      if (response.status === 200) return;
      throw new Error(`${url} answered ${response.status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Starts `loadout serve` on `dist` and waits for its first answer to a search, then to MCP. */
async function startServer(root: string, dist: string): Promise<StartedServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [here('../bin/loadout'), 'serve', '--out', dist, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `sqlite:${join(root, 'data', 'catalogue.db')}`, LOADOUT_BASE_URL: baseUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`loadout serve exited with ${code}:\n${stderr}`))));
  await Promise.race([firstAnswer(`${url}/api/v1/search?q=nextjs`), exited]);
  const wallMs = performance.now() - started;
  const cpuMs = cpuTimeMs(child.pid);
  const list = { method: 'POST', headers: mcpRequest({}, 0).headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) };
  await Promise.race([firstAnswer(`${url}/mcp`, list), exited]);
  return { child, url, wallMs, cpuMs, wholeMs: performance.now() - started };
}

/** User + system CPU time of a process in ms (Linux `/proc`; undefined elsewhere). */
function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    // Fields after the command name: state is 0, utime 11, stime 12, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Resident and peak resident memory of a process in MB (Linux `/proc`, else `ps`). */
function memoryMb(pid: number | undefined): { rss: number; peak: number | undefined } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number | undefined => {
      const m = new RegExp(`${name}:\\s+(\\d+)`, 'u').exec(status);
      return m === null ? undefined : Number(m[1]);
    };
    const peak = kb('VmHWM');
    return { rss: (kb('VmRSS') ?? 0) / 1024, peak: peak === undefined ? undefined : peak / 1024 };
  } catch {
    return { rss: Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024, peak: undefined };
  }
}

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
  const job: ClientJob = { url, requests, concurrency: connections, warmupSeconds: WARMUP_SECONDS, seconds };
  client.send(job);
  const report = await message(client, (m): m is ClientReport => typeof m === 'object' && m !== null && 'rps' in m);
  client.kill();
  return report;
}

const searchRequest = (q: string): BenchRequest => ({ method: 'GET', path: `/api/v1/search?q=${encodeURIComponent(q)}` });
const mcpRequest = (args: Record<string, unknown>, id: number): BenchRequest => ({
  method: 'POST',
  path: '/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_loadouts', arguments: args } }),
});

const root = mkdtempSync(join(tmpdir(), 'loadout-bench-search-'));
const dist = join(root, 'dist');
const servers: ChildProcess[] = [];
try {
  console.log(`search benchmark at ${count} loadouts; ${cpus().length} CPUs, load average ${load()}`);
  let t = performance.now();
  const loadouts = syntheticLoadouts(count);
  if (values['full-build']) {
    writeSyntheticCatalogue(root, loadouts);
    // Imported here: the build pulls in the ten checks, which the fast path does not need.
    const { buildCatalogue } = await import('../src/tree/build.js');
    const result = await buildCatalogue({ root, out: dist, baseUrl });
    if (!result.written) throw new Error(`build refused ${result.refused.length} loadouts`);
  } else {
    await writeSyntheticTree(dist, loadouts, baseUrl);
  }
  const mb = (path: string): string => (statSync(join(dist, path)).size / 1024 / 1024).toFixed(1);
  console.log(`built ${count} loadouts in ${((performance.now() - t) / 1000).toFixed(1)} s (${values['full-build'] ? 'loadout build' : 'records + search index'}); ${SEARCH_INDEX_PATH} ${mb(SEARCH_INDEX_PATH)} MB, ${SEARCH_RANKING_PATH} ${mb(SEARCH_RANKING_PATH)} MB`);

  // The server runs the compiled code, as `loadout serve` does: compile it first. Type errors
  // (in files being edited) do not stop tsc from writing lib/, so they only warn here.
  t = performance.now();
  try {
    execFileSync(process.execPath, [here('../node_modules/typescript/bin/tsc'), '-p', here('../tsconfig.build.json')], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch {
    if (!existsSync(here('../lib/cli/main.js'))) throw new Error('tsc wrote no lib/: run `npm run build` and read its errors');
    console.log('warning: tsc reported type errors; the benchmark runs what it wrote to lib/');
  }
  console.log(`compiled in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Cold starts: each a new process on the same tree (the OS has the files cached, as after a build).
  const started: StartedServer[] = [];
  for (let i = 0; i < starts; i++) {
    const server = await startServer(root, dist);
    servers.push(server.child);
    started.push(server);
    if (i < starts - 1) {
      server.child.kill();
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  }
  const slowest = started.reduce((a, b) => (b.wallMs > a.wallMs ? b : a));
  const server = started[started.length - 1] as StartedServer;
  const showMs = (s: StartedServer): string => `${s.wallMs.toFixed(0)} ms${s.cpuMs === undefined ? '' : ` (CPU ${s.cpuMs} ms)`}`;
  console.log(`server start until it answers search (loadout serve, ${starts} starts): ${started.map(showMs).join(', ')}`);
  console.log(`  and until MCP answers too (it loads after search): ${started.map((s) => `${s.wholeMs.toFixed(0)} ms`).join(', ')}`);
  console.log(`per scenario ${WARMUP_SECONDS} s warm-up and ${seconds} s with 1 connection (latency), then the same with ${concurrency} (throughput)\n`);

  // Every search different: one sequence, sliced so that no scenario repeats another's searches.
  const perRun = Math.ceil((WARMUP_SECONDS + seconds) * 8000);
  const queries = allDifferentQueries(perRun * 4);
  const slice = (i: number): string[] => queries.slice(i * perRun, (i + 1) * perRun);
  // The baseline: 64 published records, read from the tree like any static file.
  const records = loadouts.filter((_, i) => i % Math.ceil(count / 64) === 0).map((l): BenchRequest => ({ method: 'GET', path: `/api/loadouts/${l.id}.json` }));
  const scenarios: { name: string; light: BenchRequest[]; loaded: BenchRequest[]; allDifferent: boolean }[] = [
    { name: 'search, all different', light: slice(0).map(searchRequest), loaded: slice(1).map(searchRequest), allDifferent: true },
    { name: 'MCP search, all diff.', light: slice(2).map((q, i) => mcpRequest({ query: q, limit: 20 }, i)), loaded: slice(3).map((q, i) => mcpRequest({ query: q, limit: 20 }, i)), allDifferent: true },
    { name: 'static record', light: records, loaded: records, allDifferent: false },
    { name: 'search, 24 repeated', light: BENCH_QUERIES.map((q) => ({ method: 'GET', path: `/api/v1/search?${q}` })), loaded: BENCH_QUERIES.map((q) => ({ method: 'GET', path: `/api/v1/search?${q}` })), allDifferent: false },
  ];

  console.log(`${''.padEnd(24)}${'1 connection'.padEnd(22)}${`${concurrency} connections`.padEnd(24)}µs/request`);
  console.log(`${'scenario'.padEnd(24)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${''.padEnd(6)}${'req/s'.padStart(7)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'server CPU'.padStart(11)}  requests, errors`);
  const results = new Map<string, { light: ClientReport; loaded: ClientReport; allDifferent: boolean; cpuUs: number | undefined }>();
  for (const scenario of scenarios) {
    const cpuBefore = cpuTimeMs(server.child.pid);
    const light = await drive(server.url, scenario.light, 1);
    const loaded = await drive(server.url, scenario.loaded, concurrency);
    const cpuAfter = cpuTimeMs(server.child.pid);
    // The server's own CPU time per request: what the machine's other load does not inflate much.
    const cpuUs = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / (light.answered + loaded.answered);
    results.set(scenario.name, { light, loaded, allDifferent: scenario.allDifferent, cpuUs });
    const repeated = scenario.allDifferent && (light.wrapped || loaded.wrapped) ? '  (ran out of different searches: some repeated)' : '';
    console.log(
      `${scenario.name.padEnd(24)}${light.p50.toFixed(2).padStart(8)}${light.p99.toFixed(2).padStart(8)}${''.padEnd(6)}${loaded.rps.toFixed(0).padStart(7)}${loaded.p50.toFixed(1).padStart(8)}${loaded.p99.toFixed(1).padStart(8)}` +
        `${(cpuUs === undefined ? '' : cpuUs.toFixed(0)).padStart(9)}  ${light.requests + loaded.requests}, ${light.errors + loaded.errors}${repeated}`,
    );
  }
  console.log('(the last row is for reference: 24 searches repeated, answered from the cache; no target)');

  // Idle after the load: what the process holds once the requests stop, with no forced
  // collection. V8 keeps the heap it grew under load until its memory reducer runs, some 10 to
  // 30 s into idleness: sampled at once, after 10 s and after 30 s; the target is on the last.
  const idle: { seconds: number; rss: number }[] = [];
  for (const seconds of [0, 10, 30]) {
    await new Promise((resolve) => setTimeout(resolve, (seconds - (idle[idle.length - 1]?.seconds ?? 0)) * 1000));
    idle.push({ seconds, rss: memoryMb(server.child.pid).rss });
  }
  const memory = { rss: (idle[idle.length - 1] as { rss: number }).rss, peak: memoryMb(server.child.pid).peak };
  console.log(`\nserver resident memory idle after the load: ${idle.map((m) => `${m.rss.toFixed(0)} MB after ${m.seconds} s`).join(', ')}${memory.peak === undefined ? '' : ` (peak ${memory.peak.toFixed(0)} MB)`}`);

  const get = (name: string): { light: ClientReport; loaded: ClientReport } => results.get(name) as { light: ClientReport; loaded: ClientReport };
  const search = get('search, all different');
  const mcp = get('MCP search, all diff.');
  const staticRecord = get('static record');
  const allDifferent = !search.light.wrapped && !search.loaded.wrapped && !mcp.light.wrapped && !mcp.loaded.wrapped;
  const errors = [...results.values()].reduce((n, r) => n + r.light.errors + r.loaded.errors, 0);
  const checks: [string, boolean][] = [
    [`search, every query different, 1 connection: p99 ${search.light.p99.toFixed(2)} ms (target < ${TARGETS.searchP99Ms} ms; p50 ${search.light.p50.toFixed(2)} ms)`, search.light.p99 < TARGETS.searchP99Ms],
    [`search, every query different, ${concurrency} connections: ${search.loaded.rps.toFixed(0)} req/s (target >= ${TARGETS.searchRps})`, search.loaded.rps >= TARGETS.searchRps],
    [`search, every query different / static record throughput: ${(search.loaded.rps / staticRecord.loaded.rps).toFixed(2)} (target >= ${TARGETS.searchVsStatic}; static ${staticRecord.loaded.rps.toFixed(0)} req/s)`, search.loaded.rps / staticRecord.loaded.rps >= TARGETS.searchVsStatic],
    [`MCP search_loadouts / search API throughput, every query different: ${(mcp.loaded.rps / search.loaded.rps).toFixed(2)} (target >= ${TARGETS.mcpVsSearch}; MCP ${mcp.loaded.rps.toFixed(0)} req/s)`, mcp.loaded.rps / search.loaded.rps >= TARGETS.mcpVsSearch],
    [`server start until it answers search, slowest of ${starts}: ${showMs(slowest)} (target < ${TARGETS.startMs} ms)`, slowest.wallMs < TARGETS.startMs],
    [`server resident memory, idle 30 s after the load: ${memory.rss.toFixed(0)} MB (target < ${TARGETS.rssMb} MB; ${(idle[0] as { rss: number }).rss.toFixed(0)} MB as the load ends)`, memory.rss < TARGETS.rssMb],
    [`every search different: ${allDifferent ? 'yes' : 'no, the client ran out'}; errors: ${errors} (target 0)`, allDifferent && errors === 0],
  ];
  console.log('');
  for (const [what, ok] of checks) console.log(`${ok ? 'pass' : 'FAIL'}  ${what}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  console.log(`load average at the end: ${load()}`);
  console.log(`search benchmark: ${failed === 0 ? 'pass' : 'FAIL'}, ${checks.length - failed} of ${checks.length} targets met (all different: p99 ${search.light.p99.toFixed(2)} ms, ${search.loaded.rps.toFixed(0)} req/s = ${(search.loaded.rps / staticRecord.loaded.rps).toFixed(2)}x static, MCP ${(mcp.loaded.rps / search.loaded.rps).toFixed(2)}x; start ${slowest.wallMs.toFixed(0)} ms; ${memory.rss.toFixed(0)} MB)`);
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  for (const child of servers) child.kill();
  rmSync(root, { recursive: true, force: true });
}
