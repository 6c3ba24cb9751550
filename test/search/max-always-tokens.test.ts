/**
 * The `max_always_tokens` search filter (DESIGN.md section 8, context cost) in the API, the CLI
 * and the MCP tool, on the fixture catalogue served as `loadout serve` serves it: a loadout is
 * kept when the tokens loaded at every session start are at most the value, for `agent` when
 * given, or for every agent the loadout supports. The expected ids come from the records'
 * `context`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedRecord } from '../../src/tree-format/index.js';
import { PUBLISHED_AGENTS, type Agent } from '../../src/catalogue/vocabulary.js';
import { runCli } from '../helpers/cli.js';
import { startFixtureServer, type FixtureServer } from '../mcp/fixture-server.js';
import { FIXTURE_IDS } from './fixture.js';

let running: FixtureServer;
let records: PublishedRecord[];
beforeAll(async () => {
  running = await startFixtureServer();
  records = FIXTURE_IDS.map((id) => JSON.parse(readFileSync(join(running.fixture.dist, `api/loadouts/${id}.json`), 'utf8')) as PublishedRecord);
});
afterAll(async () => {
  await running?.close();
});

/** The largest `always` tokens over the agents a record supports (or of `agent`). */
const alwaysOf = (r: PublishedRecord, agent?: Agent): number => Math.max(...(agent === undefined ? PUBLISHED_AGENTS.filter((a) => r.compatibility[a] !== 'unsupported') : [agent]).map((a) => r.context[a].always.tokens));
/** A threshold that keeps some loadouts and drops others: the median of `alwaysOf`. */
const threshold = (agent?: Agent): number => {
  const values = records.map((r) => alwaysOf(r, agent)).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? 0;
};
const expectedIds = (max: number, agent?: Agent): string[] =>
  records.filter((r) => (agent === undefined || r.compatibility[agent] !== 'unsupported') && alwaysOf(r, agent) <= max).map((r) => r.id).sort();

const search = async (qs: string): Promise<{ status: number; body: { total: number; results: { id: string; always_tokens: Record<string, number> }[]; errors?: { pointer: string; message: string }[] } }> => {
  const response = await fetch(`${running.server.url}/api/v1/search${qs}`);
  return { status: response.status, body: (await response.json()) as never };
};

describe('max_always_tokens', () => {
  it('GET /api/v1/search keeps the loadouts that fit, for every supported agent or for the agent given', async () => {
    const max = threshold();
    const all = expectedIds(max);
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThan(records.length);
    const { status, body } = await search(`?max_always_tokens=${max}&limit=50`);
    expect(status).toBe(200);
    expect(body.results.map((r) => r.id).sort()).toEqual(all);
    expect(body.total).toBe(all.length);

    const cursorMax = threshold('cursor');
    const cursor = await search(`?max_always_tokens=${cursorMax}&agent=cursor&limit=50`);
    expect(cursor.body.results.map((r) => r.id).sort()).toEqual(expectedIds(cursorMax, 'cursor'));
    // Ranked queries filter the same way.
    const ranked = await search(`?q=typescript&max_always_tokens=${max}&limit=50`);
    expect(ranked.body.results.every((r) => all.includes(r.id))).toBe(true);
    expect((await search('?max_always_tokens=0&limit=50')).body.total).toBe(0);
  });

  it('results carry always_tokens per agent, from the record', async () => {
    const { body } = await search('?limit=50');
    for (const result of body.results) {
      const record = records.find((r) => r.id === result.id);
      expect(result.always_tokens).toEqual(Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, record?.context[a].always.tokens])));
    }
  });

  it('a bad value is a 400 bad_parameter naming the parameter', async () => {
    for (const value of ['-1', 'many', '10000001', '1.5']) {
      const { status, body } = await search(`?max_always_tokens=${value}`);
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ pointer: '/query/max_always_tokens', message: `max_always_tokens is ${JSON.stringify(value)} (expected an integer from 0 to 10000000)` }]);
    }
  });

  it('loadout search --max-always-tokens gives the same answer, and names the flag when it is bad', async () => {
    const max = threshold();
    const cli = await runCli(['search', '--max-always-tokens', String(max), '--limit', '50', '--json', '--out', running.fixture.dist], running.fixture.root);
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { results: { id: string }[] }).results.map((r) => r.id).sort()).toEqual(expectedIds(max));
    const bad = await runCli(['search', '--max-always-tokens', 'lots', '--out', running.fixture.dist], running.fixture.root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-always-tokens is "lots" (expected an integer from 0 to 10000000)');
  });

  it('the MCP tool search_loadouts takes max_always_tokens', async () => {
    const client = await running.connect();
    const max = threshold('claude-code');
    const result = (await client.callTool({ name: 'search_loadouts', arguments: { max_always_tokens: max, agent: 'claude-code', limit: 50 } })) as CallToolResult;
    expect(result.isError).not.toBe(true);
    const ids = (result.structuredContent as { results: { id: string }[] }).results.map((r) => r.id).sort();
    expect(ids).toEqual(expectedIds(max, 'claude-code'));
  });
});
