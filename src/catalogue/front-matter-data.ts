/**
 * The values of a Markdown file's YAML front matter, for the installer: the same fences as
 * `front-matter.ts`, parsed with the `yaml` library alone (YAML 1.2 core schema). The
 * installer needs the values only, never the lines of errors, so it does without js-yaml's
 * fast path and the consumer CLI's bundle carries one YAML parser.
 */
import { parse } from 'yaml';

const OPEN = /^\uFEFF?---[ \t]*\r?\n/u;
const CLOSE = /^---[ \t]*(?:\r?\n|$)/mu;

/** The front matter's mapping of `text`, or {} when it is absent, malformed or not a mapping. Pure; never throws. */
export function readFrontMatterData(text: string): Record<string, unknown> {
  const open = OPEN.exec(text);
  if (open === null) return {};
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (close === null) return {};
  try {
    const value: unknown = parse(rest.slice(0, close.index), { schema: 'core', uniqueKeys: true, maxAliasCount: 100 });
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
