/**
 * Whether Markdown shows a command as something not to do (docs/authoring.md "What the checks
 * look for"). Two reach: {@link isWarned} reads only the command's own clause, the lead-in of
 * its code block and the header of its table, and decides that content which forbids a command
 * does not use it ("Do not run `npm install` here"); {@link isCounterExample} also reads the
 * nearest heading, the lead-in of a list and the comments above a line of code, and turns a
 * risky command shown under "## Insecure settings", "**Avoid:**" or "// Bad" into a notice
 * rather than a failure. Scripts and other files are never warned: what they run, they run,
 * whatever their comments say.
 */
import type { TextRange } from '../../catalogue/markdown.js';
import type { ScanText } from './scan-text.js';

/**
 * Words that, placed before a command in its clause, forbid it ("never pipe `curl … | sh`",
 * "use X instead of `Y`"). After the command they speak of something else: "run `curl …`
 * rather than guessing" asks for the command.
 */
const FORBIDS = /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|avoid(?:ing)?|instead of|rather than|forbid(?:s|den)?|prohibit(?:s|ed)?|disallow(?:s|ed)?|deny|denies|denied|reject(?:s|ed)?|refus(?:e|es|ed))\b/iu;

/** A guard that stops the command it names ("the hook blocks `rm -rf ~`"); not in a lead-in, where "the script detects your OS:" introduces a command to run. */
const GUARDS = /\b(?:blocks|blocked|stops|prevents|detects|flags|catches|guards? against|protects? against|warns? (?:about|against))\b/iu;

/** Words that call a command dangerous wherever they stand in its clause ("`rm -rf /` is dangerous"). */
const CONDEMNS = /\b(?:dangerous|insecure|unsafe|vulnerable|vulnerabilit(?:y|ies)|risky|malicious|anti-?patterns?|not recommended|bad (?:example|practice|pattern|idea|code)|attack(?:er|s)?|exploit(?:s|able)?)\b|❌|✗|🚫|⛔/iu;

/** Everything a line before a code block or table may say to present it as a counter-example ("Bad, never do this:", "The hook refuses these:"). */
const WARNING = new RegExp(`${FORBIDS.source}|${CONDEMNS.source}|\\b(?:bad|wrong|incorrect)\\b`, 'iu');

