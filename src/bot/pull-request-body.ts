/**
 * The title and body of a submission's pull request (docs/maintaining.md, "Maintainers"): `Add <id>
 * <version>`; a summary of the submission, the ten checks as a Markdown table, what the loadout
 * can run (issue 54, point 4) and, when the catalogue publishes a version of it, what it changes
 * against that version, and the reviewer notes. Pure: no I/O.
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
import { compareCapabilities } from '../capabilities/compare.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { capabilityChangeLines, capabilityLines } from './capabilities-markdown.js';
import { capMarkdown, escapeMarkdown } from './markdown-text.js';

export { capMarkdown, escapeMarkdown, HIDDEN, type EscapeOptions } from './markdown-text.js';

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
  /** What the branch's loadout can run, as its checks derived it (`CheckRun.capabilities`); absent when they made none. */
  capabilities?: CapabilityLists;
  /** The version the catalogue publishes of this loadout id and its capability list (absent from a catalogue built before them): the body shows what the submission changes against it. */
  published?: { version: string; capabilities?: CapabilityLists };
}

/** The section on what the loadout can run: its list, then, for a loadout the catalogue publishes, the change against that version. */
function capabilitySection(input: PullRequestBodyInput): string[] {
  const lines = ['### What it can run', '', ...(input.capabilities === undefined ? ['_Not known: the checks could not read what it runs._'] : capabilityLines(input.capabilities))];
  const published = input.published;
  if (published === undefined) return lines;
  lines.push('', `### What it changes against ${escapeMarkdown(published.version)}, the published version`, '');
  if (published.capabilities === undefined || input.capabilities === undefined) {
    lines.push('_Not known: the catalogue publishes no capability list for that version, or the checks made none._');
    return lines;
  }
  const change = compareCapabilities(published.capabilities, input.capabilities);
  if (change.widens) lines.push('**It adds to what the loadout can run: review each item before merging.**', '');
  lines.push(...capabilityChangeLines(change));
  return lines;
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
    ...capabilitySection(input),
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
