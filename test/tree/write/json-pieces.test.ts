/**
 * jsonDocumentPieces: the pieces of a document joined are what `writeJson` writes
 * (`JSON.stringify(value, null, 2)` and a newline), for any JSON value and depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDocumentPieces } from '../../../src/tree/write/json-pieces.js';

const whole = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('jsonDocumentPieces', () => {
  it('joins to the text JSON.stringify(value, null, 2) gives, with a newline, for any JSON value and depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, depth) => {
        expect([...jsonDocumentPieces(value, depth)].join('')).toBe(whole(value));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out members JSON.stringify leaves out, writes null for such elements, and makes an object with toJSON whole', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, 1], e: new Date(0), f: {}, g: [], h: 'line\nbreak', i: NaN };
    expect([...jsonDocumentPieces(value, 3)].join('')).toBe(whole(value));
    expect(() => [...jsonDocumentPieces({ big: 1n })]).toThrow(TypeError);
  });

  it('makes each element of a list below the top object its own piece', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `loadout-${i}`, tags: ['a', 'b'], nested: { x: i } }));
    const pieces = [...jsonDocumentPieces({ total: rows.length, loadouts: rows })];
    expect(pieces.join('')).toBe(whole({ total: rows.length, loadouts: rows }));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(200);
  });
});
