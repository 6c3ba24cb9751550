/**
 * The search index file that `loadout build` writes to `dist/api/search-index.json`
 * (DESIGN.md sections 1 and 9): a serialised MiniSearch index, the result fields of every
 * loadout, and the ranking settings. The home page downloads it for client-side search; the
 * server and the CLI read its binary form (ranking-file.ts). The build makes the index itself
 * (inverted-index.ts: MiniSearch's index, patched from the previous build's on a rebuild).
 * Beside it the build writes `api/skills.json` (the skills that the MCP server exposes as
 * resources) and the two scripts of the pages.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CatalogueEntry } from '../tree-format/catalogue-entry.js';
import { pathInsideSkill } from '../layout/layout.js';
import { CLIENT_SCRIPT, CLIENT_SCRIPT_PATH, MINISEARCH_SCRIPT_PATH } from './client-script.js';
import { searchDocumentOf, searchRowOf, type SearchDocument, type SearchRow } from './document.js';
import { decodeIndex, indexPieces, indexOfMiniSearch, miniSearchPieces, pruneIndex, updateIndex, vectorOf, type InvertedIndex } from './inverted-index.js';
import { rankingIndexPieces, SEARCH_RANKING_PATH, type RankingSource } from './ranking-file.js';
import { compileSettings, SEARCH_INDEX_FORMAT, SEARCH_INDEX_PATH, SEARCH_SETTINGS, type SearchSettings } from './settings.js';

/** Where the skills document goes, relative to `dist/`. */
export const SKILLS_PATH = 'api/skills.json';

/** The JSON of `api/search-index.json`. `documents` is sorted by id. */
export interface SearchIndexFile {
  format: typeof SEARCH_INDEX_FORMAT;
  settings: SearchSettings;
  documents: SearchRow[];
  index: AsPlainObject;
}

/** One skill of one loadout, with its files (SKILL.md and references). */
export interface SkillEntry {
  loadout: string;
  skill: string;
  version: string;
  /** The description of the skill's `SKILL.md` file entry (or of its first file). */
  description: string;
  files: { path: string; rel: string; description: string; bytes: number; lang: string }[];
}

/** The JSON of `api/skills.json`. */
export interface SkillsFile {
  skills: SkillEntry[];
}

/** MiniSearch options for `settings` (the same at build and at load). */
export function miniSearchOptions(settings: SearchSettings): ConstructorParameters<typeof MiniSearch<SearchDocument>>[0] {
  const compiled = compileSettings(settings);
  return { fields: settings.fields, storeFields: [], idField: 'id', tokenize: compiled.tokenize, processTerm: compiled.processTerm };
}

/** Where the build keeps the whole (unpruned) index for the next build, relative to `dist/` (a dot file: never served nor published). */
export const SEARCH_WHOLE_INDEX_PATH = '.search-index.bin';

/** What the search files are written from. */
export interface SearchIndexSource {
  settings: SearchSettings;
  /** The result rows, sorted by id. */
  rows: readonly SearchRow[];
  /** The whole index of the rows' documents (inverted-index.ts). */
  index: InvertedIndex;
}

/** The skills of one loadout, sorted by skill. Pure. */
export function skillEntriesOf(r: CatalogueEntry): SkillEntry[] {
  const bySkill = new Map<string, SkillEntry>();
  for (const f of r.files) {
    if (f.skill === null || (f.role !== 'skill' && f.role !== 'reference')) continue;
    let entry = bySkill.get(f.skill);
    if (entry === undefined) {
      entry = { loadout: r.id, skill: f.skill, version: r.version, description: f.description, files: [] };
      bySkill.set(f.skill, entry);
    }
    const rel = pathInsideSkill({ path: f.path, role: f.role, description: f.description, skill: f.skill });
    if (rel === 'SKILL.md') entry.description = f.description;
    entry.files.push({ path: f.path, rel, description: f.description, bytes: f.bytes, lang: f.lang });
  }
  return [...bySkill.values()].sort((a, b) => (a.skill < b.skill ? -1 : 1));
}

/** The source of the search files of `records` (any order), indexed from scratch. Pure. */
export function searchIndexSourceOf(records: readonly CatalogueEntry[], settings: SearchSettings = SEARCH_SETTINGS): SearchIndexSource {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const compiled = compileSettings(settings);
  const vectors = new Map(sorted.map((r) => [r.id, vectorOf(searchDocumentOf(r, compiled), compiled)]));
  return { settings, rows: sorted.map(searchRowOf), index: updateIndex(settings.fields, undefined, sorted.map((r) => r.id), vectors) };
}

/**
 * The text of `api/search-index.json` (compact JSON, a final newline): the pruned index
 * (`pruned`, else pruned here) and the rows (`rowJson`: their JSON, else made here). Pure.
 */
export function searchIndexJson(source: SearchIndexSource, pruned = pruneIndex(source.index, source.settings), rowJson = source.rows.map((row) => JSON.stringify(row))): string {
  return [...searchIndexPieces(source, pruned, rowJson)].join('');
}

