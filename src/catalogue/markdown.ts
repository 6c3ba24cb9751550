/**
 * Just enough Markdown structure for the checks and the link rewrite of installs: where fenced code blocks, inline code spans
 * and HTML comments are (CommonMark 0.31 sections 4.5, 6.1 and 6.6, simplified to the cases
 * that matter for links and hidden text). Pure; offsets are character offsets into the text.
 */

/** A range of character offsets `[start, end)` in a text. */
export interface TextRange {
  start: number;
  end: number;
}

/** A fenced code block: from the opening fence line to the end of the closing one. */
export interface CodeBlock {
  start: number;
  end: number;
  /** The info string's first word (`bash`, `json`, …), lower-case; '' when none. */
  lang: string;
  /** Offset where the block's content starts (after the opening fence line). */
  contentStart: number;
  contentEnd: number;
}

// `[^\n]*` runs over the `\r`, U+2028 and U+2029 after which `^` matches again, but `$` then
// matches at the end of the line or of the text: every attempt that gets there succeeds, and the
// next starts after it (test/catalogue/linear-time.test.ts).
// eslint-disable-next-line loadout/no-rescan
const FENCE_LINE = /^ {0,3}(`{3,}(?!`)|~{3,}(?!~))([^\n]*)$/gmu;

/** Finds the fenced code blocks of a Markdown text. An unclosed fence runs to the end (CommonMark). */
export function findCodeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  if (!text.includes('```') && !text.includes('~~~')) return blocks;
  let open: { start: number; marker: string; lang: string; contentStart: number } | undefined;
  FENCE_LINE.lastIndex = 0;
  // Only fence lines matter, so the scan jumps from one to the next.
  for (let m = FENCE_LINE.exec(text); m !== null; m = FENCE_LINE.exec(text)) {
    const marker = m[1] ?? '';
    const info = (m[2] ?? '').replace(/\r$/u, '');
    const lineEnd = m.index + m[0].length;
    if (open === undefined) {
      if (!(marker.startsWith('`') && info.includes('`'))) {
        open = { start: m.index, marker, lang: info.trim().split(/[\s{,]/u)[0]?.toLowerCase() ?? '', contentStart: Math.min(text.length, lineEnd + 1) };
      }
    } else if (marker[0] === open.marker[0] && marker.length >= open.marker.length && info.trim() === '') {
      blocks.push({ start: open.start, end: lineEnd, lang: open.lang, contentStart: open.contentStart, contentEnd: m.index });
      open = undefined;
    }
  }
  if (open !== undefined) blocks.push({ start: open.start, end: text.length, lang: open.lang, contentStart: open.contentStart, contentEnd: text.length });
  return blocks;
}

/**
 * Replaces every character in the `[start, end)` ranges with a space, keeping line breaks, so
 * that offsets and lines stay valid. Ranges may come in any order; an overlapping range is
 * skipped. Pure.
 */
export function blankRanges(text: string, ranges: readonly TextRange[]): string {
  if (ranges.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (const r of isSorted(ranges) ? ranges : [...ranges].sort((a, b) => a.start - b.start)) {
    if (r.start < last) continue;
    parts.push(text.slice(last, r.start));
    // Blank line by line: spaces for the characters, the line breaks as they are.
    let from = r.start;
    for (let nl = text.indexOf('\n', from); nl >= 0 && nl < r.end; nl = text.indexOf('\n', from)) {
      parts.push(' '.repeat(nl - from), '\n');
      from = nl + 1;
    }
    parts.push(' '.repeat(r.end - from));
    last = r.end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

function isSorted(ranges: readonly TextRange[]): boolean {
  for (let i = 1; i < ranges.length; i++) if ((ranges[i]?.start ?? 0) < (ranges[i - 1]?.start ?? 0)) return false;
  return true;
}

/**
 * Ranges of inline code spans outside fenced blocks (CommonMark 0.31 section 6.1): a run of
 * backticks up to the next run of the same length. A run with no closer before the paragraph
 * ends (a blank line) is literal text. One pass from backtick to backtick.
 */
export function findCodeSpans(text: string): TextRange[] {
  const spans: TextRange[] = [];
  // The paragraph's end is found once per paragraph, not once per run of backticks; and once a
  // run of some length has no closer in the paragraph, later runs of that length have none
  // either. Without both, a paragraph of many backticks took time quadratic in its length.
  let paragraphEnd = -1;
  const unclosed = new Map<number, number>();
  let open = text.indexOf('`');
  while (open >= 0) {
    const openEnd = runEnd(text, open);
    if (paragraphEnd < openEnd) paragraphEnd = blankLineAfter(text, openEnd);
    if (unclosed.get(openEnd - open) === paragraphEnd) {
      open = text.indexOf('`', openEnd);
      continue;
    }
    let close = text.indexOf('`', openEnd);
    while (close >= 0 && close < paragraphEnd && runEnd(text, close) - close !== openEnd - open) close = text.indexOf('`', runEnd(text, close));
    if (close < 0 || close >= paragraphEnd) unclosed.set(openEnd - open, paragraphEnd);
    if (close >= 0 && close < paragraphEnd) {
      const end = runEnd(text, close);
      spans.push({ start: open, end });
      open = text.indexOf('`', end);
    } else {
      open = text.indexOf('`', openEnd);
    }
  }
  return spans;
}

/** The offset just past the run of backticks that starts at `at`. */
function runEnd(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === 0x60) i++;
  return i;
}

const BLANK_LINE = /\n[ \t]*\n/gu;

/** Offset of the next blank line at or after `from` (where a paragraph ends), or the text's length. */
function blankLineAfter(text: string, from: number): number {
  BLANK_LINE.lastIndex = from;
  return BLANK_LINE.exec(text)?.index ?? text.length;
}

/** An HTML comment `<!-- … -->` with its offsets and inner text. */
export interface HtmlComment {
  start: number;
  end: number;
  body: string;
}

/** HTML comments of a text whose fenced code blocks are already blanked. */
export function findHtmlComments(text: string): HtmlComment[] {
  const comments: HtmlComment[] = [];
  // An unclosed comment runs to the end (`$` without the `m` flag): every attempt succeeds, and the next starts after it.
  // eslint-disable-next-line loadout/no-rescan
  const re = /<!--([\s\S]*?)(?:-->|$)/gu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    comments.push({ start: m.index, end: m.index + m[0].length, body: m[1] ?? '' });
    if (m[0].length === 0) re.lastIndex++;
  }
  return comments;
}

/** True for the Markdown file extensions the checks read as Markdown. */
export function isMarkdownPath(path: string): boolean {
  return /\.(md|mdc|markdown)$/iu.test(path);
}

/**
 * The prose and markup of a Markdown text: fenced code blocks (fences included) and then inline
 * code spans blanked, offsets kept (the same view as the checks' `TextView.prose`). Pure.
 */
export function proseOf(text: string): string {
  const withoutBlocks = blankRanges(text, findCodeBlocks(text));
  return blankRanges(withoutBlocks, findCodeSpans(withoutBlocks));
}
