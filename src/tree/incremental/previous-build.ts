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
import type { CatalogueListing } from '../render/catalogue-entry.js';

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
  /**
   * What the previous build kept of a loadout whose entry is whole (store.ts); undefined for the
   * others, which are built again, and for one whose listing the cache lacks. Parses the
   * previous build's listings on first use ({@link Unchanged.readListings}).
   */
  previous(id: string): CachedLoadout | undefined;
  /** The key under which the previous build kept a whole entry of the loadout (its state alone, no listing parsed); undefined when none. */
  previousKey(id: string): string | undefined;
  /**
   * The loadouts whose folders need not be read: no commit since touched them and their folder
   * stamps are unchanged. Told from their states alone: one whose listing turns out missing
   * ({@link Unchanged.previous} undefined) is built after all (build-loadouts.ts), and taken out.
   */
  unread: Set<string>;
  /**
   * Parses the previous build's listings now, unless done (cache.ts `BuildCache.listings`): a
   * build asks once its first loadout is in a thread's hands, so that this thread parses while
   * that one builds (0.2 s at 10,000 loadouts, on the critical path of a rebuild otherwise).
   */
  readListings(): void;
}

/**
 * Tells which of `ids` are unchanged since `live`'s build (`live` undefined: none): asks git
 * which loadouts commits touched since, and compares the folder stamps of now (`stamps`,
 * stamp.ts `readFolderStamps`) with those the build kept; the listings are parsed later
 * ({@link Unchanged.readListings}). `stored`: the entries in the store (store.ts `listEntries`).
 * With `changed` (a watcher's list, build.ts `BuildOptions.changed`), a loadout not in it is
 * unchanged whatever its stamp, unless a commit since touched it. `bundlesOf` says which bundles
 * name a loadout now (cache.ts `LoadoutState.bundles`, '' for none): a loadout named by other
 * bundles than when it was built is read again, as its page lists them.
 * @throws LoadoutError `git` when git fails.
 */
export async function findUnchanged(ids: readonly string[], stored: ReadonlySet<string>, live: PreviousBuild | undefined, repo: CatalogueRepository | undefined, stamps: ReadonlyMap<string, FolderStamp>, changed?: ReadonlySet<string>, bundlesOf: (id: string) => string = () => ''): Promise<Unchanged> {
  const { touched } = await changesSince(repo, live?.cache.head ?? undefined);
  const states = live?.cache.states ?? new Map<string, never>();
  // The live tree links to complete entries only: one still in the store is whole.
  const isWhole = (id: string): boolean => stored.has(states.get(id)?.name ?? '');
  const unread = new Set(
    touched === undefined
      ? []
      : ids.filter((id) => {
          const state = states.get(id);
          // A watcher's word (`changed`) stands for the folder's stamp and status: what it did not see
          // change is as the live tree's build read it, committed or not.
          const same = changed === undefined ? state?.stamp !== undefined && state.stamp.tree === stamps.get(id)?.tree && !state.dirty : state !== undefined && !changed.has(id);
          return same && !touched.has(id) && isWhole(id) && (state?.bundles ?? '') === bundlesOf(id);
        }),
  );
  const listings = (): ReadonlyMap<string, CatalogueListing> => live?.cache.listings() ?? new Map<string, never>();
  return {
    previous(id) {
      const state = states.get(id);
      const listing = state !== undefined && isWhole(id) ? listings().get(id) : undefined;
      return state !== undefined && listing !== undefined ? { state, listing } : undefined;
    },
    previousKey: (id) => (isWhole(id) ? states.get(id)?.key : undefined),
    unread,
    readListings: () => void listings(),
  };
}
