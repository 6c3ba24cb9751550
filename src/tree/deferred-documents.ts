/**
 * Catalogue documents written after the tree they belong to went live (`loadout dev`, issue 37
 * point 1): a build told to defer them (build.ts `BuildOptions.documents`) switches to a tree
 * that carries the previous tree's documents, so that a changed loadout's own pages are served
 * within a few hundred milliseconds of a save at 10,000 loadouts, and hands back this writer,
 * which then brings the documents that list every loadout (the list, the search index, the home
 * page, the marketplaces…) up to date.
 *
 * It writes them into the live tree in place, under the build lock, each file replaced in one
 * step (tree-files.ts `atomic`), so the server never finds one missing or half-written; until
 * it ends, the catalogue-wide documents are a mix of the two builds' (the session reloads the
 * pages that list loadouts when it ends). The build's cache and whole search index are written
 * whole before the switch, so a later build reads the truth whether or not this ever ran.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { BUILD_CACHE_FILE } from './incremental/cache.js';
import { ATTESTATIONS_FILE } from './incremental/signed-reuse.js';
import { COMPLETE_MARKER, openTrees } from './write/output.js';
import { documentPathsOf } from './write/store.js';
import { outputOver, TreeFiles, type OutputTree } from './write/tree-files.js';

/** The documents a build deferred (see the module comment). */
export interface DeferredDocuments {
  /** The tree they are for. */
  readonly tree: string;
  /**
   * Writes them. Resolves true when every document was written; false when nothing more was
   * written because `tree` is no longer live, or because `signal` aborted (read before each
   * file, and every few milliseconds while a document that comes a piece at a time is made,
   * after letting the event loop run, so that what aborts it gets the chance: the files
   * written until then stay, the one being made is not written).
   * @throws LoadoutError `io` when a build holds the output folder's lock; the file system's error.
   */
  write(signal?: AbortSignal): Promise<boolean>;
}

/** What the build wrote into the tree for itself before the switch: never removed here. */
const KEPT: ReadonlySet<string> = new Set([COMPLETE_MARKER, BUILD_CACHE_FILE, ATTESTATIONS_FILE]);

/**
 * The longest the writer makes a document a piece at a time before it lets the event loop run
 * (ms): a save that comes meanwhile waits at most about this long, plus the piece being made,
 * before its build starts (issue 37: a save to its page's reload under 500 ms at 10,000 loadouts).
 */
const PAUSE_EVERY_MS = 10;

/** Thrown through the documents' writer when the signal aborts. */
const ABORTED = Symbol('aborted');

/**
 * The writer of the documents that `fill` writes, for the tree `tree` of the output folder
 * `out`. After `fill`, a top-level document of the tree that `fill` wrote nothing at or below
 * (a marketplace of a catalogue that no longer has plugins) is removed, except the build's own
 * files ({@link KEPT}).
 */
export function deferDocuments(out: string, tree: string, fill: (tree: OutputTree) => Promise<void>): DeferredDocuments {
  return {
    tree,
    async write(signal) {
      if (signal?.aborted === true) return false;
      const trees = await openTrees(out);
      try {
        if (trees.live !== tree) return false;
        const written: string[] = [];
        // Before each file, and every PAUSE_EVERY_MS within a document made a piece at a time:
        // the event loop runs (a watcher's event can come in and abort), then the signal is read.
        let since = performance.now();
        const rest = async (): Promise<void> => {
          if (signal !== undefined) await new Promise((resolve) => setImmediate(resolve));
          if (signal?.aborted === true) throw ABORTED;
          since = performance.now();
        };
        const pause = signal === undefined ? undefined : () => (performance.now() - since < PAUSE_EVERY_MS ? undefined : rest());
        const inner = outputOver(new TreeFiles(tree, { atomic: true }), { pause });
        const step = async (path: string): Promise<void> => {
          await rest();
          written.push(path);
        };
        const guarded: OutputTree = {
          dir: inner.dir,
          origin: inner.origin,
          get bytes() {
            return inner.bytes;
          },
          write: async (path, data) => (await step(path), inner.write(path, data)),
          writeJson: async (path, value) => (await step(path), inner.writeJson(path, value)),
          link: async (path, existing) => (await step(path), inner.link(path, existing)),
          carry: async (path, from) => (await step(path), inner.carry(path, from)),
          linkFolder: async (path, folder) => (await step(path), inner.linkFolder(path, folder)),
          remove: () => Promise.reject(new LoadoutError('internal', 'deferred catalogue documents remove nothing while they are written')),
        };
        try {
          await fill(guarded);
        } catch (error) {
          if (error === ABORTED) return false;
          throw error;
        }
        for (const path of documentPathsOf(tree)) {
          if (!KEPT.has(path) && !written.some((w) => w === path || w.startsWith(`${path}/`))) await inner.remove(path);
        }
        return true;
      } finally {
        trees.close();
      }
    },
  };
}
