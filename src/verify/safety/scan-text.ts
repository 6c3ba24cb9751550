/**
 * One file of a loadout prepared for the safety rules: its lines, and for Markdown which
 * parts are code (fenced blocks, inline code spans) and which are prose. Built once per file.
 * Whether the Markdown around a match warns against it is `warnings.ts`'s question.
 */
import { TextView } from '../text/view.js';
import type { LineIndex } from '../text/line-index.js';
import { isMarkdownPath, type CodeBlock, type TextRange } from '../text/markdown.js';

/** A file's text with the views the safety rules need. */
export interface ScanText {
  path: string;
  text: string;
  lines: LineIndex;
  /** The shared views of the text (code blanked, …). */
  view: TextView;
  markdown: boolean;
  /** Fenced code blocks (Markdown only). */
  blocks: CodeBlock[];
  /** The code of the file: for Markdown the contents of fenced blocks and code spans, for other files the whole text. Sorted, not overlapping. */
  codeRegions: TextRange[];
}

/** Prepares `text` of the loadout file `path`, sharing `view` when the caller has one. Pure. */
export function prepareScanText(path: string, text: string, view = new TextView(text)): ScanText {
  const lines = view.lines;
  if (!isMarkdownPath(path)) return { path, text, lines, view, markdown: false, blocks: [], codeRegions: [{ start: 0, end: text.length }] };
  const blocks = view.blocks;
  // A code span that fills the first cell of a table row names a term ("| `npm install` | Download … |"), it does not run it.
  const spans = view.codeSpans.filter((s) => !isTermCell(text, s));
  const codeRegions = [...blocks.map((b) => ({ start: b.contentStart, end: b.contentEnd })), ...spans].sort((a, b) => a.start - b.start);
  return { path, text, lines, view, markdown: true, blocks, codeRegions };
}

function isTermCell(text: string, span: TextRange): boolean {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  if (!/^\s*\|\s*$/u.test(text.slice(lineStart, span.start))) return false;
  return /^\s*\|/u.test(text.slice(span.end, span.end + 40));
}
