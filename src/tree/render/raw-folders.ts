/**
 * Folders of a loadout's entry that repeat one of its version's raw folders (store.ts): a skill's
 * folder in its native plugin (`plugins/<id>/skills/<skill>/`, plugins.ts) and in its Agent
 * Skills discovery (`loadouts/<id>/.well-known/skills/<skill>/`, skill-discovery.ts) usually hold
 * exactly the files of `raw/<id>/<version>/skills/<skill>/`. Such a folder is written as one
 * symbolic link to the raw folder (`OutputTree.linkFolder`, as `raw/<id>/latest` is) instead of
 * folders of hard links: at 10,000 loadouts a new folder cost the build's threads about 60 µs
 * and a hard link 40 µs, and a skill with a reference saves two folders and two links in each
 * place (docs/performance.md). What reads the tree follows such links inside it and its store
 * (tree-format/tree-region.ts): `loadout serve`, `publish` and the plugins branch's copy.
 */

/**
 * Whether the files meant for a copy of the version's folder `folder` are exactly what that
 * folder holds: every file the version publishes below `folder/`, each at the same path inside
 * the copy with the same bytes, and nothing else. Pure.
 * @param folder a folder of the version, without a trailing slash (`skills/<skill>`).
 * @param placed the copy's files: path inside the copy → the version's file whose bytes it
 *   repeats, or undefined for a file with other bytes (a rewritten link, a translation).
 * @param published every path the version publishes (`files[].path`).
 */
export function repeatsRawFolder(folder: string, placed: ReadonlyMap<string, string | undefined>, published: Iterable<string>): boolean {
  const prefix = `${folder}/`;
  let count = 0;
  for (const path of published) {
    if (!path.startsWith(prefix)) continue;
    count++;
    if (placed.get(path.slice(prefix.length)) !== path) return false;
  }
  return count > 0 && count === placed.size;
}
