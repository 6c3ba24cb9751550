/**
 * Catalogue documents carried from the live tree: a rebuild links, instead of writing again, a
 * document that would get the same bytes (DESIGN.md section 7: a rebuild after one change under
 * 2 s at 10,000 loadouts). Most edits change a loadout's files, not its plugin's name, summary or
 * skills, so the folder marketplaces, the skills list and the pages that list the loadouts (the
 * home page, the sitemap, the feed) stay as they were, and writing them was a sixth of a rebuild at
 * 10,000 loadouts (docs/performance.md).
 *
 * A document is carried when it is made one part per listing, in listing order, from nothing
 * else than the listings and the build's settings (which the build cache's fingerprint covers),
 * and every part is the same: a listing carried from the previous build is the same object, and
 * the few others (the loadouts built again) are compared by the part they make, as JSON.
 */
import type { OutputTree, TreeData } from '../write/tree-files.js';
import type { CatalogueListing } from './catalogue-entry.js';

/**
 * The live tree's catalogue documents, written by a build of the same settings (the same build
 * cache fingerprint, cache.ts) from `listings`. Only for a tree whose documents are its own
 * build's (not those a deferring build carried, build.ts) and for a build that signs nothing (a
 * signed snapshot hashes each document as it is written).
 */
export interface PreviousDocuments {
  /** The live tree's folder. */
  dir: string;
  /** The listings its documents were made from, by loadout id, in id order (cache.ts). */
  listings: ReadonlyMap<string, CatalogueListing>;
}

/**
 * Whether a document made from `listings`, one part per listing in their order (`partOf`),
 * would be the one `previous` holds: the same loadouts in the same order, and for each listing
 * that is not the object `previous` holds, the same part as JSON text. Pure.
 */
function samePartsAs(previous: PreviousDocuments, listings: readonly CatalogueListing[], partOf: (listing: CatalogueListing) => unknown): boolean {
  if (previous.listings.size !== listings.length) return false;
  let i = 0;
  for (const [id, before] of previous.listings) {
    const listing = listings[i++] as CatalogueListing;
    if (listing.row.id !== id) return false;
    if (listing !== before && JSON.stringify(partOf(listing)) !== JSON.stringify(partOf(before))) return false;
  }
  return true;
}

/**
 * Writes `data` at `path` in `tree`, or, when {@link samePartsAs} says the document would be
 * the same as `previous` holds, links the previous tree's file there (OutputTree.carry).
 * @throws what OutputTree.write and OutputTree.carry throw.
 */
export async function writeUnlessSame(tree: OutputTree, path: string, data: TreeData, previous: PreviousDocuments | undefined, listings: readonly CatalogueListing[], partOf: (listing: CatalogueListing) => unknown): Promise<void> {
  if (previous !== undefined && samePartsAs(previous, listings, partOf)) await tree.carry(path, previous.dir);
  else await tree.write(path, data);
}

/**
 * {@link writeUnlessSame} for a folder of documents that `write` makes (the catalogue's Agent
 * Skills discovery, skill-discovery.ts): when its parts are the same, the folder is made what
 * `previous` holds there, a file at a time by hard links, what `previous` lacks removed
 * (OutputTree.carry). A tree taken over from an earlier build (`tree.origin`: build.ts leaves
 * such a folder in place) then mostly holds those very files, and carrying costs an `lstat`
 * a file where writing the folder again made each file anew (80 ms of a rebuild at 10,000
 * loadouts, docs/performance.md). Otherwise what such a tree holds at `path` is removed first,
 * so that nothing of the earlier build stays; a tree being served (`origin` undefined) keeps
 * its files until each is replaced.
 * @throws what OutputTree.remove and OutputTree.carry throw, and what `write` throws.
 */
export async function writeFolderUnlessSame(tree: OutputTree, path: string, write: () => Promise<unknown>, previous: PreviousDocuments | undefined, listings: readonly CatalogueListing[], partOf: (listing: CatalogueListing) => unknown): Promise<void> {
  if (previous !== undefined && samePartsAs(previous, listings, partOf)) {
    await tree.carry(path, previous.dir);
    return;
  }
  if (tree.origin !== undefined) await tree.remove(path);
  await write();
}
