/**
 * Text from a catalogue (commit subjects in a changelog, file contents in a diff, names) is
 * written to a terminal only through {@link printable}: a control character there could move
 * the cursor, rewrite what was printed before, change the window title or hide text (ECMA-48
 * escape and control sequences; bidirectional overrides, CVE-2021-42574 "Trojan Source").
 * They are shown as `\u{…}` instead. JSON output goes through {@link printableJson}: JSON.stringify
 * escapes C0 controls but not DEL, C1 controls or the bidirectional characters.
 */

/** C0 controls except tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every unsafe character written as `\u{hex}`; newlines and tabs kept. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/** {@link printable} for one line: newlines shown as `\u{a}` too. */
export function printableLine(text: string): string {
  return printable(text).replaceAll('\n', '\\u{a}');
}

/** Characters JSON.stringify leaves as they are but a terminal may act on (and U+2028/U+2029, which break some JSON readers). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `JSON.stringify(value, null, 2)` with those characters written as `\uXXXX` escapes: the same JSON value, safe on a terminal. */
export function printableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
