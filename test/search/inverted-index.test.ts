/**
 * The build's own search index (src/search/inverted-index.ts) against MiniSearch, the engine
 * the pages run: indexed from scratch it holds exactly what `MiniSearch.addAll` holds (terms,
 * frequencies per field and document, field lengths, the running average of field lengths to
 * the last bit), pruned it holds what MiniSearch holds with the pruned terms dropped at
 * indexing time (as the build used to index), and patched after any change it equals the index
 * made from scratch.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { syntheticLoadouts, syntheticRecord } from '../../bench/search-generate.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { random } from '../../bench/synthetic.js';
import { searchDocumentOf, type SearchDocument } from '../../src/search/document.js';
import { miniSearchOptions } from '../../src/search/index-file.js';
import { decodeIndex, encodeIndex, indexOfMiniSearch, miniSearchJson, pruneIndex, updateIndex, vectorOf, type DocumentVector, type InvertedIndex } from '../../src/search/inverted-index.js';
import { compileSettings, SEARCH_SETTINGS, type SearchSettings } from '../../src/search/settings.js';

const settings: SearchSettings = { ...SEARCH_SETTINGS, pruneMinDocuments: 50 };
const compiled = compileSettings(settings);
const fields = settings.fields;

/** Documents of the search benchmark's generator, and a few of odd shape. */
function documents(count: number, seed: number): SearchDocument[] {
  const docs = syntheticLoadouts(count, seed).map((spec) => searchDocumentOf(syntheticRecord(spec, 'http://127.0.0.1:8787'), compiled));
  docs.push({ id: 'zz-empty', slug: 'zz empty', title: '', stacks: '', categories: '', summary: '', skills: '', highlights: '', description: '', files: '' });
  docs.push({ id: 'zz-words', slug: 'zz words', title: 'The the THE tHe and', stacks: 'Next.js next-js', categories: 'a a a', summary: 'Ünïcode wörds, ÜNÏCODE; émigré—naïve café', skills: 'x', highlights: 'line\nline', description: 'one two two three three three', files: 'files' });
  return docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** An index as plain data: term → field → document id → frequency; lengths by document id. */
function canonical(plain: AsPlainObject): { postings: Record<string, Record<string, Record<string, number>>>; lengths: Record<string, number[]>; average: number[] } {
  const fieldOf = Object.fromEntries(Object.entries(plain.fieldIds).map(([field, id]) => [String(id), field]));
  const idOf = (shortId: string): string => String(plain.documentIds[shortId]);
  const postings: Record<string, Record<string, Record<string, number>>> = {};
  for (const [term, byField] of plain.index) {
    for (const [fieldId, freqs] of Object.entries(byField)) {
      for (const [shortId, freq] of Object.entries(freqs)) ((postings[term] ??= {})[fieldOf[fieldId] ?? fieldId] ??= {})[idOf(shortId)] = freq;
    }
  }
  const lengths = Object.fromEntries(Object.entries(plain.fieldLength).map(([shortId, l]) => [idOf(shortId), fields.map((f) => l[plain.fieldIds[f] ?? -1] ?? 0)]));
  return { postings, lengths, average: fields.map((f) => plain.averageFieldLength[plain.fieldIds[f] ?? -1] ?? 0) };
}

const ours = (index: InvertedIndex): ReturnType<typeof canonical> => canonical(JSON.parse(miniSearchJson(index)) as AsPlainObject);
const fromScratch = (docs: readonly SearchDocument[]): InvertedIndex => updateIndex(fields, undefined, docs.map((d) => d.id), new Map(docs.map((d) => [d.id, vectorOf(d, compiled)])));

/** MiniSearch's own index of `docs`; with `pruned`, the terms each field drops (as the build used to index). */
function miniSearchOf(docs: readonly SearchDocument[], pruned?: Map<string, Set<string>>): AsPlainObject {
  const options = miniSearchOptions(settings);
  const mini = new MiniSearch<SearchDocument>({
    ...options,
    processTerm: (term, field) => {
      const t = compiled.processTerm(term);
      return t === null || (field !== undefined && pruned?.get(field)?.has(t) === true) ? null : t;
    },
  });
  mini.addAll(docs);
  return mini.toJSON();
}

/** The terms in more than `pruneShare` of the documents, per prunable field (the rule of `SearchSettings`). */
function commonTerms(docs: readonly SearchDocument[]): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const field of settings.pruneFields) {
    const df = new Map<string, number>();
    for (const doc of docs) for (const term of new Set(compiled.tokenize((doc as unknown as Record<string, string>)[field] ?? '').map(compiled.processTerm))) if (term !== null) df.set(term, (df.get(term) ?? 0) + 1);
    result.set(field, new Set([...df].filter(([, n]) => n > settings.pruneShare * docs.length).map(([t]) => t)));
  }
  return result;
}

