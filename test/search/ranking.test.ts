import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSearchEngine, type SearchEngine } from '../../src/search/engine.js';
import { fromRecord, parseSearchParameters, type SearchQuery } from '../../src/search/query.js';
import { buildFixtureCatalogue, FIXTURE_IDS, type FixtureCatalogue } from './fixture.js';

let fixture: FixtureCatalogue;
let engine: SearchEngine;

beforeAll(async () => {
  fixture = await buildFixtureCatalogue();
  engine = await loadSearchEngine(fixture.dist);
});
afterAll(() => fixture?.remove());

const query = (params: Record<string, string>): SearchQuery => {
  const { query: q, errors } = parseSearchParameters(fromRecord(params));
  expect(errors).toEqual([]);
  return q as SearchQuery;
};
const ids = (q: string, params: Record<string, string> = {}): string[] => engine.search(query({ q, limit: '50', ...params })).results.map((r) => r.id);

describe('ranking on the fixture catalogue', () => {
  it.each([
    // [query, the ids expected first, in this order]
    ['nextjs', ['nextjs-app-router', 'nextjs-pages-legacy']],
    ['nexjs', ['nextjs-app-router', 'nextjs-pages-legacy']], // typo: one missing letter
    ['next.js', ['nextjs-app-router', 'nextjs-pages-legacy']], // dotted name = joined slug
    ['fastapi', ['fastapi-service']],
    ['fastap', ['fastapi-service']], // prefix, as the user types
    ['fastpi', ['fastapi-service']], // typo
    ['tail', ['tailwind-design-system']], // prefix
    ['django rest api', ['django-rest', 'fastapi-service']],
    ['unty', ['unity-csharp']], // typo
    ['discord bot', ['discord-bot-ts']],
    ['chrome extension', ['chrome-extension-mv3']],
    ['security review', ['secure-code-review']],
    ['postgres analytics', ['dbt-analytics']], // prefix of postgresql
    ['react', ['react-vite-spa', 'nextjs-app-router', 'nextjs-pages-legacy']],
    ['game', ['godot-gdscript', 'unity-csharp']], // "Game" in a title beats the prefix of "gameplay"
    ['model context protocol', ['mcp-server-builder']],
    ['langchain agnts', ['langchain-agents']], // typo in the second word
  ])('%s ranks %j first', (q, expected) => {
    expect(ids(q).slice(0, expected.length)).toEqual(expected);
  });

  it('finds a loadout by a skill name and by a file description', () => {
    expect(ids('threat model')[0]).toBe('secure-code-review');
    expect(ids('add-endpoint')[0]).toBe('fastapi-service');
  });

  it('ranks featured up and deprecated down between look-alikes whose text is the same', () => {
    expect(ids('svelte')).toEqual(['svelte-kit-b', 'svelte-kit-a']); // b is featured
    expect(ids('vue starter')).toEqual(['vue-starter-b', 'vue-starter-a']); // a is deprecated
    const [b, a] = engine.search(query({ q: 'vue' })).results;
    expect((b?.score ?? 0) / (a?.score ?? 1)).toBeGreaterThan(2);
  });

  it('lists every loadout for an empty query: featured, then updated (newest first), then id', () => {
    const all = ids('');
    expect(all).toHaveLength(FIXTURE_IDS.length);
    expect(all).toEqual([
      'nextjs-app-router', 'secure-code-review', 'svelte-kit-b', // featured, newest first
      'react-vite-spa', 'mcp-server-builder', 'fastapi-service', 'tailwind-design-system', 'dbt-analytics', 'django-rest', 'godot-gdscript',
      'unity-csharp', 'discord-bot-ts', 'chrome-extension-mv3', 'github-actions-ci', 'langchain-agents',
      'svelte-kit-a', 'vue-starter-a', 'vue-starter-b', // same date: by id
      'nextjs-pages-legacy',
    ]);
    expect(ids('   ')).toEqual(all);
  });

  it('treats query syntax of other engines as plain text', () => {
    expect(ids('"nextjs"')).toEqual(ids('nextjs'));
    expect(ids('nextjs^10~')).toEqual(ids('nextjs 10'));
    expect(ids('stacks:python')).toEqual(ids('stacks python'));
    expect(ids('title:foo^10~')).toEqual(ids('title foo 10'));
    expect(ids('+react -vite')).toEqual(ids('react vite'));
    expect(ids('*')).toEqual([]); // not a wildcard
    expect(ids('"')).toEqual([]);
    expect(ids('fast*')).toEqual(ids('fast'));
    for (const q of ['(', ')', '[', ']', '{', '}', '\\', '~1', '^', ':', '?', '!', 'AND OR NOT', '\u0000', '🙂', 'a'.repeat(200)]) {
      expect(() => engine.search(query({ q }))).not.toThrow();
    }
  });

  it('applies every filter, combined with AND', () => {
    expect(ids('python')).toEqual(expect.arrayContaining(['fastapi-service', 'django-rest', 'langchain-agents']));
    expect(ids('python', { agent: 'cursor' })).not.toContain('langchain-agents');
    expect(ids('python', { agent: 'codex' })).toContain('langchain-agents');
    expect(ids('', { tags: 'python,web-app' }).sort()).toEqual(['django-rest', 'fastapi-service']);
    expect(ids('', { tags: 'react' }).sort()).toEqual(['nextjs-app-router', 'nextjs-pages-legacy', 'react-vite-spa']);
    expect(ids('', { tags: 'no-such-stack' })).toEqual([]);
    expect(ids('', { category: 'gamedev' }).sort()).toEqual(['godot-gdscript', 'unity-csharp']);
    expect(ids('', { has: 'mcp' })).toEqual(['dbt-analytics']);
    expect(ids('', { has: 'skills' }).sort()).toEqual(['fastapi-service', 'godot-gdscript', 'mcp-server-builder', 'nextjs-app-router', 'secure-code-review']);
    expect(ids('', { has: 'rules' }).sort()).toEqual(['fastapi-service', 'nextjs-app-router', 'tailwind-design-system']);
    expect(ids('', { verified: 'true' })).toHaveLength(FIXTURE_IDS.length);
    expect(ids('', { verified: 'false' })).toEqual([]);
    expect(ids('app', { category: 'web-app', tags: 'svelte', has: 'skills' })).toEqual([]);
  });

  it('pages with limit and offset over a stable order', () => {
    const all = ids('');
    const first = engine.search(query({ q: '', limit: '5' }));
    const second = engine.search(query({ q: '', limit: '5', offset: '5' }));
    expect(first.total).toBe(FIXTURE_IDS.length);
    expect([...first.results, ...second.results].map((r) => r.id)).toEqual(all.slice(0, 10));
    expect(engine.search(query({ q: '', offset: '1000' })).results).toEqual([]);
  });

  it('returns the result shape of DESIGN.md section 5', () => {
    const response = engine.search(query({ q: 'nextjs', limit: '1' }));
    expect(Object.keys(response)).toEqual(['query', 'total', 'limit', 'offset', 'results']);
    expect(response).toMatchObject({ query: 'nextjs', total: 2, limit: 1, offset: 0 });
    const [result] = response.results;
    expect(Object.keys(result ?? {})).toEqual(['id', 'title', 'summary', 'version', 'score', 'categories', 'stacks', 'compatibility', 'counts', 'always_tokens', 'capabilities', 'verified', 'featured', 'deprecated', 'updated', 'url', 'api_url']);
    expect(result).toMatchObject({ id: 'nextjs-app-router', version: '1.1.0', featured: true, verified: true, counts: { rules: 1, skills: 1, mcp: 0 }, url: 'http://localhost:8787/loadouts/nextjs-app-router/', api_url: 'http://localhost:8787/api/loadouts/nextjs-app-router.json' });
  });
});

