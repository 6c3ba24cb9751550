/**
 * jsonDocumentPieces: the pieces of a document joined are what `writeJson` writes
 * (`JSON.stringify(value, null, 2)` and a newline), for any JSON value and depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDocumentPieces, RUN } from '../../../src/tree/write/json-pieces.js';

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

  it('makes the elements of a list below the top object a run of at most RUN at a time, each run in one piece', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `loadout-${i}`, tags: ['a', 'b'], nested: { x: i } }));
    const pieces = [...jsonDocumentPieces({ total: rows.length, loadouts: rows })];
    expect(pieces.join('')).toBe(whole({ total: rows.length, loadouts: rows }));
    const rowsIn = pieces.map((p) => p.split('"id": ').length - 1);
    expect(Math.max(...rowsIn)).toBe(RUN);
    expect(rowsIn.filter((n) => n > 0)).toHaveLength(Math.ceil(rows.length / RUN));
  });

  it('joins to the same text for lists and objects longer than a run, at every depth, their members of every kind', () => {
    // fc.jsonValue's arrays and objects are short: these reach past one run and end at its edges.
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant([]), fc.constant({}));
    // An element left out of JSON is null in a list; a member left out would shorten the object below a run's edge.
    const element = fc.oneof(value, fc.constant(undefined));
    const length = fc.constantFrom(1, RUN - 1, RUN, RUN + 1, 2 * RUN, 2 * RUN + 1);
    const key = fc.oneof(fc.string(), fc.nat().map(String), fc.constant('__proto__'));
    const long = fc.oneof(
      length.chain((n) => fc.array(element, { minLength: n, maxLength: n })),
      length.chain((n) => fc.tuple(fc.uniqueArray(key, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n }))).map(([keys, values]) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))),
    );
    const nested = fc.tuple(long, fc.integer({ min: 0, max: 3 })).map(([inner, wraps]) => {
      let value: unknown = inner;
      for (let i = 0; i < wraps; i++) value = i % 2 === 0 ? { list: value, n: i } : [value, i];
      return value;
    });
    fc.assert(
      fc.property(nested, fc.integer({ min: 0, max: 5 }), (value, depth) => {
        expect([...jsonDocumentPieces(value, depth)].join('')).toBe(whole(value));
      }),
      { numRuns: 300 },
    );
  });
});
