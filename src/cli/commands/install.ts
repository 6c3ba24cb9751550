/** `loadout install <id> --agent A [--dir .] [--version V] [--from URL|DIR] [--frozen] [--dry-run] [--force]`. */
import { installLoadout, type InstallOptions } from '../../install/install.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';

/**
 * Runs the install; returns 0 when installed (or planned with --dry-run), 1 on conflicts. A
 * target outside the agent's own locations, written because of --force, is printed as a
 * warning on stderr (also with --json, beside the outcome's `warnings`).
 */
export async function installCommand(options: InstallOptions & { json: boolean }, out: Write, err: Write): Promise<number> {
  const outcome = await installLoadout(options);
  for (const w of outcome.warnings) err(`loadout: warning: ${w.message}; ${options.dryRun === true ? 'it would be written' : 'written'} because of --force\n`);
  if (options.json) {
    out(`${JSON.stringify(outcome, null, 2)}\n`);
    return outcome.conflicts.length > 0 ? EXIT.failed : EXIT.ok;
  }
  for (const c of outcome.conflicts) {
    err(`loadout: ${c.target}: exists with changes of yours (expected the bytes of ${outcome.id} ${outcome.version} ${c.path} or of the last install); nothing was written (--force overwrites)\n`);
  }
  if (outcome.conflicts.length > 0) return EXIT.failed;
  const verb = options.dryRun === true ? 'would install' : 'installed';
  out(`${verb} ${outcome.id} ${outcome.version} for ${outcome.agent} from ${outcome.source}:\n`);
  for (const f of outcome.files) out(`  ${f.target}  ← ${f.path}${outcome.unchanged.includes(f.target) ? ' (unchanged)' : ''}\n`);
  if (outcome.manual_steps.length > 0) {
    out('\nManual steps:\n');
    for (const step of outcome.manual_steps) out(`- ${step.path}: ${step.text.replaceAll('\n', '\n    ')}\n`);
  }
  if (outcome.installed) out('\nrecorded in loadout.lock.json\n');
  return EXIT.ok;
}
