import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(result.stderr).toBe('loadout: --has is "tests" (expected one of skills, mcp, rules); --limit is "0" (expected an integer from 1 to 50)\n');
  });

  it('exits 1 with a hint when the tree has no index', async () => {
    const result = await runCli(['search', 'x', '--out', 'missing'], fixture.root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('missing/api/search-index.json is missing');
    expect(result.stderr).toContain('hint: Run `loadout build` first.');
  });
});
