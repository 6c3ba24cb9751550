/**
 * What the life-cycle commands (install, outdated, update, uninstall, status) share in the
 * terminal: the scope from `--dir` / `--global`, and context cost as one line.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { LoadoutError } from '../catalogue/errors.js';
import type { ContextCost } from '../layout/context-cost.js';
import type { ManualStep } from '../layout/layout.js';
import { describeCapWarning, type CapWarning } from '../layout/context-caps.js';
import type { ComposedFile } from '../install/run-plan.js';
import { unifiedDiff } from '../install/unified-diff.js';
import { projectScope, userScope, type InstallScope } from '../install/project/scope.js';
import { printable, printableLine } from './terminal-text.js';

/**
 * The scope of `--global` (the home folder, `HOME`) or else the project folder `dir`, which must
 * exist: a mistyped `--dir` would otherwise be created and installed into, or pass `status` as
 * a project with nothing installed (issue 36, point 4). No command creates the project folder.
 * @throws LoadoutError `usage` when `dir` is not an existing folder
 */
export function scopeOf(options: { dir: string; global: boolean }): InstallScope {
  if (options.global) return userScope(homedir());
  const kind = statSync(options.dir, { throwIfNoEntry: false });
  if (kind === undefined) throw new LoadoutError('usage', `--dir ${printableLine(options.dir)}: no such folder`, { hint: 'Name the project folder as it is (loadout never creates it), or leave --dir out for the current folder.' });
  if (!kind.isDirectory()) throw new LoadoutError('usage', `--dir ${printableLine(options.dir)}: not a folder`, { hint: 'Name the project folder, not a file in it.' });
  return projectScope(options.dir);
}

/**
 * `n` with a comma between each group of three digits, as en-US writes it (5852 → "5,852").
 * Not `toLocaleString`: its first call loads ICU's number data, which every install would pay
 * (DESIGN.md section 7: a warm install under 300 ms; `bench/consumer.ts` measures it).
 */
function number(n: number): string {
  const digits = String(Math.abs(Math.trunc(n)));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return (n < 0 ? '-' : '') + grouped;
}

/** `always 1,234 bytes (~309 tokens); on demand 5,678 bytes (~1,420 tokens)`. */
export function formatContext(cost: ContextCost): string {
  return `always ${number(cost.always.bytes)} bytes (~${number(cost.always.tokens)} tokens); on demand ${number(cost.on_demand.bytes)} bytes (~${number(cost.on_demand.tokens)} tokens)`;
}

/** `always ~309 → ~400 tokens (+91); on demand …`, or the new cost alone when the old one is unknown. */
export function formatContextChange(before: ContextCost | null, after: ContextCost): string {
  if (before === null) return formatContext(after);
  const delta = after.always.tokens - before.always.tokens;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `always ~${number(before.always.tokens)} → ~${number(after.always.tokens)} tokens (${sign}${number(Math.abs(delta))}); on demand ~${number(before.on_demand.tokens)} → ~${number(after.on_demand.tokens)} tokens`;
}

/** Tokens are estimated at 4 bytes each (`layout/context-cost.ts`). */
export const CONTEXT_NOTE = 'tokens estimated at 4 bytes each';

/** A conflict as a line for stderr (a block's with its diff): what is in the way, and that `--force` writes anyway after a backup. */
export function formatConflict(c: { target: string; path: string; servers?: string[]; block?: string; diff?: string; reason?: string; parts?: string[]; kind?: string; id?: string }, label: string): string {
  const block = c.block ?? (c.kind === 'block' ? c.parts?.[0] ?? c.id : undefined);
  const servers = c.servers ?? (c.kind === 'servers' ? c.parts : undefined);
  const what =
    c.reason !== undefined && block === undefined && servers === undefined
      ? printableLine(c.reason)
      : block !== undefined
        ? `the ${printableLine(block)} block holds edits of yours`
        : servers !== undefined
          ? `has servers of yours under the loadout's names (${servers.map(printableLine).join(', ')})`
          : `exists with changes of yours (expected the bytes of ${label} ${printableLine(c.path)} or of the last install)`;
  const diff = c.diff === undefined ? '' : `${printable(c.diff).replace(/\n$/u, '')}\n`;
  return `loadout: ${printableLine(c.target)}: ${what}; nothing was written (--force overwrites, after copying your file to .loadout/backup/)\n${diff}`;
}

/**
 * The last line of a command that a conflict stopped (issue 36, point 8): that nothing was
 * written, and why, after whatever it showed of what it would have done, so that a refusal
 * never ends on lines that read as success. `done` is the past participle of the command
 * (`installed`, `updated`, `uninstalled`).
 */
