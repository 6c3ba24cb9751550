import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import { runCli } from '../helpers/cli.js';
import { buildFixtureCatalogue, FIXTURE_IDS, type FixtureCatalogue } from './fixture.js';

let fixture: FixtureCatalogue;

beforeAll(async () => {
  fixture = await buildFixtureCatalogue();
});
afterAll(() => fixture?.remove());

describe('loadout search', () => {
  it('prints a ranked table, with typos and prefixes tolerated', async () => {
    const result = await runCli(['search', 'nexjs', 'app'], fixture.root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+id\s+version\s+score\s+title$/u);
    expect(lines[1]).toMatch(/^1\s+nextjs-app-router\s+1\.1\.0\s+\d+\.\d\d\s+Next\.js App Router \[featured\]$/u);
    expect(lines.at(-1)).toMatch(/^1-\d+ of \d+ for "nexjs app"$/u);
  });

  it('lists everything without a query, and pages with --limit and --offset', async () => {
    const result = await runCli(['search', '--limit', '2', '--offset', '1'], fixture.root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('2  secure-code-review');
    expect(result.stdout).toContain('3  svelte-kit-b');
    expect(result.stdout).toContain(`2-3 of ${FIXTURE_IDS.length} for all loadouts`);
  });

  it('prints the API response with --json and applies the filters', async () => {
    const result = await runCli(['search', 'python', '--agent', 'cursor', '--tags', 'web-app', '--has', 'rules', '--category', 'web-app', '--verified', 'true', '--json', '--out', 'dist'], fixture.root);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { query: string; total: number; results: { id: string }[] };
    expect(body).toMatchObject({ query: 'python', total: 1, limit: 20, offset: 0 });
    expect(body.results.map((r) => r.id)).toEqual(['fastapi-service']);
  });

  it('says when nothing matches, and treats query syntax as text', async () => {
    const result = await runCli(['search', '*'], fixture.root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no loadouts match "*"\n');
  });

  it('suggests close stacks, ids or categories when nothing matches', async () => {
    const result = await runCli(['search', 'fstapy'], fixture.root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no loadouts match "fstapy"; did you mean fastapi (stack)?\n');
    const json = await runCli(['search', 'fstapy', '--json'], fixture.root);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 0, suggestions: [{ kind: 'stack', value: 'fastapi' }] });
  });

  it('exits 2 naming each bad flag and what it expects', async () => {
    const result = await runCli(['search', 'x', '--limit', '0', '--has', 'tests'], fixture.root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('loadout: --has is "tests" (expected one of skills, mcp, rules, hooks, scripts); --limit is "0" (expected an integer from 1 to 50)\n');
    const runs = await runCli(['search', '--runs', 'maybe'], fixture.root);
    expect(runs.code).toBe(2);
    expect(runs.stderr).toBe('loadout: --runs is "maybe" (expected one of nothing, something)\n');
  });

  it('filters on what a loadout runs with --runs and --has hooks', async () => {
    const something = await runCli(['search', '--runs', 'something', '--json'], fixture.root);
    expect(something.code).toBe(0);
    expect((JSON.parse(something.stdout) as { results: { id: string }[] }).results.map((r) => r.id)).toEqual(['dbt-analytics']);
    const hooks = await runCli(['search', '--has', 'hooks'], fixture.root);
    expect(hooks.stdout).toBe('no loadouts match all loadouts\n');
  });

  it('exits 2 saying there is no catalogue there, and how to name one, for a folder with no built tree', async () => {
    const result = await runCli(['search', 'x', '--out', 'missing'], fixture.root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('loadout: there is no catalogue at ./missing: no such folder');
    expect(result.stderr).toContain('hint: Name the catalogue with --from <url>');
  });
});

describe('loadout search --from a base URL', () => {
  const config = { database: false, challenge_secret: false, challenge_site_key: false } as const;
  let api: { url: string; close(): Promise<void> };
  let statics: Server;
  let staticBase = '';
  let odd: Server;
  let oddBase = '';

  beforeAll(async () => {
    // The catalogue's server, with GET /api/v1/search.
    api = await listen(createApp({ distDir: fixture.dist, baseUrl: fixture.baseUrl, submissionsOpen: false, config }), { port: 0, host: '127.0.0.1' });
    // The same tree as static files only, as object storage serves it: no search endpoint.
    statics = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
      const file = join(fixture.dist, path);
      if (!path.startsWith('api/') || path.includes('..') || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(file));
    });
    odd = createServer((req, res) => {
      if (req.url?.startsWith('/broken/api/v1/search')) return void res.writeHead(503).end();
      if (req.url?.startsWith('/shapeless/api/v1/search')) return void res.writeHead(200).end('{"total":1,"results":[{"id":"x"}]}');
      if (req.url?.startsWith('/hostile/api/v1/search')) return void res.writeHead(200).end(JSON.stringify({ query: 'x', total: 1, limit: 20, offset: 0, results: [{ id: 'x', version: '1.0.0', title: 'A\u001b]52;c;ZWNobyBoaQ==\u0007 title', score: 1 }] }));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => statics.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    staticBase = `http://127.0.0.1:${(statics.address() as AddressInfo).port}`;
    oddBase = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await api?.close();
    await new Promise((resolve) => statics?.close(resolve));
    await new Promise((resolve) => odd?.close(resolve));
  });

  const search = async (args: string[]): Promise<unknown> => {
    const result = await runCli(['search', ...args, '--json'], fixture.root);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as unknown;
  };

  it('answers as the built tree does, from the server and from the static files alone', async () => {
    for (const args of [['nexjs', 'app'], ['python', '--agent', 'cursor', '--has', 'rules'], ['--limit', '2', '--offset', '1'], ['fstapy']]) {
      const local = await search([...args, '--out', 'dist']);
      expect(await search([...args, '--from', `${api.url}/`]), `server, ${args.join(' ')}`).toEqual(local);
      expect(await search([...args, '--from', staticBase]), `static files, ${args.join(' ')}`).toEqual(local);
    }
  });

  it('names the address and what was expected when the catalogue answers badly', async () => {
    const broken = await runCli(['search', 'x', '--from', `${oddBase}/broken`], fixture.root);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${oddBase}/broken/api/v1/search?q=x answered HTTP 503 (expected 200, or 404 from a catalogue without a server)`);
    const shapeless = await runCli(['search', 'x', '--from', `${oddBase}/shapeless`], fixture.root);
    expect(shapeless.code).toBe(1);
    expect(shapeless.stderr).toContain('results[0].version is not a string');
    const schemeless = await runCli(['search', 'x', '--from', '127.0.0.1:18100'], fixture.root);
    expect(schemeless.code).toBe(2);
    expect(schemeless.stderr).toContain('--from is "127.0.0.1:18100": a host and port without a scheme (expected a base URL such as http://127.0.0.1:18100');
    const none = await runCli(['search', 'x', '--from', `${oddBase}/nothing`], fixture.root);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${oddBase}/nothing has no search`);
  });

  it("shows a remote catalogue's text with terminal controls escaped", async () => {
    const result = await runCli(['search', 'x', '--from', `${oddBase}/hostile`], fixture.root);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('A\\u{1b}]52;c;ZWNobyBoaQ==\\u{7} title');
  });
});
