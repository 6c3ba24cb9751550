import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliNodeArgs } from '../helpers/cli-command.js';
import { buildSmallCatalogue } from './serve-harness.js';

/** The child's standard output as lines, with a way to wait for the first line that matches. */
function linesOf(child: ChildProcess): { waitFor(pattern: RegExp): Promise<string>; all: string[] } {
  const all: string[] = [];
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      all.push(line);
      for (const w of [...waiting]) {
        if (w.pattern.test(line)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  return {
    all,
    waitFor: (pattern) => {
      const seen = all.find((line) => pattern.test(line));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
  };
}

describe('graceful shutdown', () => {
  it('on SIGTERM: refuses new connections, completes the request in flight, exits 0', async () => {
    const root = await buildSmallCatalogue();
    const child = spawn(process.execPath, [...cliNodeArgs(), 'serve', '--port', '0', '--host', '127.0.0.1', '--out', 'dist'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `sqlite:${root}/data/catalogue.db`, CI: 'true', LOG_LEVEL: 'debug', SHUTDOWN_TIMEOUT_SECONDS: '30' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const out = linesOf(child);
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/u.exec(await out.waitFor(/ at http:\/\/127\.0\.0\.1:\d+/u))?.[1] ?? '';

    // An MCP tools/call whose body is sent in two halves: in flight from its first byte.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_loadouts', arguments: { query: 'dbt' } } });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body), 'x-request-id': 'in-flight-1' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      // The rest once the server is shutting down (below).
      void out.waitFor(/shutting down/u).then(() => req.end(body.slice(20)));
    });
    await out.waitFor(/"req_id":"in-flight-1".*request started/u);
    child.kill('SIGTERM');
    await out.waitFor(/shutting down/u);
    // No new connections once it drains.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(text).toContain('dbt-analytics');
    expect(await exited).toBe(0);
    // The request in flight was logged as it completed, before the process stopped.
    const line = out.all.find((l) => l.includes('"req_id":"in-flight-1"') && l.includes('"status":200'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ method: 'POST', route: '/mcp', status: 200 });
    expect(out.all.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  }, 90_000);
});
