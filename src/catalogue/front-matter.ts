/**
 * YAML front matter of Markdown files (`---` fenced block at the very start, as used by
 * SKILL.md, subagents, Cursor `.mdc` rules and Copilot `.instructions.md`). The block is
 * read as the `yaml` library reads it, by js-yaml where the two read alike
 * (yaml-document.ts `parseFrontMatterSource`), with the lines of its errors; this module only
 * finds the fences. The installer's reading (front-matter-data.ts) gives the same values.
 */
import { countLines } from './lines.js';
import { parseFrontMatterSource } from './yaml-document.js';

/** The result of reading front matter from a Markdown text. */
export interface FrontMatter {
  /** True when the text starts with a `---` line. */
  present: boolean;
  /** The parsed mapping ({} when absent or not a mapping). */
  data: Record<string, unknown>;
  /** Problems with 1-based lines in the whole file. */
  errors: { line: number; message: string }[];
  /** 1-based line where the body starts. */
  bodyLine: number;
  /** The text after the closing fence. */
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/u;

/** Reads the front matter of `text`. Pure; never throws. */
export function readFrontMatter(text: string): FrontMatter {
  const open = OPEN.exec(text);
  if (open === null) return { present: false, data: {}, errors: [], bodyLine: 1, body: text };
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/mu.exec(rest);
  if (close === null) {
    return { present: true, data: {}, errors: [{ line: 1, message: 'front matter opens with "---" but never closes (expected a closing "---" line)' }], bodyLine: 1, body: text };
  }
  const yamlText = rest.slice(0, close.index);
  const parsed = parseFrontMatterSource(yamlText);
  // Line 1 is the opening fence, the YAML follows, then the closing fence.
  const bodyLine = 3 + countLines(yamlText);
  const errors = parsed.errors.map((e) => ({ line: e.line + 1, message: `front matter: ${e.message}` }));
  const value = parsed.data;
  let data: Record<string, unknown> = {};
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) data = value as Record<string, unknown>;
  else if (errors.length === 0 && value !== undefined && value !== null) errors.push({ line: 2, message: 'front matter is not a mapping (expected "key: value" lines)' });
  return { present: true, data, errors, bodyLine, body: rest.slice(close.index + close[0].length) };
}
