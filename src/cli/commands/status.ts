/** `loadout status [--dir .] [--global] [--json]`, the drift check: exit 1 when a locked file is changed or missing. */
import { readStatus } from '../../install/status.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link statusCommand}. */
export interface StatusCommandOptions {
  dir: string;
  global: boolean;
  /** Print `{scope, lock, files: [{id, agent, version, target, path, state, servers?}], untracked, ok}`. */
  json: boolean;
}

/** Prints each locked file with its state, then the untracked files; returns 1 when any is changed or missing. */
export async function statusCommand(options: StatusCommandOptions, out: Write): Promise<number> {
  const report = await readStatus(scopeOf(options));
  if (options.json) {
    out(`${printableJson(report)}\n`);
    return report.ok ? EXIT.ok : EXIT.failed;
  }
  if (report.files.length === 0) out(`nothing installed (${printableLine(report.lock)} lists no installs)\n`);
  const width = Math.max(0, ...report.files.map((f) => f.state.length));
  let last = '';
  for (const f of report.files) {
    const heading = `${f.id} ${f.version} for ${f.agent}`;
    if (heading !== last) out(`${heading}:\n`);
    last = heading;
    const servers = f.servers === undefined ? '' : ` (servers: ${Object.entries(f.servers).map(([name, state]) => `${printableLine(name)} ${state}`).join(', ')})`;
    out(`  ${f.state.padEnd(width)}  ${printableLine(f.target)}${servers}\n`);
  }
  if (report.untracked.length > 0) {
    out('untracked (in the agents\' folders, owned by no install):\n');
    for (const path of report.untracked) out(`  ${printableLine(path)}\n`);
  }
  if (report.interrupted !== undefined) {
    out(`interrupted: ${printableLine(report.interrupted)}\n`);
    return EXIT.failed;
  }
  const drift = report.files.filter((f) => f.state !== 'ok').length;
  out(drift === 0 ? `ok: ${report.files.length} file${report.files.length === 1 ? '' : 's'} as installed\n` : `${drift} file${drift === 1 ? '' : 's'} changed or missing: loadout install --force restores them\n`);
  return report.ok ? EXIT.ok : EXIT.failed;
}
