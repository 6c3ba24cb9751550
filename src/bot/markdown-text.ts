/**
 * Text of a pull request's body that came from a submitter or a catalogue, made plain
 * GitHub Flavored Markdown (pull-request-body.ts says what that takes), and a body kept within
 * GitHub's size. Shared by the submission bot's body, the update bot's and the capability lines.
 * Pure.
 */

/** Options of {@link escapeMarkdown}. */
export interface EscapeOptions {
  /** Line breaks become spaces (for a table cell or a one-line field). Default true. */
  inline?: boolean;
}

/**
 * C0 and C1 controls (but tab and line feed), zero-width and bidirectional controls, line and
 * paragraph separators, the BOM, and tag characters: what would hide or reorder text.
 */
export const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
// Every ASCII punctuation character that can start or end a Markdown construct, plus `\` itself
// (CommonMark: any ASCII punctuation may be backslash-escaped; GFM: `\|` inside a table cell).
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()+\-.!|~^=]/gu;

/**
 * `text` as plain GitHub Flavored Markdown text (pull-request-body.ts's module comment says what that takes). Pure.
 * E.g. `@octocat <b>|x|</b>` → `@&#8203;octocat &lt;b&gt;\|x\|&lt;/b&gt;`.
 */
export function escapeMarkdown(text: string, options: EscapeOptions = {}): string {
  let out = text.replace(/\r\n?/gu, '\n').replace(HIDDEN, '\ufffd');
  if (options.inline !== false) out = out.replace(/(?<!\s)\s*\n\s*/gu, ' ').trim();
  out = out.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  out = out.replace(MARKDOWN_PUNCTUATION, '\\$&');
  // A zero-width space after @ and # breaks mentions (@user, @org/team) and references (#12,
  // owner/repo#12); one before the hyphen of GH-12 (an issue reference) and GHSA-… (a security
  // advisory) breaks those, in any case (GitHub Docs, "Autolinked references and URLs").
  return out.replace(/[@#]/gu, '$&&#8203;').replace(/(?<=(?<![a-z0-9])gh(?:sa)?)\\-/giu, '&#8203;\\-');
}

/** `body` as it is when it has at most `maxBytes` UTF-8 bytes, else cut at a line boundary and ended by a rule and `notice`. Pure. */
export function capMarkdown(body: string, maxBytes: number, notice_: string): string {
  if (Buffer.byteLength(body, 'utf8') <= maxBytes) return body;
  const notice = `\n\n---\n${notice_}\n`;
  const room = maxBytes - Buffer.byteLength(notice, 'utf8');
  // Cut the UTF-8 encoding, then back to the last whole line (which also drops a cut character).
  const kept = Buffer.from(body, 'utf8').subarray(0, Math.max(0, room)).toString('utf8');
  return `${kept.slice(0, Math.max(0, kept.lastIndexOf('\n')))}${notice}`;
}
