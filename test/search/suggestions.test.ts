/**
 * "Did you mean": the closest ids, stacks and categories to a query that found nothing.
 */
import { describe, expect, it } from 'vitest';
import { suggestSearches, type Suggestion } from '../../src/search/suggestions.js';

const CANDIDATES: Suggestion[] = [
  { kind: 'id', value: 'nextjs-app-router' },
  { kind: 'id', value: 'fastapi-service' },
  { kind: 'stack', value: 'fastapi' },
  { kind: 'stack', value: 'python' },
  { kind: 'stack', value: 'nextjs' },
  { kind: 'stack', value: 'react' },
  { kind: 'stack', value: 'preact' },
  { kind: 'category', value: 'security' },
  { kind: 'category', value: 'web-app' },
];

describe('suggestSearches', () => {
  it('suggests the closest stack, id or category, fewest edits first', () => {
    expect(suggestSearches('fstapy', CANDIDATES, 3)).toEqual([{ kind: 'stack', value: 'fastapi' }]);
    // A word of the query (nxtjs: 1 edit) or the whole query as a slug (2 edits).
    expect(suggestSearches('nxtjs-app-ruter', CANDIDATES, 3)).toEqual([
      { kind: 'stack', value: 'nextjs' },
      { kind: 'id', value: 'nextjs-app-router' },
    ]);
    expect(suggestSearches('securty', CANDIDATES, 3)).toEqual([{ kind: 'category', value: 'security' }]);
    expect(suggestSearches('Web Ap', CANDIDATES, 3)).toEqual([{ kind: 'category', value: 'web-app' }]);
  });

  it('counts a swap of adjacent letters as one edit', () => {
    expect(suggestSearches('rceat', CANDIDATES, 3)).toEqual([{ kind: 'stack', value: 'react' }]);
  });

  it('gives at most `limit`, in order of edits then ids, stacks, categories, then value', () => {
    const many: Suggestion[] = ['abcd', 'abce', 'abcf', 'abcg'].map((value) => ({ kind: 'stack', value }));
    expect(suggestSearches('abcx', [...many, { kind: 'id', value: 'abcz' }], 3)).toEqual([
      { kind: 'id', value: 'abcz' },
      { kind: 'stack', value: 'abcd' },
      { kind: 'stack', value: 'abce' },
    ]);
    expect(suggestSearches('reat', CANDIDATES, 3).map((s) => s.value)).toEqual(['react']);
  });

  it('suggests nothing for what is far from everything, for an exact word, or for nothing typed', () => {
    expect(suggestSearches('kubernetes', CANDIDATES, 3)).toEqual([]);
    expect(suggestSearches('react', CANDIDATES, 3).map((s) => s.value)).toEqual(['preact']);
    expect(suggestSearches('  --  ', CANDIDATES, 3)).toEqual([]);
  });

  it('is self-contained, so its source can run in the pages', () => {
    const copy = new Function(`return (${suggestSearches.toString()});`)() as typeof suggestSearches;
    expect(copy('fstapy', CANDIDATES, 3)).toEqual(suggestSearches('fstapy', CANDIDATES, 3));
  });
});
