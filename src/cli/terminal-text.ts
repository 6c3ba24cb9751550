/**
 * Text from a catalogue (commit subjects in a changelog, file contents in a diff, names) or from
 * a submission (notes, file paths, check summaries, key names) is written to a terminal only
 * through {@link printable}: a control character there could move the cursor, rewrite what was
 * printed before, change the window title, write the clipboard (OSC 52) or hide text (ECMA-48
 * escape and control sequences, C0 and C1 alike, U+009B being a one-character CSI; bidirectional
 * overrides and isolates, CVE-2021-42574 "Trojan Source"; line and paragraph separators, which
 * some terminals and viewers break lines at). They are shown as `\u{…}` instead. One field on a
 * line of ours goes through {@link printableLine}, which also shows line feeds and tabs, so a
 * field cannot forge a line or a column. JSON output goes through {@link printableJson}:
 * JSON.stringify escapes C0 controls but not DEL, C1 controls, the bidirectional characters or
 * U+2028/U+2029.
 */

/**
 * C0 controls except tab and line feed, DEL, C1 controls, the bidirectional marks, overrides and
 * isolates (Unicode UAX #9: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and the line
 * and paragraph separators U+2028 and U+2029.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every unsafe character written as `\u{hex}`; line feeds and tabs kept (a diff, a block of text). */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/** {@link printable} for one field on one line: line feeds and tabs shown as `\u{a}` and `\u{9}` too. */
export function printableLine(text: string): string {
  return printable(text).replaceAll('\n', '\\u{a}').replaceAll('\t', '\\u{9}');
}

/** Characters JSON.stringify leaves as they are but a terminal may act on (and U+2028/U+2029, which break some JSON readers). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `JSON.stringify(value, null, indent)` with those characters written as `\uXXXX` escapes: the same JSON value, safe on a terminal (`indent` 0: one line). */
export function printableJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(JSON_UNSAFE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
