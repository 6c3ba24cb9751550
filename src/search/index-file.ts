/**
 * The search index file that `loadout build` writes to `dist/api/search-index.json`
 * (DESIGN.md sections 1 and 9): a serialised MiniSearch index, the result fields of every
 * loadout, and the ranking settings. The server and the CLI load it once; the home page
 * downloads it for client-side search. Beside it the build writes `api/skills.json` (the
 * skills that the MCP server exposes as resources) and the two scripts of the pages.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CatalogueEntry } from '../build/catalogue-entry.js';
import type { OutputTree } from '../build/tree-files.js';
import { pathInsideSkill } from '../install/layout/layout.js';
import { CLIENT_SCRIPT, CLIENT_SCRIPT_PATH, MINISEARCH_SCRIPT_PATH } from './client-script.js';
import { encodeRankingIndex, SEARCH_RANKING_PATH } from './ranking-file.js';
import { searchDocumentOf, searchRowOf, type SearchDocument, type SearchRow } from './document.js';
import { compileSettings, SEARCH_INDEX_FORMAT, SEARCH_INDEX_PATH, SEARCH_SETTINGS, type CompiledSettings, type SearchSettings } from './settings.js';

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

/** Builds the index file of `records`. Pure; the same records give the same bytes. */
export function buildSearchIndexFile(records: readonly CatalogueEntry[], settings: SearchSettings = SEARCH_SETTINGS): SearchIndexFile {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const compiled = compileSettings(settings);
  const documents = sorted.map((r) => searchDocumentOf(r, compiled));
  const pruned = commonTerms(documents, compiled, settings);
  const mini = new MiniSearch<SearchDocument>({
    ...miniSearchOptions(settings),
    processTerm: (term, field) => {
      const t = compiled.processTerm(term);
      return t === null || (field !== undefined && pruned.get(field)?.has(t) === true) ? null : t;
    },
  });
  mini.addAll(documents);
  return { format: SEARCH_INDEX_FORMAT, settings, documents: sorted.map(searchRowOf), index: mini.toJSON() };
}

/** Per prunable field, the terms found in more than `pruneShare` of the documents (see {@link SearchSettings}). */
export function commonTerms(documents: readonly SearchDocument[], compiled: CompiledSettings, settings: SearchSettings): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  if (documents.length < settings.pruneMinDocuments) return result;
  for (const field of settings.pruneFields) {
    const df = new Map<string, number>();
    for (const doc of documents) {
      const text = (doc as unknown as Record<string, string>)[field] ?? '';
      const terms = compiled.tokenize(text).map(compiled.processTerm).filter((t): t is string => t !== null);
      for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
    }
    const limit = settings.pruneShare * documents.length;
    result.set(field, new Set([...df].filter(([, n]) => n > limit).map(([t]) => t)));
  }
  return result;
}

/** The skills of `records`, sorted by loadout then skill. Pure. */
export function buildSkillsFile(records: readonly CatalogueEntry[]): SkillsFile {
  const skills: SkillEntry[] = [];
  for (const r of [...records].sort((a, b) => (a.id < b.id ? -1 : 1))) {
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
    skills.push(...[...bySkill.values()].sort((a, b) => (a.skill < b.skill ? -1 : 1)));
  }
  return { skills };
}

/**
 * Writes the index, its binary form for the server (`.search-ranking.bin`, see
 * `ranking-file.ts`), the skills document and the pages' scripts (`assets/minisearch.js`, the
 * MiniSearch browser bundle, and `assets/search.js`) into the tree being built.
 */
export async function writeSearchIndex(tree: OutputTree, records: readonly CatalogueEntry[]): Promise<void> {
  const file = buildSearchIndexFile(records);
  // Compact JSON: the pages download this file.
  await tree.write(SEARCH_INDEX_PATH, `${JSON.stringify(file)}\n`);
  await tree.write(SEARCH_RANKING_PATH, encodeRankingIndex(file));
  await tree.write(SKILLS_PATH, `${JSON.stringify(buildSkillsFile(records))}\n`);
  await tree.write(MINISEARCH_SCRIPT_PATH, readMiniSearchBrowserBundle());
  await tree.write(CLIENT_SCRIPT_PATH, CLIENT_SCRIPT);
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
