/**
 * `loadout import <path> [--id ID] [--author NAME] [--dry-run] [--json]` (DESIGN.md section 8):
 * the core is src/import/; this prints what was made from what, what was left out, the ten
 * checks, and what the author must still fill in.
 */
import { importLoadout } from '../../import/import.js';
import { passed } from '../../verify/catalogue.js';
import { EXIT } from '../exit.js';
import { formatRunsTable, type Write } from '../report.js';

/** Options of `loadout import`. */
export interface ImportCommandOptions {
  root: string;
  source: string;
  id?: string;
  dryRun: boolean;
  /** `--author`: the author to credit. */
  author?: string;
  json: boolean;
  today: string;
}

/**
 * Runs the command. Exit code 0 when the loadout was written (or, with `--dry-run`, would
 * be) and every check passes; 1 when a check fails (the folder is written all the same, for
 * the author to finish). With `--json`: `{id, dir, written, files, skipped, todo, verification}`.
 */
export async function importCommand(options: ImportCommandOptions, out: Write): Promise<number> {
  const result = await importLoadout({ root: options.root, source: options.source, dryRun: options.dryRun, today: options.today, id: options.id, author: options.author });
  const ok = passed(result.run);
  if (options.json) {
    const { run, manifestText: _manifest, ...rest } = result;
    out(`${JSON.stringify({ ...rest, checks: run.results }, null, 2)}\n`);
    return ok ? EXIT.ok : EXIT.failed;
  }
  const lines: string[] = [];
  lines.push(`${result.written ? 'imported' : 'would import (dry run, nothing written)'} ${options.source} into ${result.dir}/ (${result.files.length + 1} files with loadout.yaml)`);
  const width = Math.max(...result.files.map((f) => f.path.length));
  for (const file of result.files) lines.push(`  ${file.path.padEnd(width)}  ${file.from === undefined ? '(generated)' : `← ${file.from}`}`);
  if (result.skipped.length > 0) {
    lines.push('', `left out (${result.skipped.length}):`);
    for (const s of result.skipped) lines.push(`  ${s.path}: ${s.reason}`);
  }
  lines.push('', formatRunsTable([result.run]).trimEnd());
  lines.push('', 'still to do:');
  for (const item of result.todo) lines.push(`  - ${item}`);
  if (!ok) lines.push(`  - fix what the failing checks above name, then run \`loadout verify ${result.id}\``);
  out(`${lines.join('\n')}\n`);
  return ok ? EXIT.ok : EXIT.failed;
}