export function formatRefusal(done: string, conflicts: readonly { target: string }[]): string {
  const targets = [...new Set(conflicts.map((c) => c.target))];
  const files = `${targets.length} file${targets.length === 1 ? '' : 's'}`;
  return `loadout: nothing was ${done} and nothing was written: ${files} ${targets.length === 1 ? 'holds' : 'hold'} changes of yours (${targets.map(printableLine).join(', ')}); keep them elsewhere, or pass --force to overwrite them after a backup\n`;
}

/**
 * A shared file an uninstall took the install's part out of, as one line: `removed` when
 * nothing else was left in it and the file went, `reverted` when it stays with the rest
 * (the user's entries, other installs' blocks). `dryRun` words it as what would happen.
 */
export function formatReverted(r: { target: string; servers?: string[]; blocks?: string[]; file_removed: boolean }, dryRun = false): string {
  const parts = [...(r.servers ?? []), ...(r.blocks ?? []).map((b) => `the ${b} block`)].map(printableLine).join(', ') || 'nothing';
  const target = printableLine(r.target);
  if (r.file_removed) return `  removed   ${target} (${parts === 'nothing' ? 'left empty' : `it ${dryRun ? 'holds' : 'held'} nothing but ${parts}`})\n`;
  return `  reverted  ${target} (${dryRun ? 'would take' : 'took'} out ${parts}; the rest of the file kept)\n`;
}

/** A size limit a composed file passes, naming the limit and its source. */
export function formatSizeWarning(w: CapWarning): string {
  return `loadout: warning: ${printableLine(describeCapWarning(w))}\n`;
}

/** The shared files of a dry run: each loadout's block and how it changes, then the file as it would be. */
export function formatComposed(files: readonly ComposedFile[], verbose = true, diffs = true): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    // A file several agents share is one file: shown once (issue 57, point 8).
    if (f.action === 'none' || seen.has(f.target)) continue;
    seen.add(f.target);
    const blocks = f.blocks === undefined ? '' : `: ${f.blocks.filter((b) => verbose || b.change !== 'keep').map((b) => `${b.change} ${printableLine(b.id)}@${b.version}`).join(', ')}`;
    lines.push(`  composed ${printableLine(f.target)} (${f.action}${blocks})`);
    if (f.text === undefined || (!verbose && !diffs)) continue;
    // The whole file with --verbose; else what changes in it, as a diff against what is there.
    if (verbose && f.kind === 'block') lines.push(...printable(f.text).replace(/\n$/u, '').split('\n').map((l) => `    | ${l}`));
    else if (!verbose) lines.push(...printable(unifiedDiff(f.target, f.before ?? '', f.text, f.before === undefined ? '/dev/null' : 'now', 'after')).replace(/\n$/u, '').split('\n').map((l) => `    ${l}`));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * The manual steps of every install of one run, each printed once for the project (issue 33:
 * "printed once per project"): steps with the same text (the same variable to set, say, for
 * Claude Code, Cursor and Gemini CLI) are one line naming every file and agent it is for. Empty
 * when there is none.
 */
export function formatManualSteps(outcomes: readonly { agent: string; manual_steps: readonly ManualStep[] }[]): string {
  const steps = new Map<string, { paths: Set<string>; agents: Set<string> }>();
  for (const o of outcomes) {
    for (const step of o.manual_steps) {
      const seen = steps.get(step.text) ?? { paths: new Set<string>(), agents: new Set<string>() };
      seen.paths.add(step.path);
      seen.agents.add(o.agent);
      steps.set(step.text, seen);
    }
  }
  if (steps.size === 0) return '';
  const lines = [...steps].map(([text, { paths, agents }]) => `- ${printableLine([...paths].join(', '))}: ${printable(text).replaceAll('\n', '\n    ')}${outcomes.length > 1 ? ` (${[...agents].join(', ')})` : ''}`);
  return `Manual steps, once for this project:\n${lines.join('\n')}\n\n`;
}

/**
 * What a backup held, in one line: `loadout: your AGENTS.md and .cursor/rules/x.mdc were copied
 * to .loadout/backup/<time>/ before the install replaced them`. Only files of the user's that a
 * command replaced are copied (a merge into an MCP configuration file changes nothing of theirs).
 */
export function formatBackup(folder: string, targets: readonly string[], command: string): string {
  const named = targets.length === 0 ? 'your files' : `your ${targets.map(printableLine).join(', ')}`;
  return `loadout: ${named} ${targets.length === 1 ? 'was' : 'were'} copied to ${printableLine(folder)}/ before the ${command} replaced ${targets.length === 1 ? 'it' : 'them'}\n`;
}
