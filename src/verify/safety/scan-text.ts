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
 * Words that mark prose as a warning or a counter-example ("never pipe curl into sh",
 * "❌ Bad:"), so that content which forbids a risky command is not flagged for showing it.
 */
const WARNING = /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|avoid|instead of|rather than|not recommended|forbid(?:den)?|prohibit(?:ed)?|disallow(?:ed)?|dangerous|insecure|unsafe|vulnerable|bad|wrong|anti-?pattern|risky|malicious|attack(?:er)?|deny|denied|reject(?:s|ed)?|refus(?:e|es|ed))\b|❌|✗|🚫|⛔/iu;

/** A prose line that describes a guard ("the hook blocks `rm -rf /`") shows the command it stops; a lead-in to a block does not count these. */
const GUARD = /\b(?:blocks|blocked|stops|prevents|detects|flags|catches|guards? against|protects? against)\b/iu;

/** In a line of code (a comment beside the command), only an outright prohibition counts: "# avoid prompts" is no warning. */
const PROHIBITION = /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|not recommended|dangerous|unsafe|malicious|anti-?pattern)\b|❌|✗|🚫|⛔/iu;

/**
 * True when the Markdown around a finding warns against what it shows: its line outside the
 * match itself ("insecure" in `curl --insecure` is no warning); for a line of a fenced block,
 * the two lines that lead into the block; for a row of a table, the table's header row and
 * the two lines before the table ("| Dangerous command | Why |"). Scripts and other files are
 * never warned: what they run, they run, whatever their comments say.
 */
export function isWarned(scan: ScanText, line: number, match?: TextRange): boolean {
  if (!scan.markdown) return false;
  const offset = scan.lines.startOf(line);
  const block = scan.blocks.find((b) => b.contentStart <= offset && offset < b.end);
  let text = scan.lines.lineText(line);
  if (match !== undefined) {
    const from = Math.max(0, match.start - offset);
    text = `${text.slice(0, from)} ${text.slice(Math.min(text.length, match.end - offset))}`;
  }
  if (block !== undefined) return PROHIBITION.test(text) || leadInWarns(scan, scan.lines.lineOf(block.start));
  if (WARNING.test(text) || GUARD.test(text)) return true;
  if (!TABLE_ROW.test(text)) return false;
  let header = line;
  while (header > 1 && TABLE_ROW.test(scan.lines.lineText(header - 1))) header--;
  const headerText = scan.lines.lineText(header);
  return (header !== line && (WARNING.test(headerText) || GUARD.test(headerText))) || leadInWarns(scan, header);
}

const TABLE_ROW = /^\s*\|/u;

/** True when one of the two non-empty lines before 1-based `first` (a block's fence, a table's header) warns ("Bad:", "Never do this:"). */
function leadInWarns(scan: ScanText, first: number): boolean {
  let checked = 0;
  for (let l = first - 1; l >= 1 && checked < 2; l--) {
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
