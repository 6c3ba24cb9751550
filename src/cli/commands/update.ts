/** `loadout update [id…] [--agent A] [--to V] [--from URL|DIR] [--dir .] [--global] [--dry-run] [--force] [--json] [--require-signed] [--trust-key K]…`. */
import { LoadoutError } from '../../catalogue/errors.js';
import { isAgent, PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { updateLoadouts, type LoadoutUpdate } from '../../install/update.js';
import type { SigningPolicy } from '../../install/catalogue/signed-catalogue.js';
import { EXIT } from '../exit.js';
import { CONTEXT_NOTE, formatBackup, formatComposed, formatConflict, formatContext, formatContextChange, formatRefusal, formatSizeWarning, scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { checksSignatures, selfOriginNotice } from '../self-origin.js';
import { printable, printableJson, printableLine } from '../terminal-text.js';
import { formatCapabilityChange } from '../capabilities-report.js';
import { askYes, canAsk } from '../prompt.js';
import type { UpdatePreview } from '../../install/update.js';
import { resolvePolicy, type PolicyFlags } from '../policy-source.js';
import { formatHeld } from '../policy-report.js';

/** Options of {@link updateCommand}. */
export interface UpdateCommandOptions extends PolicyFlags {
  ids: string[];
  agent?: string;
  to?: string;
  from?: string;
  dir: string;
  global: boolean;
  dryRun: boolean;
  force: boolean;
  /** `--require-signed`, `--trust-key`. */
  signing?: SigningPolicy;
  /** `--verbose`: each agent's update in full, its diffs too (default: each loadout's update once, each diff once). */
  verbose?: boolean;
  /** `--accept-capabilities`: go on with updates that add to or widen what a loadout can run. */
  acceptCapabilities: boolean;
  /** Print `{updates: [{id, agent, source, from, to, changelog, capabilities, files, manual_steps, warnings, context}], current, added, removed, bundles, held, written, needs_consent}`. */
  json: boolean;
}

/**
 * Shows, per install, the changelog, each file's change with its unified diff and the change
 * in context cost, then updates (unless --dry-run); returns 0, or 1 when a block the user edited
 * stopped it (its diff on stderr). Everything the catalogue sent
 * (commit subjects, file contents) goes through `printable` first.
 * @throws LoadoutError `usage` for a bad --agent
 */
export async function updateCommand(options: UpdateCommandOptions, out: Write, err: Write): Promise<number> {
  if (options.agent !== undefined && !isAgent(options.agent)) throw new LoadoutError('usage', `--agent is ${JSON.stringify(options.agent)} (expected one of ${PUBLISHED_AGENTS.join(', ')})`);
  // The capability changes are shown before anything is written; one that adds or widens is asked about on a terminal (issue 54, point 3).
  const confirm = async (preview: UpdatePreview): Promise<boolean> => {
    if (!options.json) for (const u of preview.updates) out(formatCapabilityChange(`What ${u.id} ${u.from} → ${u.to} changes in what it can run for ${u.agent}`, u.capabilities));
    if (!preview.needsConsent) return true;
    if (options.json || !canAsk()) return false;
    return askYes('Update with what it adds to what it can run?');
  };
  const scope = scopeOf(options);
  const policy = await resolvePolicy(options, { project: options.global ? undefined : scope.root, env: process.env });
  const outcome = await updateLoadouts({
    ...(policy === undefined ? {} : { policy }),
    scope,
    acceptCapabilities: options.acceptCapabilities,
    confirm,
    ids: options.ids,
    dryRun: options.dryRun,
    force: options.force,
    agent: options.agent,
    to: options.to,
    from: options.from,
    signing: options.signing,
  });
  const selfServed = (await checksSignatures(scopeOf(options), options.signing)) ? selfOriginNotice() : undefined;
  for (const notice of selfServed === undefined ? outcome.notices : [...outcome.notices, selfServed]) err(`loadout: notice: ${printableLine(notice)}\n`);
  for (const u of outcome.updates) for (const w of u.warnings) err(`loadout: warning: ${printableLine(w.message)}; ${outcome.written ? 'written' : 'it would be written'} because of --force\n`);
  const stopped = outcome.conflicts.length > 0;
  if (options.json) {
    out(`${printableJson(outcome)}\n`);
    return stopped || (outcome.needs_consent && !options.dryRun) ? EXIT.failed : EXIT.ok;
  }
  if (options.dryRun) for (const u of outcome.updates) out(formatCapabilityChange(`What ${u.id} ${u.from} → ${u.to} changes in what it can run for ${u.agent}`, u.capabilities));
  for (const c of outcome.conflicts) err(formatConflict(c, c.id));
  if (outcome.backup !== undefined) err(formatBackup(outcome.backup, outcome.backed_up ?? [], 'update'));
  for (const w of outcome.composed.size_warnings) err(formatSizeWarning(w));
  if (options.verbose === true) for (const u of outcome.updates) out(formatUpdate(u, outcome.written));
  else for (const group of groupUpdates(outcome.updates)) out(formatUpdateGroup(group, outcome.written));
  // The update's own diffs above show what changes in each shared file: here only which files are composed.
  if (options.dryRun) out(formatComposed(outcome.composed.files, options.verbose === true, false));
  for (const [agent, cost] of Object.entries(outcome.composed.context)) out(`Context of everything installed for ${agent}, composed: ${formatContext(cost)}\n`);
  if (stopped) {
    err(formatRefusal('updated', outcome.conflicts));
    return EXIT.failed;
  }
  if (outcome.needs_consent && options.dryRun) out('(the update adds to what a loadout can run: without --dry-run it asks for your yes, or --accept-capabilities)\n');
  else if (outcome.needs_consent) {
    const widening = outcome.updates.filter((u) => u.capabilities.widens).map((u) => `${u.id} for ${u.agent}`);
    err(`loadout: nothing was updated and nothing was written: ${widening.map(printableLine).join(', ')} ${widening.length === 1 ? 'adds' : 'add'} to what ${widening.length === 1 ? 'it' : 'they'} can run (listed above); pass --accept-capabilities to update anyway (or answer yes in a terminal)\n`);
    return EXIT.failed;
  }
  for (const c of outcome.current) out(`${c.id} for ${c.agent} is at ${c.version} already\n`);
  const verb = outcome.written ? '' : 'would be ';
  for (const b of outcome.bundles) out(`bundle ${b.id} ${b.from} → ${b.to}: its members ${verb}moved within its new ranges\n`);
  for (const a of outcome.added) out(`${outcome.written ? 'installed' : 'would install'} ${a.id} ${a.version} for ${a.agent} (new in its bundle)\n`);
  for (const r of outcome.removed) out(`${outcome.written ? 'removed' : 'would remove'} ${r.id} ${r.version} for ${r.agent} (no longer in its bundle)\n`);
  if (policy !== undefined) for (const h of outcome.held) out(`${formatHeld(`${h.id} for ${h.agent}:`, h, policy.where)}\n`);
  if (outcome.updates.length > 0) out(outcome.written ? `updated; recorded in the lock (${CONTEXT_NOTE})\n` : `nothing was written (--dry-run; ${CONTEXT_NOTE})\n`);
  return EXIT.ok;
}

const ACTION: Record<LoadoutUpdate['files'][number]['action'], string> = { write: '', keep: ' [kept]', remove: '', none: '' };

/** The changelog of an update between its two versions: a heading, then each version with its changes. */
function changelogLines(changelog: LoadoutUpdate['changelog']): string[] {
  const lines = [changelog.direction === 'downgrade' ? 'Changes taken back:' : 'Changelog:'];
  if (changelog.entries.length === 0) lines.push('  (the catalogue publishes no changes for these versions)');
  for (const entry of changelog.entries) {
    lines.push(`  ${entry.version}${entry.date === null ? '' : ` (${entry.date})`}`);
    if (entry.changes.length === 0) lines.push('    (no changes listed)');
    for (const change of entry.changes) lines.push(`    - ${printableLine(change)}`);
  }
  return lines;
}

/** One install's update: heading, changelog, files with diffs, notes, context. */
export function formatUpdate(u: LoadoutUpdate, written: boolean): string {
  const lines: string[] = [`${written ? 'updated' : 'would update'} ${u.id} for ${u.agent}: ${u.from} → ${u.to}`];
  lines.push(...changelogLines(u.changelog));
  lines.push('Files:');
  for (const f of u.files) lines.push(`  ${f.change.padEnd(9)} ${printableLine(f.target)}${ACTION[f.action]}${f.note === undefined ? '' : `: ${f.note}`}`);
  if (u.diff_unavailable !== undefined) lines.push(`(no diffs: ${u.diff_unavailable})`);
  for (const f of u.files) if (f.diff !== undefined) lines.push(printable(f.diff).replace(/\n$/u, ''));
  lines.push(`Context for ${u.agent}: ${formatContextChange(u.context.before, u.context.after)}`);
  if (u.manual_steps.length > 0) {
    lines.push('Manual steps:');
    for (const step of u.manual_steps) lines.push(`- ${printableLine(step.path)}: ${printable(step.text).replaceAll('\n', '\n    ')}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** The updates of one loadout between two versions, for several agents. */
interface UpdateGroup {
  updates: LoadoutUpdate[];
}

/** `updates` grouped by loadout and versions, in their order: one group per loadout moved from one version to another. */
function groupUpdates(updates: readonly LoadoutUpdate[]): UpdateGroup[] {
  const groups = new Map<string, UpdateGroup>();
  for (const u of updates) {
    const key = `${u.id}\n${u.from}\n${u.to}`;
    const group = groups.get(key) ?? { updates: [] };
    group.updates.push(u);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * One loadout's update for several agents (issue 57, point 8): the changelog once, each file's
 * change once with the agents it is for, each distinct diff once, then a line per agent for its
 * context. `--verbose` prints {@link formatUpdate} per agent instead.
 */
export function formatUpdateGroup(group: UpdateGroup, written: boolean): string {
  const [u] = group.updates;
  if (u === undefined) return '';
  const agents = group.updates.map((x) => x.agent);
  const lines: string[] = [`${written ? 'updated' : 'would update'} ${u.id} ${u.from} → ${u.to} for ${agents.join(', ')}`];
  lines.push(...changelogLines(u.changelog));
  lines.push('Files:');
  const rows = new Map<string, string[]>();
  const diffs = new Map<string, string>();
  for (const x of group.updates) {
    for (const f of x.files) {
      const row = `${f.change.padEnd(9)} ${printableLine(f.target)}${ACTION[f.action]}${f.note === undefined ? '' : `: ${printableLine(f.note)}`}`;
      rows.set(row, [...(rows.get(row) ?? []), x.agent]);
      if (f.diff !== undefined && !diffs.has(f.diff)) diffs.set(f.diff, f.target);
    }
  }
  for (const [row, by] of rows) lines.push(`  ${row}${by.length === agents.length ? '' : ` (${by.join(', ')})`}`);
  const unavailable = group.updates.find((x) => x.diff_unavailable !== undefined)?.diff_unavailable;
  if (unavailable !== undefined) lines.push(`(no diffs: ${unavailable})`);
  for (const diff of diffs.keys()) lines.push(printable(diff).replace(/\n$/u, ''));
  for (const x of group.updates) lines.push(`Context for ${x.agent}: ${formatContextChange(x.context.before, x.context.after)}`);
  const steps = [...new Map(group.updates.flatMap((x) => x.manual_steps).map((step) => [`${step.path}\n${step.text}`, step])).values()];
  if (steps.length > 0) {
    lines.push('Manual steps:');
    for (const step of steps) lines.push(`- ${printableLine(step.path)}: ${printable(step.text).replaceAll('\n', '\n    ')}`);
  }
  return `${lines.join('\n')}\n\n`;
}
