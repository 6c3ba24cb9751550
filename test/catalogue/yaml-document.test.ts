import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, parseDocument } from 'yaml';
import { parseYamlSource, readManifestVersion, readsAlike, readYamlValue } from '../../src/catalogue/yaml-document.js';
import { readFrontMatter } from '../../src/catalogue/front-matter.js';
import { readFrontMatterForInstall } from '../../src/catalogue/front-matter-data.js';

const LOADOUTS = fileURLToPath(new URL('../../loadouts', import.meta.url));

describe('parseYamlSource', () => {
  it('reads every real manifest exactly as the yaml library does', () => {
    for (const id of readdirSync(LOADOUTS)) {
      const text = readFileSync(join(LOADOUTS, id, 'loadout.yaml'), 'utf8');
      expect(parseYamlSource(text).data, id).toEqual(parseDocument(text).toJS());
    }
  });

  it('keeps YAML 1.2 core scalars: dates stay strings, yes stays a string, octal and nulls', () => {
    const { data, errors } = parseYamlSource('a: 2026-11-22\nb: yes\nc: 0o17\nd: ~\ne: null\nf: TRUE\ng: .inf\n');
    expect(errors).toEqual([]);
    expect(data).toEqual({ a: '2026-11-22', b: 'yes', c: 15, d: null, e: null, f: true, g: Infinity });
  });

  it('finds the line of a field after the fast parse', () => {
    const source = parseYamlSource('id: x\nfiles:\n  - path: a.md\n    role: rules\n  - path: b.md\n');
    expect(source.lineOf('/files/1/path')).toBe(5);
    expect(source.lineOf('/files/0/role')).toBe(4);
    expect(source.lineOf('/missing')).toBe(1);
  });

  it('reports syntax errors and duplicate keys with their lines', () => {
    expect(parseYamlSource('a: 1\nb: [1, 2\n').errors[0]?.line).toBeGreaterThanOrEqual(2);
    const duplicate = parseYamlSource('a: 1\nb: 2\na: 3\n');
    expect(duplicate.data).toBeUndefined();
    expect(duplicate.errors).toEqual([expect.objectContaining({ line: 3, message: expect.stringMatching(/unique/iu) })]);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    const result = parseYamlSource(bomb);
    expect(result.data).toBeUndefined();
    expect(result.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('alias') })]);
  });

  it('reads the version without a full parse, and with one for unusual forms', () => {
    expect(readManifestVersion('id: x\nversion: 1.2.3\n')).toBe('1.2.3');
    expect(readManifestVersion("id: x\nversion: '2.0.0' # pinned\n")).toBe('2.0.0');
    expect(readManifestVersion('{id: x, version: 3.0.1}')).toBe('3.0.1');
    expect(readManifestVersion('id: x\n')).toBeUndefined();
  });
});

/** What the `yaml` library reads of `text` under the core schema (the reference), or its error. */
function readByYaml(text: string): { value: unknown } | { error: true } {
  try {
    return { value: parse(text, { schema: 'core', uniqueKeys: true, maxAliasCount: 100, logLevel: 'error' }) };
  } catch {
    return { error: true };
  }
}

function readFast(text: string): { value: unknown } | { error: true } {
  try {
    return { value: readYamlValue(text) };
  } catch {
    return { error: true };
  }
}

/**
 * Plain scalars of every form the core schema types (and near misses), quoted ones, and the
 * indicators a front matter block may hold: the two parsers' corners, where they part.
 */
const TOKENS = [
  '0', '-0', '+12', '017', '08', '0o17', '0O17', '0x1F', '-0x1', '+0x1', '0b101', '1_000', '1,000', '1:20', '12345678901234567890',
  '1e3', '1.5E+3', '.5', '-.5e-3', '+.inf', '-.Inf', '.NaN', '5.', '0.',
  'true', 'True', 'TRUE', 'tRUE', 'yes', 'no', 'on', 'null', 'Null', 'NULL', '~', '',
  '2026-11-22', '2001-12-14t21:59:43.10-05:00', 'src/**/*.ts', '"src/**/*.ts"', "'it''s'", '"\\x41"', '"\\u00e9"', '"a: b"',
  'plain text', 'Do it! Now', 'What? Yes', 'a#b', 'x # comment', '=', '<<', '!!str 12', '!!float 3', '!custom x', '&a x', '*a', '? k', '@x', '`x`', '%x',
];

