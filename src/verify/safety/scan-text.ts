/**
 * One file of a loadout prepared for the safety rules: its lines, and for Markdown which
 * parts are code (fenced blocks, inline code spans) and which are prose. Built once per file.
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

/**
 * Words that mark a line as a warning or a counter-example ("never pipe curl into sh",
 * "❌ Bad:"), so that content which forbids a risky command is not flagged for showing it.
 */
const WARNING = /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|avoid|instead of|rather than|not recommended|forbid(?:den)?|prohibit(?:ed)?|disallow(?:ed)?|dangerous|insecure|unsafe|vulnerable|bad|wrong|anti-?pattern|risky|malicious|attack(?:er)?|detect(?:s|ed|ion)?|flag(?:s|ged)?|block(?:s|ed)?|deny|denied|reject(?:s|ed)?|refuse)\b|❌|✗|🚫|⛔/iu;

/** True when 1-based `line` of `scan`, or the lead-in of the fenced block holding it, warns against what it shows. */
export function isWarned(scan: ScanText, line: number): boolean {
  if (WARNING.test(scan.lines.lineText(line))) return true;
  const offset = scan.lines.startOf(line);
  const block = scan.blocks.find((b) => b.contentStart <= offset && offset < b.end);
  if (block === undefined) return false;
  // The two non-empty lines before the fence introduce the block ("Bad:", "Never do this:").
  let checked = 0;
  for (let l = scan.lines.lineOf(block.start) - 1; l >= 1 && checked < 2; l--) {
    const text = scan.lines.lineText(l);
    if (text.trim() === '') continue;
    checked++;
    if (WARNING.test(text)) return true;
  }
  return false;
}

function isTermCell(text: string, span: TextRange): boolean {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  if (!/^\s*\|\s*$/u.test(text.slice(lineStart, span.start))) return false;
  return /^\s*\|/u.test(text.slice(span.end, span.end + 40));
}
