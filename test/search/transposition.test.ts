/**
 * A swapped pair of adjacent letters is one edit (Damerau): `addTranspositions` adds the
 * index's word to the query, weighted as a one-edit fuzzy match, for the server and the pages.
 */
import { describe, expect, it } from 'vitest';
import { addTranspositions } from '../../src/search/transposition.js';

const vocabulary = new Set(['python', 'react', 'rust', 'pytest']);
const known = (term: string): boolean => vocabulary.has(term);

describe('addTranspositions', () => {
  it('adds the known word one adjacent swap away, after the typo, weighted as one fuzzy edit', () => {
    const { terms, boosts } = addTranspositions(['pyhton', 'tests'], known, 4, 0.3);
    expect(terms).toEqual(['pyhton', 'python', 'tests']);
    expect(boosts).toEqual(new Map([['python', (0.3 * 6) / 7]]));
    // A swap at the first position too.
    expect(addTranspositions(['eract'], known, 4, 0.3).terms).toEqual(['eract', 'react']);
  });

  it('leaves known words, short words, two swaps and words the query already has alone', () => {
    expect(addTranspositions(['python', 'rsut'], known, 5, 0.3).terms).toEqual(['python', 'rsut']);
    expect(addTranspositions(['yphtno'], known, 4, 0.3).terms).toEqual(['yphtno']);
    const again = addTranspositions(['python', 'pyhton'], known, 4, 0.3);
    expect(again.terms).toEqual(['python', 'pyhton']);
    expect(again.boosts.size).toBe(0);
  });

  it('is self-contained, so its source can run in the pages', () => {
    const copy = new Function(`return (${addTranspositions.toString()});`)() as typeof addTranspositions;
    expect(copy(['pyhton'], known, 4, 0.3)).toEqual(addTranspositions(['pyhton'], known, 4, 0.3));
  });
});