describe("the build's search index", () => {
  const docs = documents(300, 5);

  it('holds what MiniSearch holds after addAll: terms, frequencies, field lengths and their running average', () => {
    const index = fromScratch(docs);
    expect(ours(index)).toEqual(canonical(miniSearchOf(docs)));
    expect(index.terms).toEqual([...index.terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('pruned, holds what MiniSearch holds with the common terms of the long fields dropped', () => {
    const pruned = pruneIndex(fromScratch(docs), settings);
    const common = commonTerms(docs);
    expect([...common.values()].some((terms) => terms.size > 0)).toBe(true);
    expect(ours(pruned)).toEqual(canonical(miniSearchOf(docs, common)));
    // Below pruneMinDocuments nothing is pruned.
    const few = docs.slice(0, 20);
    expect(ours(pruneIndex(fromScratch(few), settings))).toEqual(canonical(miniSearchOf(few)));
  });

  it('patched after removals, additions and changes, equals the index made from scratch', () => {
    const next = random(11);
    const pool = documents(400, 9);
    let current = pool.slice(0, 250);
    let index = fromScratch(current);
    for (let round = 0; round < 12; round++) {
      const removed = new Set(current.filter(() => next() < 0.05).map((d) => d.id));
      const added = pool.filter((d) => !current.some((c) => c.id === d.id) && next() < 0.05);
      const changed = current.filter((d) => !removed.has(d.id) && next() < 0.03).map((d): SearchDocument => ({ ...d, summary: `${d.summary} rewritten ${round} extra-word-${round}`, title: next() < 0.5 ? '' : d.title }));
      const byId = new Map(current.filter((d) => !removed.has(d.id)).map((d) => [d.id, d]));
      for (const d of [...added, ...changed]) byId.set(d.id, d);
      current = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const vectors = new Map<string, DocumentVector>([...added, ...changed].map((d) => [d.id, vectorOf(d, compiled)]));
      index = updateIndex(fields, index, current.map((d) => d.id), vectors);
      const scratch = fromScratch(current);
      expect(index, `round ${round}`).toEqual(scratch);
      expect(pruneIndex(index, settings)).toEqual(pruneIndex(scratch, settings));
    }
    // Everything removed, then everything back.
    expect(updateIndex(fields, index, [], new Map())).toEqual(fromScratch([]));
  });

  it('refuses a document it has no words for', () => {
    expect(() => updateIndex(fields, fromScratch(docs.slice(0, 3)), [...docs.slice(0, 3).map((d) => d.id), 'zzz-new'], new Map())).toThrow('the search index has no terms for loadout zzz-new');
  });

  it('reads back a MiniSearch serialisation and its own file, and refuses a damaged file', () => {
    const index = fromScratch(docs);
    expect(indexOfMiniSearch(miniSearchOf(docs), fields)).toEqual(index);
    const bytes = encodeIndex(index);
    expect(decodeIndex(bytes)).toEqual(index);
    for (const damaged of [bytes.subarray(0, bytes.length - 16), Buffer.concat([Buffer.from('XXXX'), bytes.subarray(4)])]) {
      expect(() => decodeIndex(damaged)).toThrow(LoadoutError);
    }
  });
});
