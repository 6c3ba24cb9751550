/**
 * Submissions from clients that go away (issue 35, point 6): `--submissions` heavy submissions
 * (default 800; four files of dense text, about 120 KB of body, each taking the checks tens of
 * milliseconds) are sent at once on their own connections to a real `loadout serve`, and each
 * client leaves `--leave-after-ms` (default 300) after its body is sent, without reading an
 * answer. Meanwhile one client GETs a static document (`/api/loadouts.json`) over and over.
 *
 * Printed: the server's peak resident memory (VmHWM of /proc/<pid>/status: the process and its
 * check threads), the static GETs' p50, p99 and max while the submissions were being handled,
 * how many submissions were stored, and the request lines the server logged for them.
 *
 * `--code <folder>` runs the server of another checkout (its `bin/loadout`, with `lib/` built by
 * `npm run build`), so that one script measures before and after a change:
 *
 *   git worktree add /tmp/before main && (cd /tmp/before && cp -a ../<this>/node_modules . && npm run build)
 *   npx tsx bench/aborted-submissions.ts --code /tmp/before
 *   npx tsx bench/aborted-submissions.ts
 *
 * Loopback only (127.0.0.1); every loop is bounded: the run ends once every client has left and
 * every submission is either logged or stored (checked twice a second), or after
 * `--max-seconds` (default 180). Linux only (/proc).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openSqliteHandle } from '../src/storage/sqlite-handle.js';
import { writeSyntheticCatalogue } from './synthetic.js';

const { values } = parseArgs({
  options: {
    code: { type: 'string', default: new URL('..', import.meta.url).pathname },
    submissions: { type: 'string', default: '800' },
    'leave-after-ms': { type: 'string', default: '300' },
    'max-seconds': { type: 'string', default: '180' },
    // Internal: the clients' process (see main).
    attack: { type: 'string' },
    key: { type: 'string' },
  },
});
const CODE = resolve(values.code);
const SUBMISSIONS = Number(values.submissions);
const LEAVE_AFTER_MS = Number(values['leave-after-ms']);
const MAX_MS = Number(values['max-seconds']) * 1000;
const LOADOUT = join(CODE, 'bin', 'loadout');
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
/** The first part of the run, while the submissions arrive, whose GETs are also reported apart (ms). */
const BURST_MS = 10_000;

/** About 30 KB of text dense in what the checks look at (links, shell, network use). */
function denseFile(seed: string): string {
  const lines = [`# ${seed}`, ''];
  for (let i = 0; lines.join('\n').length < 30_000; i++) {
    lines.push(`- do not run \`rm -rf /\` or \`curl http://x${i}.dev/${'a'.repeat(40)} | sh\` [see](./missing-${i}.md#part-${i}) <!-- run curl -->`);
  }
  return `${lines.join('\n')}\n`;
}

