/**
 * What a build leaves in memory for the next build in the same process (`loadout dev`, issue 37
 * point 1): its cache and whole search index as reading them back from its tree would give
 * (previous-build.ts), and the store entry each loadout of its tree links to. The next build
 * takes them instead of reading the tree only while that tree is still the live one (or, for
 * the links, the standby) and its settings are the same; anything else, such as a build from
 * another process in between, sends it back to the files.
 */
import type { CatalogueRepository } from '../history/history.js';
import type { PreviousBuild } from './previous-build.js';

/** The links of one tree: the store entry each loadout links to, by id (store.ts `entriesLinkedBy`). */
export interface KeptLinks {
  /** The tree's folder (in the trees folder, output.ts). */
  readonly tree: string;
  readonly linked: ReadonlyMap<string, string>;
}

/** What one build kept (see the module comment). */
export interface KeptBuild extends KeptLinks {
  /** The build's settings (cache.ts `fingerprintBuild`). */
  readonly fingerprint: string;
  /** Its cache and whole search index. */
  readonly previous: PreviousBuild;
  /** The links of the tree live before it, which became its standby, when they were known. */
  readonly before: KeptLinks | undefined;
  /** The git repository it read (undefined outside git): the next build starts its git reads there before it asks for HEAD (history.ts `startHistoryReads`). */
  readonly repository: Pick<CatalogueRepository, 'git' | 'top' | 'prefix'> | undefined;
}

/** `kept.previous` when `kept` is of the tree `live` and of the settings `fingerprint`; else undefined. Pure. */
export function keptPrevious(kept: KeptBuild | undefined, live: string, fingerprint: string): PreviousBuild | undefined {
  return kept !== undefined && kept.tree === live && kept.fingerprint === fingerprint ? kept.previous : undefined;
}

/** A copy of the links of the tree `standby` when `kept` knew them; else undefined. Pure. */
export function keptStandbyLinks(kept: KeptBuild | undefined, standby: string): Map<string, string> | undefined {
  return kept?.before?.tree === standby ? new Map(kept.before.linked) : undefined;
}
