/**
 * One file of a loadout prepared for the safety rules: its lines, and for Markdown which
 * parts are code (fenced blocks, inline code spans) and which are prose. Built once per file.
 * Whether the Markdown around a match warns against it is `warnings.ts`'s question.
 */
import { TextView } from '../text/view.js';
import type { LineIndex } from '../text/line-index.js';
import { isMarkdownPath, type CodeBlock, type TextRange } from '../../catalogue/markdown.js';

/** A file's text with the views the safety rules need. */
export interface ScanText {
  readonly path: string;
  readonly text: string;
  readonly lines: LineIndex;
  /** The shared views of the text (code blanked, …). */
  readonly view: TextView;
  readonly markdown: boolean;
  /** Fenced code blocks (Markdown only). */
  readonly blocks: CodeBlock[];
  /** The code of the file: for Markdown the contents of fenced blocks and code spans, for other files the whole text. Sorted, not overlapping. */
  readonly codeRegions: TextRange[];
}

/**
 * Prepares `text` of the loadout file `path`, sharing `view` when the caller has one. Pure.
 * Lines, blocks and code regions are computed when a rule first reads them: most files give
 * no rule a reason to.
 */
export function prepareScanText(path: string, text: string, view = new TextView(text)): ScanText {
  const markdown = isMarkdownPath(path);
  let codeRegions: TextRange[] | undefined;
  return {
    path,
    text,
    view,
    markdown,
    get lines() {
      return view.lines;
    },
    get blocks() {
      return markdown ? view.blocks : [];
    },
    get codeRegions() {
      return (codeRegions ??= markdown ? markdownCode(text, view) : [{ start: 0, end: text.length }]);
    },
  };
}

/** Fenced blocks' contents and code spans, sorted. */
function markdownCode(text: string, view: TextView): TextRange[] {
  // A code span that fills the first cell of a table row names a term ("| `npm install` | Download … |"), it does not run it.
  const spans = view.codeSpans.filter((s) => !isTermCell(text, s));
  return [...view.blocks.map((b) => ({ start: b.contentStart, end: b.contentEnd })), ...spans].sort((a, b) => a.start - b.start);
}

/**
 * True when only a `|` and blanks stand between the line's start and the span. Read backwards
 * from the span, so that a long line of many spans is not read again for each of them.
 */
function isTermCell(text: string, span: TextRange): boolean {
  let i = skipBlanksBack(text, span.start - 1);
  if (text[i] !== '|') return false;
  i = skipBlanksBack(text, i - 1);
  if (i >= 0 && text[i] !== '\n') return false;
  return /^\s*\|/u.test(text.slice(span.end, span.end + 40));
}

/** The offset of the last character at or before `i` that is not white space other than a line feed (-1 when none). */
function skipBlanksBack(text: string, i: number): number {
  while (i >= 0 && text[i] !== '\n' && /\s/u.test(text[i] ?? '')) i--;
  return i;
}
