/**
 * The values of a Markdown file's YAML front matter, for the installer: the same fences as
 * `front-matter.ts`, parsed with the `yaml` library (YAML 1.2 core schema). The installer needs
 * the values only, never the lines of errors, and the consumer CLI's bundle carries this one YAML
 * parser. A thread that loads js-yaml anyway (where the checks run) reads through its faster
 * path for the same values ({@link useYamlValueReader}).
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
 *
 * The answer is shared by every caller that asks about the same text, and frozen (changing it
 * throws a TypeError): a build asks about each rule once per agent for its translation, its
 * check and its context cost, and about each skill once per agent for its listing, and the
 * `yaml` parse was the largest share of a cold build's time (docs/performance.md).
 */
export function readFrontMatterForInstall(text: string): FrontMatter {
  let found = readings.get(text);
  if (found === undefined) {
    if (readings.size >= READINGS_KEPT) readings.delete(readings.keys().next().value as string);
    found = deepFreeze(read(text));
    readings.set(text, found);
  }
  return found;
}

/** Reads a front matter block's YAML to its value. @throws when the YAML does not read. */
export type YamlValueReader = (yamlText: string) => unknown;

/** The `yaml` library: YAML 1.2 core schema, unique keys, at most 100 alias expansions. */
const readWithYaml: YamlValueReader = (yamlText) => parse(yamlText, { schema: 'core', uniqueKeys: true, maxAliasCount: 100 });

let readYaml = readWithYaml;

/**
 * Sets how this thread reads front matter blocks from now on (readings made before are dropped).
 * `reader` must give the values the `yaml` library gives, and throw where it throws: wherever the
 * checks run (verify/run.ts: `loadout verify`, the build's threads, `loadout dev`, the submissions'
 * checks), it is `yaml-document.ts` `readYamlValue`, which takes js-yaml where the two read alike
 * (a property test holds it) and is about ten times faster. The `yaml` library's parse of front
 * matter was 7 % of a cold build's processor time (docs/performance.md).
 */
export function useYamlValueReader(reader: YamlValueReader): void {
  readYaml = reader;
  readings.clear();
}

/** The readings made lately, by text; the oldest text is dropped first. */
const readings = new Map<string, FrontMatter>();
/** Texts kept in {@link readings}: more than the Markdown files of any one loadout in all their translations (30 files a loadout, DESIGN.md section 4). */
const READINGS_KEPT = 512;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function read(text: string): FrontMatter {
  const open = OPEN.exec(text);
  if (open === null) return { present: false, data: {}, errors: [], bodyLine: 1, body: text };
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (close === null) return { present: true, data: {}, errors: [{ line: 1, message: 'front matter opens with "---" but never closes (expected a closing "---" line)' }], bodyLine: 1, body: text };
  const yamlText = rest.slice(0, close.index);
  const found = { present: true, bodyLine: 3 + countLines(yamlText), body: rest.slice(close.index + close[0].length) };
  try {
    const value: unknown = readYaml(yamlText);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ...found, data: value as Record<string, unknown>, errors: [] };
    const errors = value === null || value === undefined ? [] : [{ line: 2, message: 'front matter is not a mapping (expected "key: value" lines)' }];
    return { ...found, data: {}, errors };
  } catch (error) {
    return { ...found, data: {}, errors: [{ line: 2, message: `front matter: ${(error as Error).message}` }] };
  }
}
