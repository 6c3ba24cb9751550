/**
 * The YAML text of a front-matter mapping, byte for byte as the `yaml` library writes it with
 * `stringify(data, { lineWidth: 0 })` (yaml 2.x: plain scalars where they read back as the same
 * string, else double quotes; block sequences indented by two; no line folding).
 *
 * The rule translation (layout/rule-translation.ts) writes a front matter for each rule and
 * each agent that scopes rules, in the build's threads and in the consumer CLI's installs; the
 * `yaml` library's `stringify` took about 75 µs a mapping, 2.7 % of a cold build's thread time
 * (docs/performance.md, fifteenth session). Those mappings are nearly always a few keys with
 * words, globs, booleans and lists of globs, and this module writes those itself in about a
 * microsecond. Anything else (nested mappings, floats, null, a string with a quote, a backslash,
 * a character outside printable ASCII, a line break, or one whose style this module does not
 * decide for certain) goes to the library. A fast-check property holds that the two give the
 * same text wherever this module writes it (test/catalogue/front-matter-yaml.test.ts).
 *
 * The rules it follows are the library's own (yaml 2.9, `stringify/stringifyString.js`
 * `plainString` and `doubleQuotedString`; `schema/core` tags).
 */
import { stringify } from 'yaml';

/**
 * The text of `data` as YAML, as `stringify(data, { lineWidth: 0 })` writes it: `key: value`
 * lines, each ending in a newline, `{}\n` for an empty mapping. Pure; never throws for JSON
 * data (a value `stringify` cannot write throws as it does).
 */
export function frontMatterYaml(data: Readonly<Record<string, unknown>>): string {
  return simpleYaml(data) ?? stringify(data, { lineWidth: 0 });
}

/**
 * {@link frontMatterYaml} for a mapping of simple values only, else undefined: keys that are
 * words, values that are booleans, safe integers, strings this module can style, or non-empty
 * lists of such strings. Exported for the property test, which compares it with the library.
 */
export function simpleYaml(data: Readonly<Record<string, unknown>>): string | undefined {
  const entries = Object.entries(data);
  // `yaml` writes an empty mapping as a flow mapping.
  if (entries.length === 0) return '{}\n';
  let text = '';
  for (const [key, value] of entries) {
    if (!KEY.test(key) || CORE_WORD.test(key)) return undefined;
    const written = valueText(value);
    if (written === undefined) return undefined;
    text += `${key}:${written}\n`;
  }
  return text;
}

/** What follows `key:` for `value` (` text`, or the lines of a list), or undefined for a value not written here. */
function valueText(value: unknown): string | undefined {
  if (typeof value === 'boolean') return ` ${String(value)}`;
  if (typeof value === 'number') return Number.isSafeInteger(value) && !Object.is(value, -0) ? ` ${String(value)}` : undefined;
  if (typeof value === 'string') {
    const scalar = scalarOf(value);
    return scalar === undefined ? undefined : ` ${scalar}`;
  }
  return Array.isArray(value) && value.length > 0 ? itemsOf(value) : undefined;
}

/** The lines of a block sequence of strings below a key (`\n  - a\n  - b`), or undefined for any other item. */
function itemsOf(items: readonly unknown[]): string | undefined {
  let text = '';
  for (const item of items) {
    const scalar = typeof item === 'string' ? scalarOf(item) : undefined;
    if (scalar === undefined) return undefined;
    text += `\n  - ${scalar}`;
  }
  return text;
}

/**
 * A key this module writes plain: a word of letters, digits, `_` and `-` that starts with a
 * letter or `_`, at most 64 characters (the library writes a key over 1,024 as an explicit `? `
 * key; a word cannot need quotes unless it is a core-schema word, {@link CORE_WORD}).
 */
const KEY = /^[A-Za-z_][\w-]{0,63}$/u;

/**
 * The words (regular-expression source) that start with a letter and that the YAML 1.2 core
 * schema reads as something other than a string: its booleans and nulls (yaml
 * `schema/core/bool.js`, `schema/common/null.js`; every number and `.inf`/`.nan` form starts with a
 * digit, a sign, a dot or `~`). Also what keeps such a key from js-yaml's path
 * (yaml-document.ts `readsAlike`), since the two libraries read a `null:` key differently.
 */
export const CORE_SCHEMA_WORDS = '(?:[Tt]rue|TRUE|[Ff]alse|FALSE|[Nn]ull|NULL)';

/** A whole string that is one of {@link CORE_SCHEMA_WORDS}. */
const CORE_WORD = new RegExp(`^${CORE_SCHEMA_WORDS}$`, 'u');

/** Printable ASCII without either quote or the backslash: what both styles below write as they are. */
const SIMPLE = /^[\x20-\x21\x23-\x26\x28-\x5b\x5d-\x7e]+$/u;

/**
 * The library's test for a string that cannot be plain (`plainString` in stringifyString.js):
 * an indicator first, a lone or spaced `-` or `?`, `: ` or ` #` inside, a space or `:` last.
 * Line breaks and tabs never reach it here ({@link SIMPLE}).
 */
const NOT_PLAIN = /^[ ,[\]{}#&*!|>%@`]|^[?-]$|^[?-] |: | #|[ :]$/u;

/**
 * `value` styled as the library styles it, or undefined where this module does not decide:
 * - double quotes (JSON's, the same bytes for {@link SIMPLE} text) when the library's
 *   {@link NOT_PLAIN} test or the core schema would not read it back as this string;
 * - plain when it starts with a letter and passes both;
 * - undefined for the rest (a first digit, sign, dot or `~` may read as a number or null, and
 *   the library decides those by its tags), and for anything outside {@link SIMPLE}.
 */
function scalarOf(value: string): string | undefined {
  if (!SIMPLE.test(value)) return undefined;
  if (NOT_PLAIN.test(value) || CORE_WORD.test(value)) return JSON.stringify(value);
  return /^[A-Za-z]/u.test(value) ? value : undefined;
}
