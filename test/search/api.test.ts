import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { buildFixtureCatalogue, FIXTURE_IDS, type FixtureCatalogue } from './fixture.js';

let fixture: FixtureCatalogue;
let server: RunningServer;

beforeAll(async () => {
  fixture = await buildFixtureCatalogue();
  const routes = await loadSearchAndMcpRoutes(fixture.dist, fixture.baseUrl);
  const app = createApp({ routes, distDir: fixture.dist, baseUrl: fixture.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
  server = await listen(app, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  fixture?.remove();
});

const get = (qs: string, init?: RequestInit): Promise<Response> => fetch(`${server.url}/api/v1/search${qs}`, init);

describe('GET /api/v1/search', () => {
  it('answers ranked results in the DESIGN.md shape, with CORS for any origin', async () => {
    const response = await get('?q=nexjs&limit=1', { headers: { origin: 'https://elsewhere.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { query: string; total: number; limit: number; offset: number; results: { id: string; score: number }[] };
    expect(body).toMatchObject({ query: 'nexjs', total: 2, limit: 1, offset: 0 });
    expect(body.results.map((r) => r.id)).toEqual(['nextjs-app-router']);
    expect(body.results[0]?.score).toBeGreaterThan(0);
  });

  it('finds a word with two adjacent letters swapped (pyhton), as it finds one with a letter missing (pyton)', async () => {
    const ids = async (q: string): Promise<string[]> => ((await (await get(`?q=${q}`)).json()) as { results: { id: string }[] }).results.map((r) => r.id);
    const exact = await ids('python');
    expect(exact.length).toBeGreaterThan(0);
    expect(await ids('pyhton')).toEqual(exact);
    expect(await ids('pyton')).toEqual(exact);
    expect(await ids('ptyhon')).toEqual(exact);
  });

  it('suggests up to three close ids, stacks or categories when nothing matches, and only then', async () => {
    const none = (await (await get('?q=fstapy')).json()) as { total: number; results: unknown[]; suggestions: { kind: string; value: string }[] };
    expect(none).toMatchObject({ total: 0, results: [], suggestions: [{ kind: 'stack', value: 'fastapi' }] });
    const far = (await (await get('?q=kubernetes')).json()) as { suggestions: unknown[] };
    expect(far.suggestions).toEqual([]);
    expect(Object.keys((await (await get('?q=fastapi')).json()) as object)).toEqual(['query', 'total', 'limit', 'offset', 'results']);
    expect(Object.keys((await (await get('?tags=no-such-stack')).json()) as object)).not.toContain('suggestions');
  });

  it('lists every loadout in a stable order when q is empty or absent', async () => {
    const a = (await (await get('?limit=50')).json()) as { total: number; results: { id: string }[] };
    const b = (await (await get('?q=&limit=50')).json()) as { results: { id: string }[] };
    expect(a.total).toBe(FIXTURE_IDS.length);
    expect(a.results.map((r) => r.id)).toEqual(b.results.map((r) => r.id));
    expect(a.results[0]?.id).toBe('nextjs-app-router');
  });

  it('applies the filters from the query string', async () => {
    const body = (await (await get('?agent=cursor&tags=python&has=rules&category=web-app&verified=true')).json()) as { results: { id: string }[] };
    expect(body.results.map((r) => r.id)).toEqual(['fastapi-service']);
  });

  it('filters on the capability list: runs=something, runs=nothing, has=hooks and has=scripts (issue 54)', async () => {
    const ids = async (qs: string): Promise<string[]> => ((await (await get(`${qs}&limit=50`)).json()) as { results: { id: string }[] }).results.map((r) => r.id);
    // The fixture's one MCP server is the only thing any of its loadouts runs.
    expect(await ids('?runs=something')).toEqual(['dbt-analytics']);
    const nothing = await ids('?runs=nothing');
    expect([...nothing].sort()).toEqual(FIXTURE_IDS.filter((id) => id !== 'dbt-analytics').sort());
    expect(await ids('?q=postgres&runs=nothing')).not.toContain('dbt-analytics');
    expect(await ids('?has=hooks')).toEqual([]);
    expect(await ids('?has=scripts')).toEqual([]);
    const dbt = ((await (await get('?q=dbt&limit=1')).json()) as { results: { capabilities: unknown }[] }).results[0];
    expect(dbt?.capabilities).toEqual({ runs: 'something', hooks: 0, scripts: 0 });
  });

  it.each(['title:foo^10~', '*', '"', '"nextjs', 'a AND b', '%', '\\'])('never fails on q=%s', async (q) => {
    const response = await get(`?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(200);
  });

  it.each([
    ['?limit=0', 'limit', 'expected an integer from 1 to 50'],
    ['?limit=51', 'limit', 'expected an integer from 1 to 50'],
    ['?limit=2.5', 'limit', 'expected an integer from 1 to 50'],
    ['?offset=-1', 'offset', 'expected an integer from 0 to 100000'],
    ['?agent=vim', 'agent', 'expected one of claude-code'],
    ['?category=games', 'category', 'expected one of web-app'],
    ['?has=tests', 'has', 'expected one of skills, mcp, rules, hooks, scripts'],
    ['?verified=1', 'verified', 'expected one of true, false'],
    ['?runs=maybe', 'runs', 'expected one of nothing, something'],
    ['?runs=', 'runs', 'expected one of nothing, something'],
    ['?tags=Not%20A%20Slug', 'tags', 'expected comma-separated stacks and categories'],
    ['?query=react', 'query', '"query" is not a search parameter (expected only q, agent, tags, category, verified, has, runs, max_always_tokens, limit, offset)'],
  ])('%s is a 400 problem naming %s', async (qs, parameter, expected) => {
    const response = await get(qs);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/u);
    const problem = (await response.json()) as { status: number; code: string; detail: string; errors: { pointer: string; message: string }[] };
    expect(problem).toMatchObject({ status: 400, code: 'bad_parameter', title: 'Bad parameter' });
    expect(problem.detail).toContain(parameter);
    expect(problem.detail).toContain(expected);
    expect(problem.errors).toEqual([{ pointer: `/query/${parameter}`, message: problem.detail }]);
  });

  it('refuses an unknown parameter instead of listing every loadout, its pointer escaped (RFC 6901)', async () => {
    const response = await get('?q=react&a%2Fb~c=1');
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { pointer: string; message: string }[] };
    expect(problem.errors).toEqual([{ pointer: '/query/a~1b~0c', message: expect.stringContaining('"a/b~c" is not a search parameter (expected only q, agent,') as unknown as string }]);
  });

  it('lists one error per bad parameter', async () => {
    const problem = (await (await get('?limit=0&offset=-1&has=x')).json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((e) => e.pointer)).toEqual(['/query/has', '/query/limit', '/query/offset']);
  });

  it('answers 405 for other methods', async () => {
    const response = await get('', { method: 'POST' });
    expect(response.status).toBe(405);
  });
});

describe('the built tree', () => {
  it('serves the index, the skills document and the pages scripts', async () => {
    const index = (await (await fetch(`${server.url}/api/search-index.json`)).json()) as { format: string; documents: unknown[] };
    expect(index.format).toBe('loadout-search-index/1');
    expect(index.documents).toHaveLength(FIXTURE_IDS.length);
    const skills = (await (await fetch(`${server.url}/api/skills.json`)).json()) as { skills: { loadout: string; skill: string }[] };
    expect(skills.skills.map((s) => `${s.loadout}/${s.skill}`)).toContain('nextjs-app-router/add-route');
    for (const path of ['/assets/minisearch.js', '/assets/search.js']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/javascript/u);
    }
  });
});
