import { describe, expect, it } from 'vitest';
import { blankRanges, findCodeSpans } from '../../src/catalogue/markdown.js';

const spans = (text: string): string[] => findCodeSpans(text).map((r) => text.slice(r.start, r.end));

describe('findCodeSpans (CommonMark 0.31 section 6.1)', () => {
  it('closes a run with the next run of the same length', () => {
    expect(spans('run `npm test` and ``a ` b`` then `x`')).toEqual(['`npm test`', '``a ` b``', '`x`']);
    expect(spans('`a`` b`')).toEqual(['`a`` b`']);
  });

  it('leaves a run without a closer as literal text, and goes on after it', () => {
    expect(spans('``x` and `y`')).toEqual(['` and `']);
    expect(spans('a ` alone')).toEqual([]);
  });

  it('does not let a span cross a blank line', () => {
    expect(spans('`open\n\nclose` then `ok`')).toEqual(['` then `']);
    expect(spans('`one\nline`')).toEqual(['`one\nline`']);
  });
});

describe('blankRanges', () => {
  it('blanks ranges in any order and keeps line breaks and offsets', () => {
    const text = 'ab\ncd\nef';
    expect(blankRanges(text, [{ start: 4, end: 7 }, { start: 1, end: 3 }])).toBe('a \nc \n f');
    expect(blankRanges(text, [])).toBe(text);
  });
});
