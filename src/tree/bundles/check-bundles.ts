/**
 * Checking a catalogue's bundles as `loadout validate` and `loadout verify` do (issue 56, point
 * 1): each `bundles/<id>/bundle.yaml` read and checked on its own (bundles/read.ts), then
 * against the loadouts (bundles/check.ts) with the versions the build would publish of each
 * member: every version in its git history (history/history.ts, the build's own reading) and
 * the working tree's. Here in the builder's room because those versions are its reading of git.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkBundleMembers } from '../../bundles/check.js';
import { listBundleIds, parseBundle, readBundleSource, type ReadBundle } from '../../bundles/read.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { listLoadoutIds, loadoutsDirOf } from '../../catalogue/source.js';
import { VERSION_PATTERN } from '../../catalogue/vocabulary.js';
import { readManifestVersion } from '../../catalogue/yaml-document.js';
import type { GitCommands } from '../history/git-commands.js';
import { openHistory, openRepository } from '../history/history.js';

/**
 * Reads and parses the bundles `only` of the catalogue at `root` (every bundle when undefined),
 * in id order.
 * @throws LoadoutError `usage` for an id of `only` that has no folder under `bundles/`.
 */
export function readCatalogueBundles(root: string, only?: readonly string[]): ReadBundle[] {
  const all = listBundleIds(root);
  for (const id of only ?? []) if (!all.includes(id)) throw new LoadoutError('usage', `bundles/${id}: no such bundle`, { hint: `Known bundles: ${all.join(', ') || 'none'}.` });
  return (only ?? all).map((id) => parseBundle(readBundleSource(root, id)));
}

/**
 * The versions the build would publish of each loadout of `ids` in the catalogue at `root`:
 * those of its git history that pass the manifest's rule, and the working tree's, oldest first.
 * @throws LoadoutError `git` when git fails.
 */
export async function readPublishedVersions(root: string, ids: readonly string[], gitFor?: (cwd: string) => GitCommands): Promise<Map<string, string[]>> {
  const loadoutsDir = loadoutsDirOf(root);
  const found = new Map<string, string[]>();
  if (ids.length === 0) return found;
  const repo = await openRepository(loadoutsDir, gitFor);
  const history = await openHistory(repo, [...ids].sort());
  try {
    for (const id of ids) {
      const current = workingVersionOf(loadoutsDir, id);
      const older = (await history.historyOf(id, current ?? '')).versions.map((v) => v.version);
      found.set(id, [...older.filter((v) => v !== current), ...(current === undefined ? [] : [current])]);
    }
  } finally {
    history.close();
  }
  return found;
}

/** The working tree's version of loadout `id`, when its manifest has one of the manifest's form. */
function workingVersionOf(loadoutsDir: string, id: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(loadoutsDir, id, 'loadout.yaml'), 'utf8');
  } catch {
    return undefined;
  }
  const version = readManifestVersion(text);
  return version !== undefined && VERSION_PATTERN.test(version) ? version : undefined;
}

/**
 * Reads and checks the bundles `only` of the catalogue at `root` (every one when undefined):
 * each bundle's diagnostics are those of its file and those against the loadouts.
 * @throws LoadoutError `usage` for an unknown bundle id, `not_found` when there is no
 *   `loadouts/`, `git` when git fails.
 */
export async function checkBundles(root: string, only?: readonly string[], gitFor?: (cwd: string) => GitCommands): Promise<ReadBundle[]> {
  const bundles = readCatalogueBundles(root, only);
  if (bundles.length === 0) return bundles;
  const loadoutIds = await listLoadoutIds(loadoutsDirOf(root));
  const members = [...new Set(bundles.flatMap((b) => b.manifest?.loadouts.map((m) => m.id) ?? []))].filter((id) => loadoutIds.includes(id));
  const versions = await readPublishedVersions(root, members, gitFor);
  // Each bundle's findings in the order of their lines.
  return bundles.map((bundle) => ({ ...bundle, diagnostics: [...bundle.diagnostics, ...checkBundleMembers(bundle, loadoutIds, (id) => versions.get(id))].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) }));
}
