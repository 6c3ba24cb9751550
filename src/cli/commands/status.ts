/**
 * `loadout status [--dir .] [--global] [--allow-empty] [--json]`, the drift check: exit 1 when a
 * locked file is changed or missing, and when nothing is installed (no lock, or a lock with no
 * installs) unless `--allow-empty`, so that a CI gate pointed at the wrong folder fails.
 */
import { existsSync } from 'node:fs';
import { readStatus, type FileStatus } from '../../install/status.js';
import { EXIT } from '../exit.js';
import { formatSizeWarning, scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { thisInvocation } from '../invocation.js';
import { printableJson, printableLine } from '../terminal-text.js';
import { resolvePolicy, type PolicyFlags } from '../policy-source.js';
import { formatViolations } from '../policy-report.js';

/** Options of {@link statusCommand}. */
export interface StatusCommandOptions extends PolicyFlags {
  dir: string;
  global: boolean;
  /** Exit 0 when nothing is installed, instead of 1. */
  allowEmpty: boolean;
  /** Print `{scope, lock, bundles: [{id, version, source, agents, members: [{id, range, agents, installed: [{agent, version, in_range, requested_by}]}]}], files: [{id, agent, version, target, path, state, servers?}], untracked, size_warnings: [{agent, target, size, cap, excess}], capabilities: [{id, agent, added}], policy: [{rule, loadout, agent, capability, message}], ok}`. */
  json: boolean;
}

/** Prints each locked file with its state, then the untracked files and what the policy refuses; returns 1 when any is changed or missing, or the policy refuses something installed. */
export async function statusCommand(options: StatusCommandOptions, out: Write, err: Write): Promise<number> {
  const scope = scopeOf(options);
  const policy = await resolvePolicy(options, { project: options.global ? undefined : scope.root, env: process.env });
  const report = await readStatus(scope, policy === undefined ? {} : { policy });
  const empty = report.files.length === 0;
  const code = !report.ok || (empty && !options.allowEmpty) ? EXIT.failed : EXIT.ok;
  if (empty && !options.allowEmpty && report.interrupted === undefined) {
    const why = existsSync(report.lock) ? `${printableLine(report.lock)} lists no installs` : `there is no ${printableLine(report.lock)}`;
    err(`loadout: nothing installed: ${why}\nloadout: hint: Run status in the project's folder (or --dir <project>), or pass --allow-empty where having nothing installed is fine.\n`);
  }
  if (options.json) {
    out(`${printableJson(report)}\n`);
    return code;
  }
  if (empty && report.interrupted === undefined) {
    if (options.allowEmpty) out(`nothing installed (${printableLine(report.lock)} lists no installs)\n`);
    return code;
  }
  const width = Math.max(0, ...report.files.map((f) => f.state.length));
  // Members grouped under their bundle (issue 56), then the installs on their own.
  const printFiles = (files: readonly FileStatus[], indent: string): void => {
    let last = '';
    for (const f of files) {
      const heading = `${f.id} ${f.version} for ${f.agent}`;
      if (heading !== last) out(`${indent}${heading}:\n`);
      last = heading;
      const servers = f.servers === undefined ? '' : ` (servers: ${Object.entries(f.servers).map(([name, state]) => `${printableLine(name)} ${state}`).join(', ')})`;
      out(`${indent}  ${f.state.padEnd(width)}  ${printableLine(f.target)}${servers}\n`);
    }
  };
  const inBundle = new Set<string>();
  for (const b of report.bundles) {
    out(`bundle ${b.id} ${b.version} for ${b.agents.join(', ')}:\n`);
    for (const m of b.members) {
      const installed = m.installed.map((i) => `${i.version} for ${i.agent}${i.in_range ? '' : ' (OUT OF RANGE)'}`).join(', ');
      out(`  ${m.id} ${m.range}: ${installed === '' ? (m.agents.length === 0 ? 'not for these agents' : 'missing') : installed}\n`);
      for (const i of m.installed) inBundle.add(`${m.id}\n${i.agent}`);
      printFiles(report.files.filter((f) => f.id === m.id && m.installed.some((i) => i.agent === f.agent)), '    ');
    }
  }
  const alone = report.files.filter((f) => !inBundle.has(`${f.id}\n${f.agent}`));
  if (report.bundles.length > 0 && alone.length > 0) out('on their own:\n');
  printFiles(alone, report.bundles.length > 0 ? '  ' : '');
  if (report.untracked.length > 0) {
    out('untracked (in the agents\' folders, owned by no install):\n');
    for (const path of report.untracked) out(`  ${printableLine(path)}\n`);
  }
  for (const w of report.size_warnings) out(formatSizeWarning(w).replace(/^loadout: /u, ''));
  if (report.interrupted !== undefined) {
    out(`interrupted: ${printableLine(report.interrupted)}\n`);
    return EXIT.failed;
  }
  if (policy !== undefined && report.policy.length > 0) out(formatViolations(policy.where, report.policy).replace(/^loadout: /u, ''));
  for (const w of report.capabilities) {
    out(`${w.id} for ${w.agent} grants more than the lock recorded (its installed files were edited):\n`);
    for (const key of w.added) out(`  + ${printableLine(key)}\n`);
  }
  // A file shared by several agents' installs (AGENTS.md) is one file: counted once.
  const files = new Set(report.files.map((f) => f.target)).size;
  const drift = new Set(report.files.filter((f) => f.state !== 'ok').map((f) => f.target)).size;
  const refused = report.policy.length === 0 ? '' : `; the policy refuses ${report.policy.length === 1 ? 'one thing' : `${report.policy.length} things`} installed (listed above)`;
  out(drift === 0 ? `${refused === '' ? 'ok: ' : ''}${files} file${files === 1 ? '' : 's'} as installed${refused}\n` : `${drift} file${drift === 1 ? '' : 's'} changed or missing: \`${thisInvocation()} install --force\` restores them${refused}\n`);
  return code;
}
