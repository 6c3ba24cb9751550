/**
 * The title and body of a submission's pull request (docs/maintaining.md, "Maintainers"): `Add <id>
 * <version>`; a summary of the submission, the ten checks as a Markdown table, and the reviewer
 * notes. Pure: no I/O.
 *
 * Everything a submitter wrote is untrusted. {@link escapeMarkdown} makes it plain text in
 * GitHub Flavored Markdown: HTML cannot open (`<script>` shows as text), no Markdown construct
 * starts (links, images, emphasis, headings, lists, code), `|` cannot end a table cell, a line
 * break cannot end a table row, and `@name` / `#123` / `GH-123` / `GHSA-…` cannot mention a person
 * or reference an issue or advisory (a zero-width space breaks each, as Renovate does for `@`
 * and `#`). Invisible and bidirectional
 * characters show as U+FFFD, so the text reviewers see is the text there is.
 */
import type { CheckResult } from '../tree-format/verification.js';

/**
 * Most UTF-8 bytes in a body. GitHub refuses bodies over 65,536 characters; counting bytes
 * (never fewer than characters or UTF-16 units) and stopping at 50,000 keeps well below it
 * however GitHub counts.
 */
export const MAX_BODY_BYTES = 50_000;

/** What the body says about a submission. */
export interface PullRequestBodyInput {
  submissionId: string;
  loadoutId: string;
  version: string;
  /** The stored submission fields (`name`, `summary`, `author`, `notes`, …), as sent. */
  request: Record<string, unknown>;
  /** Every file of the loadout folder, `loadout.yaml` included. */
  files: { path: string; bytes: number }[];
  /** The checks run on the branch's folder, in order. */
  checks: CheckResult[];
  /** `Verified install: 9 of 9 automated checks pass`. */
  verificationLabel: string;
  /** The catalogue's policy the checks held it to (`LOADOUT_POLICY`; its findings are `policy/<rule>`), when there is one. */
  policy?: string;
  /** The maintainers' decisions: who accepted it, when (ISO 8601), and their note. */
  decisions: { actor: string; at: string; note: string | null }[];
}

/** `Add <id> <version>`. */
export function pullRequestTitle(loadoutId: string, version: string): string {
  return `Add ${loadoutId} ${version}`;
}

/** The body, at most `maxBytes` UTF-8 bytes; a cut body says so at its end. */
export function renderPullRequestBody(input: PullRequestBodyInput, maxBytes = MAX_BODY_BYTES): string {
  const r = input.request;
  const text = (key: string): string | undefined => (typeof r[key] === 'string' ? r[key] : undefined);
  const list = (key: string): string => (Array.isArray(r[key]) ? r[key].filter((v): v is string => typeof v === 'string').join(', ') : '');
  const author = r['author'] as { name?: unknown; url?: unknown; github?: unknown } | undefined;
  const authorText = [typeof author?.name === 'string' ? author.name : 'Anonymous contributor', typeof author?.github === 'string' ? `(GitHub: ${author.github})` : '', typeof author?.url === 'string' ? author.url : '']
    .filter((part) => part !== '')
    .join(' ');
  const totalBytes = input.files.reduce((sum, f) => sum + f.bytes, 0);
  const decided = input.decisions.map((d) => `${escapeMarkdown(d.actor)} on ${escapeMarkdown(d.at.slice(0, 10))}`).join('; ');

  const lines: string[] = [
    `Adds the loadout \`${escapeCode(input.loadoutId)}\` ${escapeMarkdown(input.version)} from submission \`${escapeCode(input.submissionId)}\`${decided === '' ? '' : `, accepted by ${decided}`}.`,
    '',
    'Opened by `loadout submissions pr`. Running it again replaces this branch and this description; edit the files in a commit of your own.',
    '',
    '### Submission',
    '',
    '| Field | Value |',
    '|---|---|',
    row('Name', text('name') ?? input.loadoutId),
    row('Summary', text('summary') ?? ''),
    row('Category', text('category') ?? ''),
    row('Stacks', list('stacks')),
    row('Agents', list('agents')),
    row('Licence', text('licence') ?? ''),
    row('Author', authorText),
    row('Source', text('source_url') ?? ''),
    row('Files', `${input.files.length} files, ${totalBytes} bytes: ${input.files.map((f) => f.path).join(', ')}`),
    '',
    `### Checks: ${escapeMarkdown(input.verificationLabel)}`,
    '',
    '| Check | Result | Summary |',
    '|---|---|---|',
    ...input.checks.map((c) => `| \`${escapeCode(c.id)}\` | ${c.status === 'fail' ? '**fail**' : escapeMarkdown(c.status)} | ${escapeMarkdown(c.summary, { inline: true })} |`),
    ...(input.policy === undefined ? [] : ['', `The checks held it to the catalogue's policy ${escapeMarkdown(input.policy)} (docs/policy.md): a break of its rules is a failing check that names the rule, \`policy/<rule>\`.`]),
    '',
    '### Reviewer notes',
    '',
  ];
  const notes = text('notes');
  lines.push(notes === undefined || notes.trim() === '' ? '_The submitter left no notes._' : quote(notes));
  for (const d of input.decisions.filter((x) => x.note !== null && x.note.trim() !== '')) {
    lines.push('', `${escapeMarkdown(d.actor)}:`, '', quote(d.note ?? ''));
  }
  return capBody(`${lines.join('\n')}\n`, maxBytes, input.submissionId);
}

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
 * `text` as plain GitHub Flavored Markdown text (see the module comment). Pure.
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

/** A table row `| name | value |` with the value escaped to one line. */
function row(name: string, value: string): string {
  return `| ${name} | ${value === '' ? '-' : escapeMarkdown(value, { inline: true })} |`;
}

/** `text` as a block quote, line by line, escaped. */
function quote(text: string): string {
  return escapeMarkdown(text, { inline: false })
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line.trim()}`))
    .join('\n');
}

/** Text for a code span: only slugs and UUIDs go there, so anything else is dropped. */
function escapeCode(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/gu, '');
}

/** `body` cut at a line boundary to at most `maxBytes` UTF-8 bytes, with a note that says so. */
function capBody(body: string, maxBytes: number, submissionId: string): string {
  return capMarkdown(body, maxBytes, `_This description was cut at ${maxBytes} bytes. Run \`loadout submissions show ${escapeCode(submissionId)}\` for the whole submission._`);
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
