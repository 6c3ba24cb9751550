import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMIT, fromRecord, fromSearchParams, parseSearchParameters } from '../../src/search/query.js';

const parse = (qs: string) => parseSearchParameters(fromSearchParams(new URLSearchParams(qs)));

describe('parseSearchParameters', () => {
  it('gives the defaults: empty q, limit 20, offset 0, no filters', () => {
    expect(parse('')).toEqual({ query: { q: '', tags: [], limit: DEFAULT_LIMIT, offset: 0 }, errors: [] });
  });

  it('reads every parameter of the spec', () => {
    const { query, errors } = parse('q=+next+js+&agent=cursor&tags=react,%20typescript,react&category=web-app&verified=false&has=skills&limit=50&offset=7');
    expect(errors).toEqual([]);
    expect(query).toEqual({ q: 'next js', agent: 'cursor', tags: ['react', 'typescript'], category: 'web-app', verified: false, has: 'skills', limit: 50, offset: 7 });
    expect(parse('agent=antigravity-cli&verified=true&limit=1').query).toMatchObject({ agent: 'antigravity-cli', verified: true, limit: 1 });
  });

  it.each([
    ['limit=0', 'limit', 'limit is "0" (expected an integer from 1 to 50)'],
    ['limit=51', 'limit', 'limit is "51" (expected an integer from 1 to 50)'],
    ['limit=1.5', 'limit', 'limit is "1.5" (expected an integer from 1 to 50)'],
    ['limit=ten', 'limit', 'limit is "ten" (expected an integer from 1 to 50)'],
    ['limit=', 'limit', 'limit is "" (expected an integer from 1 to 50)'],
    ['limit=1e1', 'limit', 'limit is "1e1" (expected an integer from 1 to 50)'],
    ['offset=-1', 'offset', 'offset is "-1" (expected an integer from 0 to 100000)'],
    ['offset=x', 'offset', 'offset is "x" (expected an integer from 0 to 100000)'],
    ['agent=vim', 'agent', 'agent is "vim" (expected one of claude-code, codex, cursor, gemini-cli, copilot, antigravity-cli)'],
    ['category=games', 'category', 'category is "games" (expected one of web-app, gamedev, security, bots, browser-extension, data, workflow, ai-agents)'],
    ['has=tests', 'has', 'has is "tests" (expected one of skills, mcp, rules, hooks, scripts)'],
    ['verified=yes', 'verified', 'verified is "yes" (expected one of true, false)'],
    ['verified=TRUE', 'verified', 'verified is "TRUE" (expected one of true, false)'],
    ['tags=React', 'tags', 'tags is "React" (expected comma-separated stacks and categories, each a lowercase slug such as nextjs or web-app)'],
    ['limit=5&limit=6', 'limit', 'limit is given 2 times (expected it at most once)'],
    [`q=${'a'.repeat(201)}`, 'q', 'q is 201 characters long (expected at most 200)'],
  ])('%s is an error naming %s', (qs, parameter, message) => {
    expect(parse(qs)).toEqual({ errors: [{ parameter, message }] });
  });

  it('reports every bad parameter at once; unknown names only when the names are given', () => {
    const { errors } = parse('limit=0&offset=-2&agent=x&unknown=1');
    expect(errors.map((e) => e.parameter)).toEqual(['agent', 'limit', 'offset']);
    const params = new URLSearchParams('query=react&limit=0&query=vue&Q=x');
    expect(parseSearchParameters(fromSearchParams(params), params.keys()).errors).toEqual([
      { parameter: 'query', message: '"query" is not a search parameter (expected only q, agent, tags, category, verified, has, runs, max_always_tokens, limit, offset)' },
      { parameter: 'Q', message: '"Q" is not a search parameter (expected only q, agent, tags, category, verified, has, runs, max_always_tokens, limit, offset)' },
      { parameter: 'limit', message: 'limit is "0" (expected an integer from 1 to 50)' },
    ]);
    const known = new URLSearchParams('q=react&limit=5');
    expect(parseSearchParameters(fromSearchParams(known), known.keys()).errors).toEqual([]);
  });

  it('reads the CLI flags the same way', () => {
    expect(parseSearchParameters(fromRecord({ q: 'x', limit: '3', tags: 'a,b' })).query).toEqual({ q: 'x', tags: ['a', 'b'], limit: 3, offset: 0 });
  });
});