describe('the ranking cache', () => {
  const QUERIES = ['nextjs', 'nexjs', 'fastap', 'security review', 'godot game', 'tail', 'react testing', 'python'];
  const FILTERS: Record<string, string>[] = [{}, { agent: 'cursor' }, { has: 'skills' }, { limit: '3', offset: '1' }];

  it('answers repeated searches exactly as an engine without a cache', async () => {
    const uncached = await loadSearchEngine(fixture.dist, { cacheMatches: 0 });
    for (const q of QUERIES) {
      for (const filters of FILTERS) {
        const expected = uncached.search(query({ q, ...filters }));
        // A search is kept the second time it is made, and answered from the cache from the third.
        for (let round = 0; round < 3; round++) {
          expect(engine.search(query({ q, ...filters })), `${q} ${JSON.stringify(filters)}`).toEqual(expected);
          expect(engine.search(query({ q: ` ${q.toUpperCase()} `, ...filters })).results).toEqual(expected.results);
        }
      }
    }
  });

  it('writes the same JSON text as JSON.stringify of the answer', () => {
    for (const q of [...QUERIES, '', 'quote " and \\ backslash', 'ünïcödé ☃']) {
      for (const filters of FILTERS) {
        const checked = query({ q, ...filters });
        expect(engine.searchJson(checked), `${q} ${JSON.stringify(filters)}`).toBe(JSON.stringify(engine.search(checked)));
      }
    }
  });

  it('stays right when its budget forces evictions', async () => {
    const small = await loadSearchEngine(fixture.dist, { cacheMatches: 3 });
    const uncached = await loadSearchEngine(fixture.dist, { cacheMatches: 0 });
    for (let round = 0; round < 3; round++) {
      for (const q of QUERIES) expect(small.search(query({ q })), q).toEqual(uncached.search(query({ q })));
    }
  });
});
