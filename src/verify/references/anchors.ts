/**
 * The anchors a Markdown file offers: GitHub-style heading slugs (lower-case, punctuation
 * removed, spaces to hyphens, `-1`, `-2` … for repeats; as github-slugger does), explicit
 * heading ids (`## Title {#id}`: Pandoc's `header_attributes`, kramdown's `{#id}` and `{: #id}`,
 * markdown-it-attrs) and the `id`/`name` attributes of HTML elements (`<a id="x">`,
 * `<a name="x">`: HTML, "The id attribute" and the `name` of `a` as a legacy anchor).
 */
import { TextView } from '../text/view.js';

const PLAIN_HEADING = /^[A-Za-z0-9 -]*$/u;

/** Slug of a heading's text, as GitHub renders it. */
export function slugify(heading: string): string {
  // Most headings are plain words: lower case, spaces to hyphens.
  if (PLAIN_HEADING.test(heading)) return heading.toLowerCase().trim().replace(/ /gu, '-');
  const text = heading
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/gu, '$1') // links and images → their text (a destination holds no `(`: with `[^)]`, `[a](` repeated was quadratic)
    .replace(/<[^<>]+>/gu, '') // inline HTML
    .replace(/[`*]|(?<!\w)_+|(?<!_)_+(?!\w)/gu, ''); // code and emphasis markers
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /gu, '-');
}

/** The opening of an ATX heading line: up to three spaces, one to six `#`, then a blank or the line's end (CommonMark 0.31 section 4.2). */
const ATX_OPENING = /^ {0,3}#{1,6}(?=[ \t]|\r?$)/u;

/**
 * The title of an ATX heading line ("## Title ##"), or undefined when the line is none
 * (CommonMark 0.31 section 4.2): the text after the opening without the blanks around it, a
 * final `\r`, or a closing sequence of `#` that follows a blank. Read in one pass: a regular
 * expression with blanks on both sides of the title backtracked quadratically on long blank runs.
 */
export function atxHeadingTitle(line: string): string | undefined {
  const opening = ATX_OPENING.exec(line);
  if (opening === null) return undefined;
  const rest = line.slice(opening[0].length, line.endsWith('\r') ? -1 : undefined);
  let start = 0;
  while (isBlank(rest, start)) start++;
  let end = rest.length;
  while (end > start && isBlank(rest, end - 1)) end--;
  let hashes = end;
  while (hashes > start && rest[hashes - 1] === '#') hashes--;
  if (hashes < end && hashes > start && isBlank(rest, hashes - 1)) {
    end = hashes;
    while (end > start && isBlank(rest, end - 1)) end--;
  }
  return rest.slice(start, end);
}

function isBlank(text: string, at: number): boolean {
  return text[at] === ' ' || text[at] === '\t';
}
/** The first line of a setext heading: up to three spaces, then not a blank, quote, table, heading or list marker. */
const SETEXT_TEXT = /^ {0,3}([^\s>|#*+-][^\n]*)$/u;
/** A setext underline ("===" or "---", CommonMark 0.31 section 4.3). */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*\r?$/u;
const ATTRIBUTE = /\s(?:id|name)\s*=\s*["']([^"']+)["']/gu;
/** One token of an attribute block: `#id`, `.class` or `key=value`. */
const ATTRIBUTE_TOKEN = /^(?:[#.][^\s#.{}]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s"'{}]+))$/u;

/**
 * The explicit id of an attribute block that ends `text` — `{#id}`, `{#id .class key=value}`
 * (Pandoc `header_attributes`, markdown-it-attrs) or `{: #id}` (kramdown's inline attribute
 * list) — and the text before the block. `id` is undefined when `text` does not end in an
 * attribute block with an id. Pure.
 */
export function splitAttributeBlock(text: string): { text: string; id: string | undefined } {
  const trimmed = text.trimEnd();
  const open = trimmed.lastIndexOf('{');
  if (!trimmed.endsWith('}') || open < 0) return { text, id: undefined };
  const inner = trimmed.slice(open + 1, -1).replace(/^:/u, '').trim();
  const tokens = inner === '' ? [] : inner.split(/\s+/u);
  const id = tokens.find((token) => token.startsWith('#'))?.slice(1);
  if (id === undefined || !tokens.every((token) => ATTRIBUTE_TOKEN.test(token))) return { text, id: undefined };
  return { text: trimmed.slice(0, open).trimEnd(), id };
}

/**
 * Every anchor of a Markdown text: the slugs of its ATX and setext headings, in order, and
 * its `id`/`name` attributes. Headings inside fenced code blocks or front matter do not count. Pure.
 */
export function collectAnchors(text: string, view = new TextView(text)): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const prose = view.withoutBlocks;
  const addSlug = (heading: string): void => {
    const base = slugify(heading);
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
    // With an explicit id, renderers that read it use the id; the slug of the text without the
    // block is what one that drops the block (and numbers nothing) would give. GitHub shows the
    // block as text: its slug, above, stays.
    const explicit = splitAttributeBlock(heading);
    if (explicit.id !== undefined) {
      anchors.add(explicit.id);
      anchors.add(slugify(explicit.text));
    }
  };
  // Line by line; only a line that starts (after up to three spaces) with "#", or one followed
  // by an underline, is read further, so plain paragraphs cost a few character tests. Front
  // matter is metadata (GitHub shows it as a table): its closing "---" underlines nothing.
  const fm = view.frontMatter;
  let start = fm.present && fm.errors.length === 0 ? view.lines.startOf(fm.bodyLine) : 0;
  while (start <= prose.length) {
    const end = lineEnd(prose, start);
    const first = firstNonSpace(prose, start, end);
    if (first === 0x23 /* # */) {
      const title = atxHeadingTitle(prose.slice(start, end));
      if (title !== undefined) addSlug(title);
    } else if (first === 0x7b /* { */ && prose.charCodeAt(prose.indexOf('{', start) + 1) === 0x3a /* : */) {
      // A kramdown block attribute list on a line of its own (`{: #id}`) gives the block an id.
      const line = prose.slice(start, end).trim();
      const block = splitAttributeBlock(line);
      if (block.id !== undefined && block.text === '') anchors.add(block.id);
    } else if (first !== -1 && end < prose.length) {
      const nextEnd = lineEnd(prose, end + 1);
      const marker = firstNonSpace(prose, end + 1, nextEnd);
      if ((marker === 0x3d /* = */ || marker === 0x2d) /* - */ && SETEXT_UNDERLINE.test(prose.slice(end + 1, nextEnd))) {
        const m = SETEXT_TEXT.exec(prose.slice(start, end));
        if (m !== null) {
          addSlug((m[1] ?? '').trim());
          start = nextEnd + 1; // the underline is part of the heading
          continue;
        }
      }
    }
    start = end + 1;
  }
  if (prose.includes('=')) for (const m of prose.matchAll(ATTRIBUTE)) anchors.add(m[1] ?? '');
  return anchors;
}

/** Offset of the line break ending the line that starts at `start`, or the text's length. */
function lineEnd(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  return nl < 0 ? text.length : nl;
}

/** The character code after up to three leading spaces of the line `[start, end)`; -1 when that is the end or a fourth space. */
function firstNonSpace(text: string, start: number, end: number): number {
  for (let i = start; i < end && i < start + 4; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20) return c;
  }
  return -1;
}

/** True when `anchor` names one of `anchors`, comparing loosely (case, punctuation) to avoid false alarms. */
export function hasAnchor(anchors: ReadonlySet<string>, anchor: string): boolean {
  if (anchors.has(anchor) || anchors.has(anchor.toLowerCase())) return true;
  const loose = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const wanted = loose(anchor);
  for (const a of anchors) if (loose(a) === wanted) return true;
  return false;
}
