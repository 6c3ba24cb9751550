import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { frontMatterYaml, simpleYaml } from '../../src/catalogue/front-matter-yaml.js';

/** The reference: what the `yaml` library writes (the rule translation wrote this before). */
const byLibrary = (data: Record<string, unknown>): string => stringify(data, { lineWidth: 0 });

/** Characters that decide a scalar's style: indicators, quotes, escapes, spaces, line breaks, non-ASCII. */
const CHARACTERS = [...'aZy0 1:#-?*/.,[]{}&!|>\'"%@`~\\\t\n+=_', 'é', '\u0085', '\u00a0', '\u2028'];
/** Strings the core schema or the plain style treat specially. */
const CORNERS = ['true', 'True', 'FALSE', 'null', 'Null', 'No', 'yes', 'on', 'y', '1.5', '0x1F', '0o7', '.inf', '.NaN', '~', '', '-', '?', '---', '...', '--- a', '- a', '? b', 'a: b', 'a #b', 'a#b', 'a:b', 'a:', 'a ', ' a', '1e3', '+1', '.5', '-1', '**', '**/*.ts', 'src/**/*.ts', '*.md', '@scope', '`x`', '%x', 'a  b', 'x'.repeat(130)];

const tricky = fc.oneof(fc.constantFrom(...CORNERS), fc.string({ unit: fc.constantFrom(...CHARACTERS), maxLength: 10 }));
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('description', 'globs', 'alwaysApply', 'applyTo', 'paths', 'trigger', 'excludeAgent', 'name', 'a-b', '_x', 'x1') },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('true', 'Null', 'y', '1', 'a b', 'a:', '-', '', 'k'.repeat(70), 'é'), tricky) },
);
const value = fc.oneof(
  { weight: 4, arbitrary: tricky },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constantFrom(-0, 0.5, 1e21, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -7)) },
  { weight: 2, arbitrary: fc.array(tricky, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.boolean(), fc.integer()), { minLength: 1, maxLength: 2 }), fc.dictionary(fc.constantFrom('a', 'b'), tricky, { maxKeys: 2 })) },
);
/** Front matter as the rule translation writes it: its scoping keys, words, globs and lists of globs. */
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ./*,()_-]{0,20}$/u);
const glob = fc.oneof(word, fc.constantFrom('**', '**/*.ts', 'src/**/*.tsx', '*.md', 'docs/**', 'a.ts,b.ts'));
const usual = fc.record({ description: word, globs: glob, alwaysApply: fc.boolean(), paths: fc.array(glob, { minLength: 1, maxLength: 3 }), trigger: fc.constantFrom('always_on', 'glob', 'model_decision', 'manual') }, { requiredKeys: [] });

describe('frontMatterYaml', () => {
  it('writes what the yaml library writes, and writes it itself wherever it does (4,000 runs; a failure prints the mapping to replay)', () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), (data) => {
        const own = simpleYaml(data);
        if (own !== undefined) {
          fast++;
          expect(own).toBe(byLibrary(data));
        }
        expect(frontMatterYaml(data)).toBe(byLibrary(data));
      }),
      { numRuns: 4000 },
    );
    // The property above would hold with no fast path at all: it must be taken often enough to be tested.
    expect(fast).toBeGreaterThan(400);
  });

  it('writes the translation’s usual front matter itself, as the library does (2,000 runs)', () => {
    fc.assert(
      fc.property(usual, (data) => {
        expect(simpleYaml(data)).toBe(byLibrary(data));
      }),
      { numRuns: 2000 },
    );
  });

  it('styles the usual keys of each agent as the library does', () => {
    expect(frontMatterYaml({ description: 'Style rules', globs: 'src/**/*.ts,**/*.tsx', alwaysApply: false })).toBe('description: Style rules\nglobs: src/**/*.ts,**/*.tsx\nalwaysApply: false\n');
    expect(frontMatterYaml({ applyTo: '**' })).toBe('applyTo: "**"\n');
    expect(frontMatterYaml({ paths: ['**/*.ts', 'docs/a.md'] })).toBe('paths:\n  - "**/*.ts"\n  - docs/a.md\n');
    expect(frontMatterYaml({ trigger: 'always_on' })).toBe('trigger: always_on\n');
    expect(frontMatterYaml({})).toBe('{}\n');
  });

  it('leaves to the library what it does not decide, and the library writes it', () => {
    for (const data of [{ a: '1.5' }, { a: 'it’s' }, { a: 'say "hi"' }, { a: 'two\nlines' }, { a: null }, { a: { b: 'c' } }, { a: [] }, { a: 0.5 }, { true: 'x' }, { 'a b': 'x' }]) {
      expect(simpleYaml(data), JSON.stringify(data)).toBeUndefined();
      expect(frontMatterYaml(data)).toBe(byLibrary(data));
    }
  });
});
