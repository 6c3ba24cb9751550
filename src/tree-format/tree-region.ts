/**
 * Where the links of a built tree may lead, for the programs that read a tree from disk
 * (`loadout serve`, `loadout publish`, `loadout install --from DIR`). They follow links inside
 * the tree only, so that a hostile or tampered tree cannot make them read other files
 * (SECURITY.md). A tree that `loadout build` wrote holds its loadouts by links into the store
 * of loadout entries beside it (store.ts: `.<out>.trees/<tree>/raw/<id>` →
 * `.<out>.trees/store/raw/<id>@<tag>`), so for such a tree the store is inside too.
 *
 * The store mirrors the tree's layout (`raw/<id>@<tag>/…` for `raw/<id>/…`), so a file's place
 * in the store is judged by the same rules as a place in the tree (tree-headers.ts: dot files
 * are never published).
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
/** The folder of a trees folder that holds the store of loadout entries (store.ts writes it). */
export const STORE_FOLDER = 'store';

/** A trees folder's name: `.<out>.trees` (output.ts). */
const TREES_FOLDER = /^\..+\.trees$/u;

/**
 * The folders, as real paths, that the links of the tree whose real path is `realTree` may
 * lead into: the tree, and when the tree lies in a trees folder, that folder's store.
 */
export function linkRegionsOf(realTree: string): string[] {
  const parent = dirname(realTree);
  const store = join(parent, STORE_FOLDER);
  if (!TREES_FOLDER.test(basename(parent)) || !existsSync(store)) return [realTree];
  return [realTree, realpathSync(store)];
}

/**
 * The place of `realFile` (a real path) below the first of `regions` that holds it: its path
 * segments there, or undefined when it lies in none of them or is one of them. Pure.
 */
export function placeIn(regions: readonly string[], realFile: string): string[] | undefined {
  for (const region of regions) {
    const rel = relative(region, realFile);
    if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return rel.split(sep);
  }
  return undefined;
}