/** The text of {@link searchIndexJson} a row and a term at a time (tree-files.ts `ContentPieces`). Pure. */
export function* searchIndexPieces(source: SearchIndexSource, pruned: InvertedIndex, rowJson: readonly string[]): Generator<string, void, undefined> {
  yield `{"format":${JSON.stringify(SEARCH_INDEX_FORMAT)},"settings":${JSON.stringify(source.settings)},"documents":[`;
  for (let i = 0; i < rowJson.length; i++) yield i === 0 ? (rowJson[i] as string) : `,${rowJson[i] as string}`;
  yield '],"index":';
  yield* miniSearchPieces(pruned);
  yield '}\n';
}

/** What the binary form of a parsed index file is made from (its MiniSearch index read back, inverted-index.ts). Pure. */
export function rankingSourceOf(file: SearchIndexFile): RankingSource {
  return { settings: file.settings, documents: file.documents, index: indexOfMiniSearch(file.index, file.settings.fields) };
}

/** The index file of `records` (what `api/search-index.json` holds). Pure; the same records give the same file. */
export function buildSearchIndexFile(records: readonly CatalogueEntry[], settings: SearchSettings = SEARCH_SETTINGS): SearchIndexFile {
  return JSON.parse(searchIndexJson(searchIndexSourceOf(records, settings))) as SearchIndexFile;
}

/**
 * The text of `api/skills.json` from the loadouts' skills, each loadout's as the JSON of its
 * entries joined by commas (`JSON.stringify(skillEntriesOf(record)).slice(1, -1)`), in loadout
 * order. Pure.
 */
export function skillsDocument(fragments: readonly string[]): string {
  return [...skillsPieces(fragments)].join('');
}

/** The text of {@link skillsDocument} a loadout at a time (tree-files.ts `ContentPieces`). Pure. */
export function* skillsPieces(fragments: readonly string[]): Generator<string, void, undefined> {
  yield '{"skills":[';
  let first = true;
  for (const fragment of fragments) {
    if (fragment === '') continue;
    yield first ? fragment : `,${fragment}`;
    first = false;
  }
  yield ']}\n';
}

/**
 * Where {@link writeSearchIndex} writes: a tree being built, which writes `data` at the tree
 * path `path` (the builder's `OutputTree` is one; search names only what it calls, so that it
 * reads the published format and never the builder).
 */
export interface SearchIndexTarget {
  write(path: string, data: string | Uint8Array | (() => string | Uint8Array | Iterable<string | Uint8Array>)): Promise<void>;
}

/**
 * Writes the index (`api/search-index.json`), its binary form for the server
 * (`.search-ranking.bin`, see `ranking-file.ts`), the whole index for the next build
 * ({@link SEARCH_WHOLE_INDEX_PATH}) and the pages' scripts (`assets/minisearch.js`, the
 * MiniSearch browser bundle, and `assets/search.js`) into the tree being built.
 */
export async function writeSearchIndex(tree: SearchIndexTarget, source: SearchIndexSource): Promise<void> {
  // Each made as its file is written (the target may stop between files); the pruned index and the rows' JSON once, for both.
  let shared: { pruned: InvertedIndex; rowJson: string[] } | undefined;
  const made = (): { pruned: InvertedIndex; rowJson: string[] } => (shared ??= { pruned: pruneIndex(source.index, source.settings), rowJson: source.rows.map((row) => JSON.stringify(row)) });
  // Compact JSON: the pages download this file.
  await tree.write(SEARCH_INDEX_PATH, () => searchIndexPieces(source, made().pruned, made().rowJson));
  await tree.write(SEARCH_RANKING_PATH, () => rankingIndexPieces({ settings: source.settings, documents: source.rows, index: made().pruned, rowJson: made().rowJson }));
  await tree.write(SEARCH_WHOLE_INDEX_PATH, () => indexPieces(source.index));
  await tree.write(MINISEARCH_SCRIPT_PATH, readMiniSearchBrowserBundle());
  await tree.write(CLIENT_SCRIPT_PATH, CLIENT_SCRIPT);
}

/**
 * The whole index a build kept in the tree at `dir`, for the next build; undefined when it
 * has none this code reads.
 */
export function readWholeIndex(dir: string): InvertedIndex | undefined {
  try {
    return decodeIndex(readFileSync(join(dir, SEARCH_WHOLE_INDEX_PATH)));
  } catch {
    return undefined;
  }
}

let bundle: string | undefined;

/** The UMD build of MiniSearch (defines `globalThis.MiniSearch`), from the installed package. */
export function readMiniSearchBrowserBundle(): string {
  if (bundle === undefined) {
    // The package's `exports` hide dist/umd; resolve the CommonJS entry and step across.
    const cjs = createRequire(import.meta.url).resolve('minisearch');
    bundle = readFileSync(join(dirname(cjs), '..', 'umd', 'index.js'), 'utf8');
  }
  return bundle;
}
