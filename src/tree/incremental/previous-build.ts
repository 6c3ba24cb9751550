/**
 * What the live tree's build left for the next one (docs/architecture.md): its cache (cache.ts:
 * each loadout's key, entry, folder stamp and listing) and its whole search index
 * (search/inverted-index.ts), and from them the loadouts that cannot have changed, told without
 * reading their folders: no commit since that build's HEAD touched them, and their folders are
 * clean and have the tree id they had then (stamp.ts: git's content addresses).
 */
import { readWholeIndex } from '../../search/index-file.js';
import type { InvertedIndex } from '../../search/inverted-index.js';
import { readBuildCache, type BuildCache, type CachedLoadout } from './cache.js';
import { changesSince, type CatalogueRepository } from '../history/history.js';
import type { FolderStamp } from './stamp.js';

/** What a build left in its tree for the next one. */
export interface PreviousBuild {
  cache: BuildCache;
  /** The whole search index of its loadouts. */
  index: InvertedIndex;
}

/**
 * What the build of the tree at `dir` left, when it was for the same settings
 * (`fingerprint`, cache.ts) and is whole; else undefined, and every loadout is built again.
 * Listings are not parsed yet ({@link BuildCache.listings}).
 */
export function readPreviousBuild(dir: string, fingerprint: string): PreviousBuild | undefined {
  const cache = readBuildCache(dir, fingerprint);
  const index = cache === undefined ? undefined : readWholeIndex(dir);
  if (cache === undefined || index === undefined) return undefined;
  // A loadout the index lacks is built again (its words were lost).
  const indexed = new Set(index.ids);
  for (const id of cache.states.keys()) if (!indexed.has(id)) cache.states.delete(id);
  return { cache, index };
}

/** What {@link findUnchanged} found. */
export interface Unchanged {
  /** What the previous build kept of a loadout whose entry is whole (store.ts); undefined for the others, which are built again. */
  previous(id: string): CachedLoadout | undefined;
  /** The loadouts whose folders need not be read: no commit since touched them and their folder stamps are unchanged. */
  unread: Set<string>;
}

/**
 * Tells which of `ids` are unchanged since `live`'s build (`live` undefined: none): asks git
 * which loadouts commits touched since, compares the folder stamps of now (`stamps`, stamp.ts
 * `readFolderStamps`) with those the build kept, and takes the listings (parsed now unless the
 * caller asked for them before). `stored`: the entries in the store (store.ts `listEntries`).
 * With `changed` (a watcher's list, build.ts `BuildOptions.changed`), a loadout not in it is
 * unchanged whatever its stamp, unless a commit since touched it.
 * @throws LoadoutError `git` when git fails.
 */
export async function findUnchanged(ids: readonly string[], stored: ReadonlySet<string>, live: PreviousBuild | undefined, repo: CatalogueRepository | undefined, stamps: ReadonlyMap<string, FolderStamp>, changed?: ReadonlySet<string>): Promise<Unchanged> {
  const { touched } = await changesSince(repo, live?.cache.head ?? undefined);
  const states = live?.cache.states ?? new Map();
  // The live tree links to complete entries only: one still in the store is whole.
  const isWhole = (id: string): boolean => stored.has(states.get(id)?.name ?? '');
  const candidates = touched === undefined ? [] : ids.filter((id) => {
    const state = states.get(id);
    // A watcher's word (`changed`) stands for the folder's stamp and status: what it did not see
    // change is as the live tree's build read it, committed or not.
    const same = changed === undefined ? state?.stamp !== undefined && state.stamp.tree === stamps.get(id)?.tree && !state.dirty : state !== undefined && !changed.has(id);
    return same && !touched.has(id) && isWhole(id);
  });
  const listings = live?.cache.listings() ?? new Map<string, never>();
  const previous = (id: string): CachedLoadout | undefined => {
    const state = states.get(id);
    const listing = listings.get(id);
    return state !== undefined && listing !== undefined && isWhole(id) ? { state, listing } : undefined;
  };
  const unread = new Set(candidates.filter((id) => previous(id) !== undefined));
  return { previous, unread };
}