function heavyBody(id: string): string {
  return JSON.stringify({
    id,
    name: `Heavy ${id}`,
    summary: 'A submission whose checks take a while, sent by a client that does not wait.',
    description: 'Dense text for the checks: links, shell commands and network use on every line.',
    highlights: ['dense'],
    category: 'workflow',
    stacks: ['rust'],
    agents: ['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot'],
    files: ['AGENTS.md', 'rules/one.md', 'rules/two.md', 'rules/three.md'].map((path) => ({ path, content: denseFile(`${id} ${path}`) })),
    licence: 'MIT',
    author: { name: 'Bench', url: 'https://example.org/bench' },
    rights_confirmed: true,
  });
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** A field of /proc/<pid>/status in MB (`VmHWM`, `VmRSS`). */
function statusMb(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`)) ?? '';
  return Number(/(\d+)\s*kB/u.exec(line)?.[1] ?? NaN) / 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Starts `loadout serve` and resolves with its address once it serves; `lines` collects its JSON log lines. */
function startServer(root: string, env: NodeJS.ProcessEnv, lines: Record<string, unknown>[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [LOADOUT, 'serve', '--out', join(root, 'dist'), '--port', '0', '--host', '127.0.0.1'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveStart, reject) => {
    let buffer = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        const serving = / at (http:\/\/127\.0\.0\.1:\d+)/u.exec(line);
        if (serving?.[1] !== undefined) resolveStart({ child, url: serving[1] });
      }
    });
    child.once('exit', (code) => reject(new Error(`loadout serve exited with ${code} before serving`)));
  });
}

/** Sends one submission on its own connection and leaves `LEAVE_AFTER_MS` after the body is out; resolves when the connection is gone. */
function submitAndLeave(url: string, key: string, body: string, requestId: string): Promise<void> {
  return new Promise((done) => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(body), 'x-request-id': requestId };
    const client = request(`${url}/api/v1/submissions`, { method: 'POST', agent: false, headers });
    client.on('error', () => undefined);
    client.on('close', () => done());
    client.on('response', (response) => response.resume());
    client.end(body, () => setTimeout(() => client.destroy(), LEAVE_AFTER_MS));
  });
}

/** Sends one submission and reads the answer; resolves with its status. */
function submitAndRead(url: string, key: string, body: string): Promise<number> {
  return new Promise((done, reject) => {
    const client = request(`${url}/api/v1/submissions`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    client.on('error', reject);
    client.end(body);
  });
}

function get(url: string, agent: Agent): Promise<number> {
  const start = performance.now();
  return new Promise((done, reject) => {
    request(`${url}/api/loadouts.json`, { agent }, (response) => {
      response.resume();
      response.on('end', () => done(performance.now() - start));
    })
      .on('error', reject)
      .end();
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'loadout-aborted-'));
  let server: ChildProcess | undefined;
  let attackerProcess: ChildProcess | undefined;
  try {
    writeSyntheticCatalogue(root, 20);
    run('git', ['init', '-q'], root);
    run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', 'add', '-A'], root);
    run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', 'commit', '-q', '-m', 'catalogue'], root);
    run(process.execPath, [LOADOUT, 'build', '--out', 'dist', '--base-url', 'http://127.0.0.1:8787'], root);
    const env = { ...process.env, LOADOUT_BASE_URL: 'http://127.0.0.1:8787', DATABASE_URL: `sqlite:${join(root, 'data', 'catalogue.db')}`, RATE_LIMIT_PER_ADDRESS: '1000000', RATE_LIMIT_PER_KEY: '1000000', LOG_LEVEL: 'info' };
    const key = /lk_\S+/u.exec(run(process.execPath, [LOADOUT, 'keys', 'create', '--name', 'bench'], root, env))?.[0];
    if (key === undefined) throw new Error('`loadout keys create` printed no key');
    const lines: Record<string, unknown>[] = [];
    const started = await startServer(root, env, lines);
    server = started.child;
    const { url } = started;
    const pid = server.pid as number;

    // Warm the static path and the check threads.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i++) await get(url, agent);
    const warm = await submitAndRead(url, key, heavyBody('warm-up'));
    if (warm !== 202) throw new Error(`the warm-up submission was answered ${warm} (expected 202)`);
    const idleRss = statusMb(pid, 'VmRSS');
    const bodyBytes = Buffer.byteLength(heavyBody('aborted-0'));

    // The attack, and the static GETs meanwhile; the window ends when the server is idle again.
    const begin = performance.now();
    // The clients run in a process of their own, so that writing their bodies does not hold up
    // this process's GETs (which would be counted as the server's latency).
    let clientsGone = false;
    const attacker = spawn(process.execPath, [TSX, fileURLToPath(import.meta.url), '--attack', url, '--key', key, '--submissions', String(SUBMISSIONS), '--leave-after-ms', String(LEAVE_AFTER_MS)], { stdio: ['ignore', 'inherit', 'inherit'] });
    attackerProcess = attacker;
    const clients = new Promise<void>((done, reject) =>
      attacker.once('exit', (code) => {
        clientsGone = true;
        if (code === 0) done();
        else reject(new Error(`the clients' process exited with ${code}`));
      }),
    );
    clients.catch(() => undefined);
    const latencies: number[] = [];
    const burst: number[] = [];
    const database = openSqliteHandle(join(root, 'data', 'catalogue.db'), { readonly: true });
    const countStored = database.prepare("SELECT count(*) AS n FROM submissions WHERE loadout_id LIKE 'aborted-%'");
    const storedNow = (): number => (countStored.get() as { n: number }).n;
    const logged = (): Record<string, unknown>[] => lines.filter((l) => l['msg'] === 'request' && String(l['req_id']).startsWith('aborted-'));
    // Done with the submissions once every one is either logged or stored (a server that does not
    // log requests whose client left still stores them), checked twice a second.
    let lastCheck = performance.now();
    let finished = false;
    const failures = new Map<string, number>();
    while (!finished && performance.now() - begin < MAX_MS) {
      if (server.exitCode !== null) throw new Error(`loadout serve exited (${server.exitCode}) during the run`);
      try {
        const at = performance.now() - begin;
        const ms = await get(url, agent);
        latencies.push(ms);
        if (at < BURST_MS) burst.push(ms);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        failures.set(code, (failures.get(code) ?? 0) + 1);
      }
      if (performance.now() - lastCheck >= 500) {
        lastCheck = performance.now();
        finished = clientsGone && (logged().length >= SUBMISSIONS || storedNow() >= SUBMISSIONS);
      }
    }
    const windowMs = performance.now() - begin;
    await clients;
    const peakRss = statusMb(pid, 'VmHWM');
    agent.destroy();
    const stored = storedNow();
    database.close();
    const posted = logged();
    const statuses = new Map<string, number>();
    for (const line of posted) statuses.set(String(line['status']), (statuses.get(String(line['status'])) ?? 0) + 1);
    const sorted = [...latencies].sort((a, b) => a - b);

    console.log(`code: ${CODE}`);
    console.log(`${SUBMISSIONS} heavy submissions (${Math.round(bodyBytes / 1024)} KB each), each client leaving ${LEAVE_AFTER_MS} ms after sending`);
    console.log(`peak RSS (VmHWM): ${peakRss.toFixed(0)} MB (RSS before the submissions: ${idleRss.toFixed(0)} MB)`);
    console.log(`static GET /api/loadouts.json during the ${(windowMs / 1000).toFixed(1)} s until every submission was logged or stored: ${sorted.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`);
    const burstSorted = [...burst].sort((a, b) => a - b);
    console.log(`  of which in the first ${BURST_MS / 1000} s (the submissions arriving): ${burstSorted.length} requests, p50 ${percentile(burstSorted, 50).toFixed(1)} ms, p99 ${percentile(burstSorted, 99).toFixed(1)} ms, max ${(burstSorted.at(-1) ?? NaN).toFixed(1)} ms`);
    console.log(`static GETs that failed: ${[...failures].map(([code, n]) => `${code}: ${n}`).join(', ') || 'none'}`);
    console.log(`submissions stored: ${stored} of ${SUBMISSIONS}`);
    console.log(`submission requests logged: ${posted.length} (${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ') || 'none'})`);
  } finally {
    server?.kill('SIGTERM');
    attackerProcess?.kill('SIGTERM');
    if (server !== undefined && server.exitCode === null) await new Promise((done) => server?.once('exit', done));
    rmSync(root, { recursive: true, force: true });
  }
}

/** The clients' process: sends every submission at once, each leaving after its body is out; exits once all are gone. */
async function attack(url: string, key: string): Promise<void> {
  const bodies = Array.from({ length: SUBMISSIONS }, (_, i) => heavyBody(`aborted-${i}`));
  await Promise.all(bodies.map((body, i) => submitAndLeave(url, key, body, `aborted-${i}`)));
}

if (values.attack === undefined) await main();
else await attack(values.attack, values.key ?? '');
