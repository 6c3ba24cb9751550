/**
 * The title and body of a project's update pull request (update-pull-request.ts; the update
 * Action, docs/authoring.md "Checking in GitHub Actions"): the installs `loadout update` moved,
 * then for each its changelog, its capability change as `loadout update --json` reports it, its
 * files and manual steps, and last the diffs, as many as fit. Pure: no I/O.
 *
 * Everything here comes from a catalogue (commit subjects, file contents, targets, manual
 * steps) and is untrusted: text goes through pull-request-body.ts `escapeMarkdown` (no HTML, no
 * mention or issue reference, no broken table), a diff goes in a fenced block whose fence is
 * longer than any run of backticks in it, with hidden and bidirectional characters shown as
 * U+FFFD. Diffs that do not fit {@link MAX_BODY_BYTES} are left out, saying how many; the
 * pull request's own file view shows them all.
 */
import type { CapabilityChange } from '../capabilities/compare.js';
import { capabilityChangeLines } from './capabilities-markdown.js';
import { capMarkdown, escapeMarkdown, HIDDEN } from './markdown-text.js';
import { MAX_BODY_BYTES } from './pull-request-body.js';

/** One install `loadout outdated --json` lists (install/outdated.ts `OutdatedRow`). */
export interface OutdatedInstall {
  id: string;
  agent: string;
  installed: string;
  latest: string | null;
  outdated: boolean;
  source: string;
  error?: string;
  /** The latest version when the policy's `min_release_age` holds it back (absent from a `loadout outdated` older than policies). */
  held?: { version: string; eligible_at: string } | null;
  /** What the policy refuses of the install or its update, each naming its rule. */
  policy?: { rule: string; message: string }[];
}

/** One update as `loadout update --json` prints it (install/update.ts `LoadoutUpdate`), the fields the body shows. */
export interface PrintedUpdate {
  id: string;
  agent: string;
  source: string;
  from: string;
  to: string;
  changelog: { direction: string; entries: { version: string; date: string | null; changes: string[] }[] };
  files: { target: string; change: string; action: string; diff?: string; note?: string }[];
  manual_steps: { path: string; text: string }[];
  /** What the update changes in what the loadout lets the agent run and reach (`capabilities/compare.ts` `CapabilityChange`); absent from a `loadout update` older than capability lists. */
  capabilities?: CapabilityChange;
}

/** What the body says. */
export interface UpdateBodyInput {
  updates: PrintedUpdate[];
  /** The policy file `loadout outdated` and `loadout update` ran under, relative to the repository; null without one. */
  policy: string | null;
  /** Installs whose catalogue could not be read: `id for agent: why`. */
  errors: string[];
  /** The installs `loadout outdated` listed, for what the policy held back or refused (none: not said). */
  rows?: OutdatedInstall[];
}

/** `Update kit to 1.1.0`, or `Update 3 loadouts` when several loadouts move. */
export function updatePullRequestTitle(updates: readonly PrintedUpdate[]): string {
  const ids = [...new Set(updates.map((u) => u.id))];
  const [only] = updates;
  if (ids.length === 1 && only !== undefined) return `Update ${only.id} to ${only.to}`;
  return `Update ${ids.length} loadouts`;
}

/** The body, at most `maxBytes` UTF-8 bytes. */
export function renderUpdatePullRequestBody(input: UpdateBodyInput, maxBytes = MAX_BODY_BYTES): string {
  const lines: string[] = [
    `\`loadout update\` moves these installs to their catalogues' latest versions${input.policy === null ? '' : `, as the policy ${escapeMarkdown(input.policy)} allows`}.`,
    '',
    'Opened by `loadout ci update-pr` (the loadout update Action). Running it again replaces this branch and this description.',
    '',
    '| Loadout | Agent | From | To | Catalogue |',
    '|---|---|---|---|---|',
    ...input.updates.map((u) => `| ${[u.id, u.agent, u.from, u.to, u.source].map((v) => escapeMarkdown(v)).join(' | ')} |`),
  ];
  if (input.errors.length > 0) lines.push('', '**Not checked** (their catalogue could not be read):', '', ...input.errors.map((e) => `- ${escapeMarkdown(e)}`));
  lines.push(...describePolicy(input.rows ?? [], input.policy));
  for (const u of input.updates) lines.push('', ...describeUpdate(u));
  const body = `${lines.join('\n')}\n`;
  return capMarkdown(appendDiffs(body, input.updates, maxBytes), maxBytes, `_This description was cut at ${maxBytes} bytes: the pull request's files show every change._`);
}

