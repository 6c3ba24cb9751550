/**
 * Folders of a loadout's entry that repeat one of its version's raw folders (store.ts): a
 * skill's folder in its Agent Skills discovery (`loadouts/<id>/.well-known/skills/<skill>/`,
 * skill-discovery.ts) usually holds exactly the files of `raw/<id>/<version>/skills/<skill>/`.
 * Such a folder is written as one symbolic link to the raw folder (`OutputTree.linkFolder`, as
 * `raw/<id>/latest` is) instead of folders of hard links: at 10,000 loadouts a new folder cost
 * the build's threads about 60 µs and a hard link 40 µs, and a skill with a reference saves two
 * folders and two links (docs/performance.md). What reads the discovery files reads them over
 * HTTP, from `loadout serve` or the published bucket, which follow such links inside the tree and
 * its store (tree-format/tree-region.ts).
 *
 * Not the plugin folder's skills (plugins.ts), though they repeat the same files: the agents'
 * plugin managers copy a plugin of a folder marketplace as it is on disk, and Claude Code
 * 2.1.330, Codex 0.169.0 and Gemini CLI 0.61.0 copied such a link without its files
 * (test/install/agent-clis-plugins.test.ts, opt-in).
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
