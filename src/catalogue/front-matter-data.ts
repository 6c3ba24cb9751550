/**
 * The values of a Markdown file's YAML front matter, for the installer: the same fences as
 * `front-matter.ts`, parsed with the `yaml` library alone (YAML 1.2 core schema). The
 * installer needs the values only, never the lines of errors, so it does without js-yaml's
 * fast path and the consumer CLI's bundle carries one YAML parser.
 */
import { parse } from 'yaml';
import type { FrontMatter } from './front-matter.js';
import { countLines } from './lines.js';

const OPEN = /^\uFEFF?---[ \t]*\r?\n/u;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/mu;

/** The front matter's mapping of `text`, or {} when it is absent, malformed or not a mapping. Pure; never throws. */
export function readFrontMatterData(text: string): Record<string, unknown> {
  return readFrontMatterForInstall(text).data;
}

/**
 * `front-matter.ts`'s {@link FrontMatter} of `text`, from the `yaml` library alone: the same
 * fences, data and body; an error is reported at the block's first line (the installer only
 * tells a broken block from a good one). Pure; never throws.
 */
export function readFrontMatterForInstall(text: string): FrontMatter {
  const open = OPEN.exec(text);
  if (open === null) return { present: false, data: {}, errors: [], bodyLine: 1, body: text };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (close === null) return { present: true, data: {}, errors: [{ line: 1, message: 'front matter opens with "---" but never closes (expected a closing "---" line)' }], bodyLine: 1, body: text };
  const yamlText = rest.slice(0, close.index);
  const found = { present: true, bodyLine: 3 + countLines(yamlText), body: rest.slice(close.index + close[0].length) };
  try {
    const value: unknown = parse(yamlText, { schema: 'core', uniqueKeys: true, maxAliasCount: 100 });
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ...found, data: value as Record<string, unknown>, errors: [] };
    const errors = value === null || value === undefined ? [] : [{ line: 2, message: 'front matter is not a mapping (expected "key: value" lines)' }];
    return { ...found, data: {}, errors };
  } catch (error) {
    return { ...found, data: {}, errors: [{ line: 2, message: `front matter: ${(error as Error).message}` }] };
  }
}
