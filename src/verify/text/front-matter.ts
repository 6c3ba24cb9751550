/**
 * Front matter as the agents read it. Cursor writes a rule's `globs` unquoted
 * (`globs: *.ts, src/*.tsx`, often with `**` folders) and reads the value as raw text, a
 * comma-separated list of patterns; YAML reads a leading `*` as an alias and fails. Such a value is quoted before the
 * YAML is parsed, keeping every line where it was, so the checks judge the rule as Cursor
 * does instead of reporting a parse error that no agent meets.
 */
import { readFrontMatter, type FrontMatter } from '../../catalogue/front-matter.js';

/** `globs:` with a raw value that starts with `*`, inside a front matter block. */
const RAW_GLOBS = /^globs:[ \t]*(\*(?:[^\n]*[^ \t\n\r])?)[ \t]*(\r?)$/gmu;

/**
 * The front matter of `text` (see `readFrontMatter`), with a raw Cursor `globs` value read as
 * a string. Pure; never throws.
 */
export function readAgentFrontMatter(text: string): FrontMatter {
  const open = /^\uFEFF?---[ \t]*\r?\n/u.exec(text);
  if (open === null || !text.includes('globs:')) return readFrontMatter(text);
  const close = /^---[ \t]*(?:\r?\n|$)/mu.exec(text.slice(open[0].length));
  const end = close === null ? text.length : open[0].length + close.index;
  const head = text.slice(0, end);
  const quoted = head.replace(RAW_GLOBS, (_, value: string, cr: string) => `globs: ${JSON.stringify(value)}${cr}`);
  return readFrontMatter(quoted === head ? text : quoted + text.slice(end));
}
