/**
 * One file of a loadout prepared for the safety rules: its lines, and for Markdown which
 * parts are code (fenced blocks, inline code spans) and which are prose. Built once per file.
 */
import { codeBlocksOf } from '../text/memo.js';
import { LineIndex } from '../text/line-index.js';
import { blankRanges, findCodeSpans, isMarkdownPath, type CodeBlock } from '../text/markdown.js';

/** A file's text with the views the safety rules need. */
export interface ScanText {
  path: string;
  text: string;
  lines: LineIndex;
  markdown: boolean;
  /** Fenced code blocks (Markdown only). */
  blocks: CodeBlock[];
  /** The code of the file: for Markdown the contents of fenced blocks and code spans, for other files the whole text. Sorted, not overlapping. */
  codeRegions: { start: number; end: number }[];
}

/** Prepares `text` of the loadout file `path`. Pure. */
export function prepareScanText(path: string, text: string): ScanText {
  const lines = new LineIndex(text);
  if (!isMarkdownPath(path)) return { path, text, lines, markdown: false, blocks: [], codeRegions: [{ start: 0, end: text.length }] };
  const blocks = codeBlocksOf(text);
  const withoutBlocks = blankRanges(text, blocks);
  // A code span that fills the first cell of a table row names a term ("| `npm install` | Download … |"), it does not run it.
  const spans = findCodeSpans(withoutBlocks).filter((s) => !isTermCell(text, s));
  const codeRegions = [...blocks.map((b) => ({ start: b.contentStart, end: b.contentEnd })), ...spans].sort((a, b) => a.start - b.start);
  return { path, text, lines, markdown: true, blocks, codeRegions };
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

function isTermCell(text: string, span: { start: number; end: number }): boolean {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  if (!/^\s*\|\s*$/u.test(text.slice(lineStart, span.start))) return false;
  return /^\s*\|/u.test(text.slice(span.end, span.end + 40));
}
