/**
 * The ranking settings of search (DESIGN.md sections 5 and 9), in one JSON-safe object that
 * `loadout build` writes into the index file. The server, the CLI and the pages' client-side
 * search all read the settings from that file, so the three rank the same way; the functions
 * below turn the settings into MiniSearch options, and `client-script.ts` repeats them for
 * the browser (the Chromium test compares the two).
 */

/** Where `loadout build` writes the index, relative to `dist/`. */
export const SEARCH_INDEX_PATH = 'api/search-index.json';

/** The `format` of the index file; a reader refuses any other. */
export const SEARCH_INDEX_FORMAT = 'loadout-search-index/1';

/** Ranking settings. Every number is a multiplier unless its name says otherwise. */
export interface SearchSettings {
  /** Indexed fields, in the order of {@link SearchDocument}. */
  fields: string[];
  /** Field boosts (MiniSearch `boost`): a match in `title` counts more than one in `files`. */
  boost: Record<string, number>;
  /** Source of a regular expression (flag `u`) that matches the separators between terms. */
  separator: string;
  /**
   * Source of a regular expression (flags `gu`) matching compound names such as `next.js` or
   * `add-endpoint`; each also counts joined (`nextjs`, `addendpoint`), in documents and queries.
   */
  compound: string;
  /** Source of a regular expression (flags `gu`) matching the joints removed from a compound. */
  joint: string;
  /** Terms dropped at index and query time. */
  stopWords: string[];
  /**
   * Index pruning: in these (long, low-boost) fields, a term found in more than
   * `pruneShare` of the documents is not indexed, once the catalogue has at least
   * `pruneMinDocuments` loadouts. BM25 gives such a term almost no weight (its inverse
   * document frequency is near zero), but scoring it would touch most of the catalogue on
   * every query that contains it; it still matches in the other fields.
   */
  pruneFields: string[];
  pruneShare: number;
  pruneMinDocuments: number;
  /** Prefix matching for query terms of at least this many characters. */
  prefixMinLength: number;
  /** Typo tolerance: query terms of at least this many characters match within `fuzzyDistance` edits. */
  fuzzyMinLength: number;
  fuzzyDistance: number;
  /** MiniSearch `weights` of prefix and fuzzy matches against exact ones (exact = 1). */
  weights: { prefix: number; fuzzy: number };
  /** Document boosts: featured and verified rank up, deprecated down. */
  documentBoost: { featured: number; verified: number; deprecated: number };
  /** BM25+ parameters (MiniSearch's defaults). */
  bm25: { k: number; b: number; d: number };
}

/**
 * The settings written by `loadout build`. Terms are runs of letters and digits: every other
 * character (including `:`, `^`, `~`, `*`, `"`, `+`, `-`) separates terms, so query syntax of
 * other engines in user input is plain text and means nothing special.
 */
export const SEARCH_SETTINGS: SearchSettings = {
  fields: ['title', 'slug', 'stacks', 'categories', 'summary', 'skills', 'highlights', 'description', 'files'],
  boost: { title: 6, slug: 3, stacks: 4, categories: 2, summary: 2, skills: 2, highlights: 1.5, description: 1, files: 0.75 },
  separator: '[^\\p{L}\\p{N}]+',
  compound: '[\\p{L}\\p{N}]+(?:[.\\-_/][\\p{L}\\p{N}]+)+',
  joint: '[.\\-_/]',
  stopWords: ['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with'],
  pruneFields: ['summary', 'highlights', 'description', 'files'],
  pruneShare: 0.05,
  pruneMinDocuments: 500,
  prefixMinLength: 2,
  fuzzyMinLength: 4,
  fuzzyDistance: 1,
  weights: { prefix: 0.4, fuzzy: 0.3 },
  documentBoost: { featured: 1.5, verified: 1.1, deprecated: 0.35 },
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
};

/** What a term processor needs: the settings, compiled once. */
export interface CompiledSettings {
  settings: SearchSettings;
  tokenize: (text: string) => string[];
  processTerm: (term: string) => string | null;
  /** `text` followed by the joined form of each compound name in it (`Next.js` → `Nextjs`). */
  withJoined: (text: string) => string;
}

/** Compiles the tokenizer and term processor of `settings`. */
export function compileSettings(settings: SearchSettings): CompiledSettings {
  const separator = new RegExp(settings.separator, 'u');
  const stop = new Set(settings.stopWords);
  const compound = new RegExp(settings.compound, 'gu');
  const joint = new RegExp(settings.joint, 'gu');
  return {
    settings,
    tokenize: (text) => text.split(separator).filter((t) => t !== ''),
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return lower === '' || stop.has(lower) ? null : lower;
    },
    withJoined: (text) => {
      const joined = [...text.matchAll(compound)].map((m) => m[0].replace(joint, ''));
      return joined.length === 0 ? text : `${text} ${joined.join(' ')}`;
    },
  };
}

/** The query terms of `q`, as MiniSearch will see them (with joined compounds, tokenized, lowercased, no stop words). */
export function queryTerms(compiled: CompiledSettings, q: string): string[] {
  return compiled.tokenize(compiled.withJoined(q)).flatMap((t) => {
    const term = compiled.processTerm(t);
    return term === null ? [] : [term];
  });
}

/**
 * MiniSearch `prefix` option: prefix matching for terms of `prefixMinLength` characters or
 * more that are still being typed: the last term of the query, or any term that is not a
 * whole word of the index (`known`). A complete known word in the middle of a query matches
 * itself only, which keeps a query from touching every word that starts with it.
 */
export function prefixRule(settings: SearchSettings, known: (term: string) => boolean): (term: string, index: number, terms: string[]) => boolean {
  return (term, index, terms) => term.length >= settings.prefixMinLength && (index === terms.length - 1 || !known(term));
}

/**
 * MiniSearch `fuzzy` option: `fuzzyDistance` edits for terms of `fuzzyMinLength` characters or
 * more that are not a word of the index (a word the index has is not a typo). Fuzzy matching
 * walks the whole term tree, so skipping it for known words is most of the speed of search.
 */
export function fuzzyRule(settings: SearchSettings, known: (term: string) => boolean): (term: string) => number | false {
  return (term) => (term.length >= settings.fuzzyMinLength && !known(term) ? settings.fuzzyDistance : false);
}

/** The boost of one document from its flags (product of the applicable `documentBoost` factors). */
export function documentBoostOf(settings: SearchSettings, flags: { featured: boolean; verified: boolean; deprecated: boolean }): number {
  let boost = 1;
  if (flags.featured) boost *= settings.documentBoost.featured;
  if (flags.verified) boost *= settings.documentBoost.verified;
  if (flags.deprecated) boost *= settings.documentBoost.deprecated;
  return boost;
}