/** What the policy held back (`min_release_age`, with the time each becomes eligible) and what it refused (each rule's sentence), or nothing. */
function describePolicy(rows: readonly OutdatedInstall[], policy: string | null): string[] {
  const lines: string[] = [];
  const where = policy === null ? 'the policy' : `the policy ${escapeMarkdown(policy)}`;
  const held = rows.filter((r) => r.held !== undefined && r.held !== null);
  if (held.length > 0) {
    lines.push('', `**Held back by ${where}** (\`min_release_age\`): the update moves to the newest version old enough.`, '');
    for (const r of held) lines.push(`- ${escapeMarkdown(`${r.id} for ${r.agent}: ${r.held?.version ?? ''} is eligible ${r.held?.eligible_at === 'never' ? 'never (its catalogue gives it no date)' : `from ${r.held?.eligible_at ?? ''}`}`)}`);
  }
  const refused = rows.filter((r) => (r.policy ?? []).length > 0);
  if (refused.length > 0) {
    lines.push('', `**Refused by ${where}**, and not in this pull request:`, '');
    for (const r of refused) for (const v of r.policy ?? []) lines.push(`- ${escapeMarkdown(`${r.id} for ${r.agent}: ${v.message}`)}`);
  }
  return lines;
}

function describeUpdate(u: PrintedUpdate): string[] {
  const lines = [`### ${escapeMarkdown(`${u.id} for ${u.agent}: ${u.from} → ${u.to}`)}`, '', `#### ${u.changelog.direction === 'downgrade' ? 'Changes taken back' : 'Changelog'}`, ''];
  if (u.changelog.entries.length === 0) lines.push('_The catalogue publishes no changes for these versions._');
  for (const entry of u.changelog.entries) {
    lines.push(`- **${escapeMarkdown(entry.version)}**${entry.date === null ? '' : ` (${escapeMarkdown(entry.date)})`}`);
    if (entry.changes.length === 0) lines.push('  - _no changes listed_');
    for (const change of entry.changes) lines.push(`  - ${escapeMarkdown(change)}`);
  }
  if (u.capabilities !== undefined) lines.push('', `#### What it can run${u.capabilities.widens ? ': this update adds to it (review before merging)' : ''}`, '', ...capabilityChangeLines(u.capabilities));
  lines.push('', '#### Files', '', '| File | Change |', '|---|---|');
  for (const f of u.files) {
    const kept = f.action === 'keep' ? ' (kept: you changed it)' : '';
    lines.push(`| ${escapeMarkdown(f.target)} | ${escapeMarkdown(`${f.change}${kept}${f.note === undefined ? '' : `: ${f.note}`}`)} |`);
  }
  if (u.manual_steps.length > 0) {
    lines.push('', '#### Manual steps', '');
    for (const step of u.manual_steps) lines.push(`- ${escapeMarkdown(step.path)}: ${escapeMarkdown(step.text)}`);
  }
  return lines;
}

/** `body` with a "Diffs" section of as many whole diffs as fit in `maxBytes`, and how many were left out. */
function appendDiffs(body: string, updates: readonly PrintedUpdate[], maxBytes: number): string {
  const diffs = updates.flatMap((u) => u.files.filter((f) => f.diff !== undefined && f.diff !== '').map((f) => ({ title: `${u.id} for ${u.agent}: ${f.target}`, diff: f.diff ?? '' })));
  if (diffs.length === 0) return body;
  const open = '\n<details><summary>Diffs</summary>\n\n';
  const close = '\n</details>\n';
  const leftOut = (n: number): string => `_${n} diff${n === 1 ? '' : 's'} left out here for length: the pull request's files show ${n === 1 ? 'it' : 'them'}._\n`;
  let section = '';
  let shown = 0;
  for (const d of diffs) {
    const part = `**${escapeMarkdown(d.title)}**\n\n${codeBlock('diff', d.diff).join('\n')}\n\n`;
    const total = body + open + section + part + (shown + 1 < diffs.length ? leftOut(diffs.length - shown - 1) : '') + close;
    if (Buffer.byteLength(total, 'utf8') > maxBytes) break;
    section += part;
    shown += 1;
  }
  if (shown === 0) return `${body}\n${leftOut(diffs.length)}`;
  return `${body}${open}${section}${shown < diffs.length ? leftOut(diffs.length - shown) : ''}${close}`;
}

/** `text` in a fenced code block of `language`, its fence longer than any run of backticks in it (CommonMark 4.5). */
function codeBlock(language: string, text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text.replace(/\r\n/gu, '\n').replace(HIDDEN, '\ufffd').replace(/\n$/u, ''), fence];
}
