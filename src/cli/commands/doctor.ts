/** `loadout doctor [--dir .] [--global] [--from URL|DIR] [--json]`: exit 0 when everything installed has what it requires on this machine, 1 when something is missing (or cannot be read). */
import { runDoctor, type DoctorReport } from '../../install/doctor.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { formatRequirements } from '../requirements-report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link doctorCommand}. */
export interface DoctorCommandOptions {
  dir: string;
  global: boolean;
  /** Read every catalogue here instead of each install's source. */
  from?: string;
  /** Print {@link DoctorReport}: `{scope, lock, loadouts: [{id, version, agents, source, requirements, ok, error?}], ok}`. */
  json: boolean;
}

/** Checks the requirements of every installed loadout; prints per loadout what is met and what is missing, with how to get it. */
export async function doctorCommand(options: DoctorCommandOptions, out: Write, err: Write): Promise<number> {
  const scope = scopeOf(options);
  const report = await runDoctor({ scope, ...(options.from === undefined ? {} : { from: options.from }) });
  const code = report.ok ? EXIT.ok : EXIT.failed;
  if (options.json) {
    out(`${printableJson(report)}\n`);
    return code;
  }
  if (report.loadouts.length === 0) {
    out(`nothing installed (${scope.lockPath} lists no installs)\n`);
    return code;
  }
  out(formatDoctorReport(report));
  for (const l of report.loadouts) if (l.error !== undefined) err(`loadout: ${l.id} ${l.version}: its requirements could not be read: ${printableLine(l.error)}\n`);
  const missing = report.loadouts.filter((l) => !l.ok).length;
  out(missing === 0 ? `everything installed has what it requires (${report.loadouts.length} loadout${report.loadouts.length === 1 ? '' : 's'})\n` : `${missing} of ${report.loadouts.length} installed loadouts lack something they require\n`);
  return code;
}

/** Per installed loadout: a heading, then each requirement (or why there are none to check). */
export function formatDoctorReport(report: DoctorReport): string {
  return report.loadouts
    .map((l) => {
      const heading = `${l.id} ${l.version} for ${l.agents.join(', ')} (${printableLine(l.source)}):`;
      if (l.requirements === null) return `${heading}\n  ${l.error === undefined ? 'its catalogue publishes no requirements for this version' : 'requirements not checked: the catalogue could not be read'}\n`;
      if (l.requirements.length === 0) return `${heading}\n  requires nothing of this machine\n`;
      return formatRequirements(heading, l.requirements);
    })
    .join('');
}