describe('readYamlValue', () => {
  it('reads every text as the yaml library does, by js-yaml on the lines both read alike, and so do the checks\' and the installer\'s readings of front matter (properties over the core schema\'s corners)', () => {
    const scalar = fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 12 }));
    const value = fc.oneof(
      { weight: 4, arbitrary: scalar },
      { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`) },
      { weight: 2, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 3 }).map((items) => items.map((item) => `\n  - ${item}`).join('')) },
      { weight: 1, arbitrary: fc.tuple(scalar, scalar).map(([a, b]) => `\n  inner: ${a}\n  other: ${b}`) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('|', '>-'), scalar).map(([style, text]) => `${style}\n  ${text}`) },
    );
    const key = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('description', 'globs', 'applyTo', 'alwaysApply', 'name', 'a', 'true', 'null', 'No', 'y', '_x', 'a-b') },
      { weight: 1, arbitrary: fc.oneof(fc.constantFrom('"quoted key"', '? complex', '~', '-', '0', '1.5'), fc.string({ minLength: 1, maxLength: 6 })) },
    );
    const line = fc.oneof({ weight: 8, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`) }, { weight: 1, arbitrary: fc.constantFrom('# a comment', '', '  ', 'key:', 'k:\t1') });
    // Front matter as authors write it, whose lines both read alike, with a corner now and then.
    const word = fc.stringMatching(/^[A-Za-z/][A-Za-z0-9 ./*!?&|>%@`~=+-]{0,12}$/u);
    const usual = fc.oneof({ weight: 6, arbitrary: fc.oneof(word, word.map((w) => `"${w}"`), word.map((w) => `'${w}'`), fc.nat().map(String), fc.constantFrom('true', 'False', 'NULL', 'yes', '1.50', 'src/**/*.ts')) }, { weight: 1, arbitrary: fc.constantFrom(...TOKENS) });
    const usualValue = fc.oneof(
      { weight: 4, arbitrary: usual },
      { weight: 2, arbitrary: fc.array(usual, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`) },
      { weight: 2, arbitrary: fc.array(usual, { minLength: 1, maxLength: 3 }).map((items) => items.map((item) => `\n  - ${item}`).join('')) },
    );
    const usualLine = fc.oneof({ weight: 8, arbitrary: fc.tuple(fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/u), usualValue).map(([k, v]) => `${k}: ${v}`) }, { weight: 1, arbitrary: fc.constantFrom('# a comment', '', 'key:') });
    const block = fc.oneof(fc.array(line, { minLength: 1, maxLength: 5 }), fc.array(usualLine, { minLength: 1, maxLength: 5 })).map((lines) => `${lines.join('\n')}\n`);
    let alike = 0;
    fc.assert(
      fc.property(block, (text) => {
        if (readsAlike(text)) alike++;
        expect(readFast(text), JSON.stringify(text)).toEqual(readByYaml(text));
      }),
      { numRuns: 4000 },
    );
    // The property says something of the fast path only if many texts take it.
    expect(alike).toBeGreaterThan(1000);
    // The checks' reading of a front matter block (with its errors' lines) and the installer's
    // (the `yaml` library alone in this process) give the same values, and fail together.
    fc.assert(
      fc.property(block, (yamlText) => {
        const text = `---\n${yamlText}---\n\nBody.\n`;
        const checks = readFrontMatter(text);
        const install = readFrontMatterForInstall(text);
        expect({ data: checks.data, failed: checks.errors.length > 0 }, JSON.stringify(text)).toEqual({ data: install.data, failed: install.errors.length > 0 });
      }),
      { numRuns: 2000 },
    );
  });

  it('takes js-yaml for the usual front matter, and the yaml library for the corners: binary and signed hexadecimal integers stay strings, a float without a leading digit is a number, tags apply', () => {
    for (const text of ['description: Style for react\nglobs: ["src/**/*.ts"]\napplyTo: "src/**/*.ts"\n', 'name: use-react\ndescription: Use React. Then test.\n', 'alwaysApply: true\npaths:\n  - src/**\n  - "test/**"\n# kept\n']) {
      expect(readsAlike(text), text).toBe(true);
      expect(readYamlValue(text)).toEqual(parse(text));
    }
    const corners = 'a: 0b101\nb: -0x1\nc: -.5e-3\nd: !!str 12\ne: 0x1F\nf: -0\n';
    expect(readsAlike(corners)).toBe(false);
    expect(readYamlValue(corners)).toEqual({ a: '0b101', b: '-0x1', c: -0.0005, d: '12', e: 31, f: -0 });
    expect(() => readYamlValue('a: 1\na: 2\n')).toThrow(/unique/iu);
  });
});
