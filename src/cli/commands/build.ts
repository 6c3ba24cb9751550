/** `loadout build [--out dist] [--base-url URL]`: the static tree (DESIGN.md sections 1 and 2). */
import { buildCatalogue } from '../../tree/build.js';
import { takeSigningSettings } from '../../tree/render/signed-snapshot.js';
import { EXIT } from '../exit.js';
import { formatDiagnostics, type Write } from '../report.js';

/** Options of `loadout build`. */
export interface BuildCommandOptions {
  root: string;
  out: string;
  baseUrl: string;
  /** Show progress (on a TTY, not in CI). */
  progress: boolean;
  /** Ignore the previous tree. */
  clean: boolean;
}

/** Runs the build; returns 0 when written, 1 when a loadout failed its checks. */
export async function buildCommand(options: BuildCommandOptions, out: Write, err: Write): Promise<number> {
  const started = performance.now();
  // Read (and removed from the environment) before the pool's threads start: LOADOUT_SIGNING_KEY, docs/signing.md.
  const signing = takeSigningSettings(process.env);
  const result = await buildCatalogue({
    ...(signing === undefined ? {} : { signing }),
    root: options.root,
    out: options.out,
    baseUrl: options.baseUrl,
    clean: options.clean,
    ...(options.progress ? { onProgress: (done: number, total: number, id: string) => err(`\r[${done}/${total}] ${id}\u001b[K`) } : {}),
  });
  if (options.progress) err('\r\u001b[K');
  for (const warning of result.warnings) err(`loadout: warning: ${warning}\n`);
  if (!result.written) {
    err(formatDiagnostics(result.runs.filter((r) => result.refused.includes(r.source.id))));
    err(`loadout: build refused: ${result.refused.join(', ')} failed checks; ${options.out} was left unchanged\n`);
    return EXIT.failed;
  }
  const versions = result.loadouts.reduce((n, l) => n + l.versions.length, 0);
  const kept = `${result.reused.length === 0 ? '' : `, ${result.reused.length} unchanged`}${signing === undefined ? '' : `, signed by key ${signing.key.published.keyid}`}`;
  out(`built ${result.loadouts.length} loadouts (${versions} versions${kept}, ${(result.bytes / 1024).toFixed(0)} KB written) into ${options.out} in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
  return EXIT.ok;
}
