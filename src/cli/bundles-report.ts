/**
 * `loadout validate` and `loadout verify` over a catalogue's bundles (issue 56, point 1): which of
 * the ids named are bundles, and the bundles' findings as the terminal, JSON and Markdown show
 * them beside the loadouts' (report.ts).
 */
import { listBundleIds, type ReadBundle } from '../bundles/read.js';
import { formatDiagnostic } from '../catalogue/diagnostics.js';
import { listLoadoutIds, loadoutsDirOf } from '../catalogue/source.js';
import { escapeMarkdown } from './report.js';

/** What a command checks: the loadouts (`[]`: every one) and the bundles (undefined: every one); null for none of a kind. */
export interface CheckedIds {
  loadouts: string[] | null;
  bundles: string[] | undefined | null;
}

/**
 * Splits the ids a command was given: an id that names a bundle folder and no loadout folder is
 * a bundle's, any other a loadout's (an unknown one is then refused as a loadout). No ids: every
 * loadout and every bundle.
 */
export async function splitCheckedIds(root: string, ids: readonly string[]): Promise<CheckedIds> {
  if (ids.length === 0) return { loadouts: [], bundles: undefined };
  const bundles = new Set(listBundleIds(root));
  const loadouts = new Set(await listLoadoutIds(loadoutsDirOf(root)).catch(() => []));
  const asBundle = ids.filter((id) => bundles.has(id) && !loadouts.has(id));
  const asLoadout = ids.filter((id) => !asBundle.includes(id));
  return { loadouts: asLoadout.length === 0 ? null : asLoadout, bundles: asBundle.length === 0 ? null : asBundle };
}

/** True when the bundle has no finding. */
export const bundlePassed = (bundle: ReadBundle): boolean => bundle.diagnostics.length === 0;

/** The `--json` entries of `bundles`: `{id, kind: "bundle", valid, errors}` each. */
export function bundlesAsJson(bundles: readonly ReadBundle[]): Record<string, unknown>[] {
  return bundles.map((b) => ({ id: b.id, kind: 'bundle', valid: bundlePassed(b), errors: b.diagnostics }));
}

/** Every finding of `bundles`, one `loadout: file:line: message` line each (the diagnostics' stderr form). */
export function formatBundleDiagnostics(bundles: readonly ReadBundle[]): string {
  return bundles.flatMap((b) => b.diagnostics.map((d) => `loadout: ${formatDiagnostic(d)}\n`)).join('');
}

/** A block per bundle for the terminal: `bundle <id>: ok` or `bundle <id>: 2 problems`, then each `file:line: message`. */
export function formatBundlesTable(bundles: readonly ReadBundle[]): string {
  const lines: string[] = [];
  for (const b of bundles) {
    lines.push(`bundle ${b.id}: ${bundlePassed(b) ? 'ok' : `${b.diagnostics.length} problem${b.diagnostics.length === 1 ? '' : 's'}`}`);
    for (const d of b.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** A Markdown section per bundle (for a CI job summary), its findings as a list, every value escaped. */
export function formatBundlesMarkdown(bundles: readonly ReadBundle[]): string {
  const lines: string[] = [];
  for (const b of bundles) {
    lines.push(`### bundle ${escapeMarkdown(b.id)}: ${bundlePassed(b) ? '✅ passes its checks' : `❌ ${b.diagnostics.length} problem${b.diagnostics.length === 1 ? '' : 's'}`}`, '');
    for (const d of b.diagnostics) lines.push(`- ${escapeMarkdown(formatDiagnostic(d))}`);
    lines.push('');
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
