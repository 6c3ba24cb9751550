/**
 * Parsing YAML (`loadout.yaml`, front matter) so that a diagnostic about a field can name its
 * line. Two well-kept parsers share the work: js-yaml (YAML 1.2 core schema) reads the text
 * when it is well formed, the faster of the two; the `yaml` library, which keeps source
 * positions, is used only to report a syntax error or to find the line of a field, which
 * happens when something is wrong. Texts with anchors or aliases always go to `yaml`, whose
 * alias limit guards against alias bombs.
 */
import { CORE_SCHEMA, load } from 'js-yaml';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { CORE_SCHEMA_WORDS } from './front-matter-yaml.js';

/** A parsed YAML text plus what is needed to map JSON pointers back to lines. */
export interface YamlSource {
  /** The plain JavaScript value (undefined when the text does not parse). */
  data: unknown;
  /** Parse errors with their 1-based lines. */
  errors: { line: number; message: string }[];
  /** 1-based line of the node at an RFC 6901 pointer, or of its nearest existing parent. */
  lineOf(pointer: string): number | undefined;
}

/**
 * Parses YAML text (YAML 1.2, the `yaml` library's core schema). Duplicate keys are errors.
 * Never throws: syntax errors are returned in `errors`.
 */
export function parseYamlSource(text: string): YamlSource {
  if (!ANCHOR_OR_ALIAS.test(text)) {
    try {
      const data: unknown = load(text, { schema: CORE_SCHEMA });
      let positions: YamlSource | undefined;
      return { data, errors: [], lineOf: (pointer) => (positions ??= parseWithPositions(text)).lineOf(pointer) };
    } catch {
      // Malformed: the `yaml` library words the error and names its line.
    }
  }
  return parseWithPositions(text);
}

/**
 * {@link parseYamlSource} for a front matter block: js-yaml only where it reads the text as the
 * `yaml` library does ({@link readsAlike}), so that the checks see the values the installer's
 * reading gives (front-matter-data.ts, and the consumer CLI, which has the `yaml` library alone).
 * A manifest keeps the wider fast path of {@link parseYamlSource}: it always has nested mappings,
 * and its values are published as the checks read them.
 */
export function parseFrontMatterSource(text: string): YamlSource {
  return readsAlike(text) ? parseYamlSource(text) : parseWithPositions(text);
}

/**
 * The value of the YAML `text`, as the `yaml` library reads it (YAML 1.2 core schema, unique
 * keys, at most 100 alias expansions): {@link parseFrontMatterSource}'s, by js-yaml where the two
 * read alike ({@link readsAlike}), about ten times faster on a front matter block. For callers
 * that need the value alone.
 * @throws Error with the `yaml` library's first error (and its line) when the text does not read.
 */
export function readYamlValue(text: string): unknown {
  const { data, errors } = parseFrontMatterSource(text);
  const [first] = errors;
  if (first !== undefined) throw new Error(`line ${first.line}: ${first.message}`);
  return data;
}

// An anchor (`&a`) or alias (`*a`) where a node can start: after a line start, space, `[`, `{`, `,` or `-`.
const ANCHOR_OR_ALIAS = /(?:^|[\s[{,-])[&*][^\s]/mu;

/**
 * A plain scalar both read as the same string, number, boolean or null: text that starts with a
 * letter or `/` and holds no `:`, `#`, quote, backslash or flow indicator (a glob's `*` is fine),
 * or a decimal number without a sign.
 */
const PLAIN = String.raw`(?:[A-Za-z/][^:#'"\[\]{},\\\s]*(?:[ \t]+[^:#'"\[\]{},\\\s]+)*|(?:0|[1-9]\d*)(?:\.\d+)?)`;
/** A scalar of a block: plain, single-quoted without an escaped quote, or double-quoted without escapes. */
const SCALAR = String.raw`(?:${PLAIN}|'[^'\n]*'|"[^"\\\n]*")`;

/**
 * The lines of front matter that js-yaml reads as the `yaml` library does: a
 * key with a scalar, an empty value or a flow sequence of scalars; an item of a block sequence; a
 * comment or a blank line. A text of such lines alone takes js-yaml, anything else (anchors and
 * aliases, which only `yaml` caps; tags; nested mappings; escapes; signed or prefixed numbers,
 * which js-yaml 4.3 reads otherwise: `0b101`, `-0x1` and `-0` as numbers or +0, `-.5e-3` as a
 * string) the `yaml` library. A property test holds the two equal on every text
 * (test/catalogue/yaml-document.test.ts).
 */
/** A key both read as the same string: a word, but not one the core schema reads as null or a boolean (`null: 1` is `{"": 1}` to `yaml`). */
const KEY = String.raw`(?!${CORE_SCHEMA_WORDS}:)[A-Za-z_][\w-]*`;

const ALIKE_LINE = new RegExp(
  String.raw`^(?:${KEY}:(?:[ \t]+(?:${SCALAR}|\[[ \t]*(?:${SCALAR}(?:[ \t]*,[ \t]*${SCALAR})*[ \t]*)?\]))?|[ \t]+- ${SCALAR}|[ \t]*(?:#.*)?)$`,
  'u',
);

/** A key's line (the text is a mapping): an empty text is null to one and undefined to the other. */
const KEY_LINE = new RegExp(`^${KEY}:`, 'mu');

/** True when js-yaml reads `text` as the `yaml` library does: a mapping whose every line is one of {@link ALIKE_LINE}. */
export function readsAlike(text: string): boolean {
  if (!KEY_LINE.test(text)) return false;
  // Each line without its trailing blanks, which no line form then needs to allow for (a linear match).
  for (const line of text.split('\n')) if (!ALIKE_LINE.test(line.trimEnd())) return false;
  return true;
}

function parseWithPositions(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const errors = doc.errors.map((e) => ({
    line: lineCounter.linePos(e.pos[0]).line,
    message: e.message.split('\n')[0] ?? e.message,
  }));
  let data: unknown;
  if (errors.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // The alias limit: a small text that would expand to a huge value (an alias bomb).
      errors.push({ line: 1, message: `${(error as Error).message} (expected at most 100 alias expansions)` });
    }
  }
  const lineAt = (node: unknown): number | undefined =>
    isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : undefined;

  return {
    data,
    errors,
    lineOf(pointer: string): number | undefined {
      const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
      let node: unknown = doc.contents;
      let line = lineAt(node) ?? 1;
      for (const token of tokens) {
        if (isSeq(node)) {
          node = node.items[Number(token)];
        } else if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token);
          if (pair === undefined) return line;
          // A key without a value (or `key: null`) is best pointed at by the key itself.
          node = pair.value ?? pair.key;
          if (isScalar(pair.value) && pair.value.value === null) node = pair.key;
        } else {
          return line;
        }
        line = lineAt(node) ?? line;
      }
      return line;
    },
  };
}

/**
 * The top-level `version` of a manifest, read without a full parse when the line has the
 * usual form (`version: 1.2.3`, quoted or not); otherwise by parsing. Undefined when absent.
 * Used where only the version is needed (git history, the build cache), which is most of
 * the manifests a build reads.
 */
export function readManifestVersion(text: string): string | undefined {
  const quick = /^version:[ \t]*(["']?)(\d+\.\d+\.\d+)\1[ \t]*(?:#.*)?$/mu.exec(text);
  if (quick?.[2] !== undefined) return quick[2];
  const data = parseYamlSource(text).data as { version?: unknown } | undefined;
  return typeof data?.version === 'string' ? data.version : undefined;
}
