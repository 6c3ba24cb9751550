/** `loadout adapters [id…] [--check]`: write or check adapter files (DESIGN.md section 2). */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { planAdapterSync } from '../../adapters/sync.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { loadoutsDirOf } from '../../catalogue/source.js';
import { checkCatalogue } from '../../verify/catalogue.js';
import { EXIT } from '../exit.js';
import { formatDiagnostics, type Write } from '../report.js';

/** Options of `loadout adapters`. */
export interface AdaptersOptions {
  root: string;
  ids: string[];
  /** Only report differences; write nothing. */
  check: boolean;
}

/**
 * Writes (or with `check`, compares) the adapters of each loadout, printing a line per file
 * written, or `loadouts/<id>: adapters up to date` when a loadout needs none. Returns 1 when a
 * manifest is invalid, or with `check` when any adapter differs; 0 otherwise.
 */
export async function adaptersCommand(options: AdaptersOptions, out: Write, err: Write): Promise<number> {
  const runs = await checkCatalogue({ root: options.root }, options.ids, { only: ['listing'] });
  let code: number = EXIT.ok;
  for (const run of runs) {
    if (run.manifest === undefined) {
      err(formatDiagnostics([run]));
      err(`loadout: ${run.source.id}: loadout.yaml is not valid; adapters not ${options.check ? 'checked' : 'written'}\n`);
      code = EXIT.failed;
      continue;
    }
    const sync = planAdapterSync(run.source, run.manifest);
    const dir = join(loadoutsDirOf(options.root), run.source.id);
    if (options.check) {
      for (const w of sync.writes) err(`loadout: loadouts/${run.source.id}/${w.path}: ${w.existed ? 'differs from the generated adapter' : 'missing'} (run \`loadout adapters ${run.source.id}\`)\n`);
      if (sync.manifestText !== undefined) err(`loadout: loadouts/${run.source.id}/${MANIFEST_FILE}: adapter entries missing from files\n`);
      if (sync.writes.length > 0 || sync.manifestText !== undefined) code = EXIT.failed;
      continue;
    }
    // Silence after a command reads as if it did nothing (issue 57, point 15): say so.
    if (sync.writes.length === 0 && sync.manifestText === undefined) out(`loadouts/${run.source.id}: adapters up to date\n`);
    for (const w of sync.writes) {
      await writeFile(join(dir, w.path), w.text);
      out(`${w.existed ? 'updated' : 'created'} loadouts/${run.source.id}/${w.path}\n`);
    }
    if (sync.manifestText !== undefined) {
      await writeFile(join(dir, MANIFEST_FILE), sync.manifestText);
      out(`declared adapters in loadouts/${run.source.id}/${MANIFEST_FILE}\n`);
    }
  }
  if (options.check && code === EXIT.ok) out(`adapters of ${runs.length} ${runs.length === 1 ? 'loadout' : 'loadouts'} match the generator\n`);
  return code;
}