/** A heading over counter-examples: "## Insecure settings", "### Avoid", "## What to detect", "## Common mistakes". */
const WARNING_HEADING = /\b(?:insecure|vulnerab\w*|unsafe|dangerous|risky|malicious|bad|wrong|incorrect|avoid|anti-?patterns?|don'?ts?|do not|never|pitfalls?|mistakes?|red flags?|what not to|forbidden|prohibited|attacks?|exploits?|detect\w*|flag(?:s|ged)?|deny|denied|blocked)\b|❌|🚫|⛔/iu;

/** A label that opens a clause or comment and calls what follows a counter-example: "Bad:", "**Insecure:**", "❌", "// avoid this", "# Vulnerable". */
const LABEL = /^[\s>*_#/;:!-]*(?:❌|✗|🚫|⛔|(?:bad|wrong|incorrect|insecure|vulnerable|unsafe|dangerous|noncompliant|non-compliant|anti-?pattern|avoid|don'?t|do not|never)(?:\s+(?:example|pattern|practice|code|usage|approach|this|these|config(?:uration)?))?\b[\s*_]*(?:[:.!—–(-]|$))/iu;

/** In a line of code (a comment beside the command), only an outright prohibition counts: "# avoid prompts" is no warning. */
const PROHIBITION = /\b(?:never|don'?t|do not|must not|should not|shouldn'?t|not recommended|dangerous|unsafe|insecure|vulnerable|malicious|anti-?pattern)\b|❌|✗|🚫|⛔/iu;

const TABLE_ROW = /^\s*\|/u;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s/u;
const ATX_HEADING = /^ {0,3}#{1,6}(?:\s|$)/u;
/** Where a comment starts after code on its line: `#`, `//`, `/*`, `<!--` after a space. */
const COMMENT_START = /(?:^|\s)(?:#(?!!)|\/\/|\/\*|<!--)/u;
/** A line of code that is a comment: `#`, `//`, `--`, `/*`, `*`, `<!--`, `;`, `REM`. */
const COMMENT_LINE = /^(?:#(?!!)|\/\/|--|\/\*|\*|<!--|;|REM\s)/u;

/**
 * True when the Markdown around a match forbids it: the match's own clause (see
 * {@link FORBIDS}, {@link CONDEMNS}); for a line of a fenced block, a prohibition on the line
 * or a warning in the two lines that lead into the block; for a row of a table, the row, the
 * table's header row and the two lines before the table ("| Dangerous command | Why |").
 * `line` is 1-based; `match` the offsets of the match in the file. Pure.
 */
export function isWarned(scan: ScanText, line: number, match: TextRange): boolean {
  return warnedHere(scan, line, match) === true;
}

/**
 * True when the Markdown shows the match as an example of what not to do: {@link isWarned},
 * or a label in the comments just above it in its code block, or a lead-in of its list that
 * warns ("**Flag these insecure settings:**"), or the nearest heading above it
 * ({@link WARNING_HEADING}). Pure.
 */
export function isCounterExample(scan: ScanText, line: number, match: TextRange): boolean {
  const block = warnedHere(scan, line, match);
  if (block === undefined) return false;
  if (block === true) return true;
  if (block !== null && commentAboveWarns(scan, line, block)) return true;
  if (block === null && LIST_ITEM.test(scan.lines.lineText(line)) && listLeadInWarns(scan, line)) return true;
  return headingWarns(scan, line);
}

/**
 * `true` when warned; otherwise undefined for files that are not Markdown, the first content
 * line of the match's fenced block when it is in one, or null for prose and tables.
 */
function warnedHere(scan: ScanText, line: number, match: TextRange): true | number | null | undefined {
  if (!scan.markdown) return undefined;
  const offset = scan.lines.startOf(line);
  const block = scan.blocks.find((b) => b.contentStart <= offset && offset < b.end);
  const text = scan.lines.lineText(line);
  const from = Math.max(0, match.start - offset);
  const to = Math.min(text.length, match.end - offset);
  if (block !== undefined) {
    const fence = scan.lines.lineOf(block.start);
    const rest = `${text.slice(0, from)} ${text.slice(to)}`;
    return PROHIBITION.test(rest) || commentLabels(text.slice(to)) || leadInWarns(scan, fence - 1) ? true : fence + 1;
  }
  if (TABLE_ROW.test(text)) {
    const row = `${text.slice(0, from)} ${text.slice(to)}`;
    if (WARNING.test(row) || GUARDS.test(row)) return true;
    let header = line;
    while (header > 1 && TABLE_ROW.test(scan.lines.lineText(header - 1))) header--;
    const headerText = scan.lines.lineText(header);
    return (header !== line && (WARNING.test(headerText) || GUARDS.test(headerText))) || leadInWarns(scan, header - 1) ? true : null;
  }
  return clauseWarns(scan, line, from, to) ? true : null;
}

/**
 * The clause of a prose line around `[from, to)`: clauses end at `.`, `!`, `?`, `;` or `:`
 * followed by a space, read in the line with code spans blanked so that dots inside code do
 * not cut it. A forbidding word counts before the match; a condemning word anywhere; a label
 * clause just before ("Bad: `curl … | sh`") counts too.
 */
function clauseWarns(scan: ScanText, line: number, from: number, to: number): boolean {
  const start = scan.lines.startOf(line);
  const prose = scan.view.prose.slice(start, start + scan.lines.lineText(line).length);
  const text = scan.lines.lineText(line);
  const bounds = [0];
  for (const m of prose.matchAll(/[.!?;:](?=\s|$)/gu)) bounds.push(m.index + 1);
  bounds.push(text.length);
  let i = 0;
  while (i < bounds.length - 2 && (bounds[i + 1] ?? 0) <= from) i++;
  const clauseStart = bounds[i] ?? 0;
  const clauseEnd = Math.max(bounds[i + 1] ?? text.length, to);
  const before = text.slice(clauseStart, from);
  if (FORBIDS.test(before) || GUARDS.test(before) || CONDEMNS.test(`${before} ${text.slice(to, clauseEnd)}`) || /\b(?:bad|wrong|incorrect)\b/iu.test(before)) return true;
  const previous = i > 0 ? text.slice(bounds[i - 1] ?? 0, clauseStart) : '';
  return LABEL.test(previous.trim()) || /❌|✗|🚫|⛔/u.test(text);
}

/** True when the comment part of `code` (a line of a code block, or its tail after a match) labels it: "# insecure", "// Bad: …". */
function commentLabels(code: string): boolean {
  const at = COMMENT_START.exec(code);
  if (at === null) return false;
  return labels(code.slice(at.index));
}

/** True when a comment (with its marker) labels the code as a counter-example or prohibits it. */
function labels(comment: string): boolean {
  const words = comment.replace(/^\s*(?:#+|\/\/+|--|\/\*+|\*+|<!--|;+|REM)\s*/u, '');
  return LABEL.test(words) || PROHIBITION.test(words);
}

/** True when a comment line above `line`, in the same run of non-blank lines of its block (which starts at `first`), labels it. */
function commentAboveWarns(scan: ScanText, line: number, first: number): boolean {
  for (let l = line - 1; l >= first && l > line - 8; l--) {
    const text = scan.lines.lineText(l);
    if (text.trim() === '') return false;
    const trimmed = text.trimStart();
    if (COMMENT_LINE.test(trimmed) && labels(trimmed)) return true;
  }
  return false;
}

/** True when one of the two non-empty lines up to 1-based `last` (before a block's fence or a table's header) warns ("Bad:", "Never do this:"). */
function leadInWarns(scan: ScanText, last: number): boolean {
  let checked = 0;
  for (let l = last; l >= 1 && checked < 2; l--) {
    const text = scan.lines.lineText(l);
    if (text.trim() === '') continue;
    checked++;
    if (WARNING.test(text)) return true;
  }
  return false;
}

/** True when the line that introduces the list holding `line` warns ("Flag these insecure settings:"). */
function listLeadInWarns(scan: ScanText, line: number): boolean {
  for (let l = line - 1; l >= 1 && l > line - 60; l--) {
    const text = scan.lines.lineText(l);
    if (text.trim() === '' || LIST_ITEM.test(text) || /^\s{2,}\S/u.test(text)) continue;
    return !ATX_HEADING.test(text) && WARNING.test(text);
  }
  return false;
}

/** True when the nearest ATX heading above `line` (outside code blocks) introduces counter-examples. */
function headingWarns(scan: ScanText, line: number): boolean {
  const text = scan.view.withoutBlocks;
  for (let l = line - 1; l >= 1; l--) {
    const start = scan.lines.startOf(l);
    if (text.charCodeAt(start) !== 0x23 && text.charCodeAt(start) !== 0x20) continue; // neither '#' nor an indent
    const heading = scan.lines.lineText(l);
    if (text.slice(start, start + heading.length) !== heading || !ATX_HEADING.test(heading)) continue;
    return WARNING_HEADING.test(heading);
  }
  return false;
}
