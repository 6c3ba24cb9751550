/**
 * The search index as `loadout build` makes it: MiniSearch's index of the catalogue (the same
 * terms, frequencies and field lengths that `MiniSearch.addAll` would give, a test compares
 * them), kept as typed arrays so that a rebuild after one loadout changed patches the previous
 * build's index instead of indexing 10,000 loadouts again (DESIGN.md section 7: a rebuild after
 * one change under 2 s; `bench/build.ts` measures it).
 *
 * Documents are numbered by their place in `ids` (sorted by id). Terms are sorted by UTF-16
 * code units. Per term t, its (term, field) pairs are `termPairs[t]` to `termPairs[t + 1]`, in
 * field order; per pair p, its postings are `pairPostings[p]` to `pairPostings[p + 1]`, by
 * document. The build keeps the whole index (`.search-index.bin` in the tree, a dot file:
 * never served nor published) and writes the pruned one for readers (index-file.ts).
 */
import type { AsPlainObject } from 'minisearch';
import { LoadoutError } from '../catalogue/errors.js';
import type { SearchDocument } from './document.js';
import { decodeSections, joinPieces, sectionPieces } from './sections-file.js';
import type { CompiledSettings, SearchSettings } from './settings.js';

/** One document as MiniSearch indexes it. */
export interface DocumentVector {
  id: string;
  /** Per field (the settings' order): its length, MiniSearch's `fieldLength` (the distinct tokens before processing). */
  lengths: number[];
  /** Per field: each processed term and its frequency. */
  terms: Map<string, number>[];
}

/** An index of documents (see the module comment). */
export interface InvertedIndex {
  /** The indexed fields, in the settings' order (a pair's field is a place in it). */
  fields: readonly string[];
  /** The documents' ids, sorted. */
  ids: string[];
  /** Per document d and field f, at `d * F + f`: the field's length. */
  fieldLengths: Uint32Array;
  terms: string[];
  termPairs: Uint32Array;
  pairField: Uint8Array;
  pairPostings: Uint32Array;
  postingDocs: Uint32Array;
  postingFreqs: Uint32Array;
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `document` as MiniSearch's `add` sees it with the settings' tokenizer and term processor:
 * per field, the number of distinct tokens (before processing) and the frequency of each
 * processed term that is not dropped. Pure.
 */
export function vectorOf(document: SearchDocument, compiled: CompiledSettings): DocumentVector {
  const fields = compiled.settings.fields;
  const lengths: number[] = [];
  const terms: Map<string, number>[] = [];
  for (const field of fields) {
    const tokens = compiled.tokenize((document as unknown as Record<string, string>)[field] ?? '');
    lengths.push(new Set(tokens).size);
    const counts = new Map<string, number>();
    for (const token of tokens) {
      const term = compiled.processTerm(token);
      if (term !== null) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    terms.push(counts);
  }
  return { id: document.id, lengths, terms };
}

/** Growing arrays of numbers for the sections being built. */
class Column {
  data: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** The postings of the new documents, by term: per pair, documents and frequencies in document order. */
type NewPostings = Map<string, { field: number; doc: number; freq: number }[]>;

/**
 * Patches `previous` (which may be undefined: an empty index) into the index of the documents
 * `ids` (sorted by id, no duplicates): a document of `vectors` takes the terms and lengths
 * given there, one only in `previous` keeps its own, one in neither is an error. Documents of
 * `previous` not in `ids` go. Pure; costs one pass over `previous`.
 * @throws LoadoutError `internal` when a document of `ids` is in neither, or the fields differ.
 */
export function updateIndex(fields: readonly string[], previous: InvertedIndex | undefined, ids: readonly string[], vectors: ReadonlyMap<string, DocumentVector>): InvertedIndex {
  const F = fields.length;
  if (previous !== undefined && previous.fields.join('\n') !== fields.join('\n')) throw new LoadoutError('internal', `the previous search index has the fields ${previous.fields.join(', ')} (expected ${fields.join(', ')})`);
  // Where each previous document goes: its new number, or -1 when it goes or is replaced.
  const numberOf = new Map(ids.map((id, d) => [id, d]));
  const moved = new Int32Array(previous?.ids.length ?? 0);
  previous?.ids.forEach((id, old) => (moved[old] = vectors.has(id) ? -1 : (numberOf.get(id) ?? -1)));
  const fieldLengths = new Uint32Array(ids.length * F);
  if (previous !== undefined) {
    moved.forEach((d, old) => {
      if (d >= 0) fieldLengths.set(previous.fieldLengths.subarray(old * F, old * F + F), d * F);
    });
  }
  const kept = new Set(previous?.ids);
  const fresh: NewPostings = new Map();
  ids.forEach((id, d) => {
    const vector = vectors.get(id);
    if (vector === undefined) {
      if (!kept.has(id)) throw new LoadoutError('internal', `the search index has no terms for loadout ${id}`);
      return;
    }
    vector.lengths.forEach((length, f) => (fieldLengths[d * F + f] = length));
    vector.terms.forEach((counts, field) => {
      for (const [term, freq] of counts) {
        let list = fresh.get(term);
        if (list === undefined) fresh.set(term, (list = []));
        list.push({ field, doc: d, freq });
      }
    });
  });
  for (const list of fresh.values()) list.sort((a, b) => a.field - b.field || a.doc - b.doc);

  const oldTerms = previous?.terms ?? [];
  const newTerms = [...fresh.keys()].sort(compareStrings);
  const terms: string[] = [];
  const termPairs = new Column(oldTerms.length + newTerms.length + 1);
  const pairField = new Column((previous?.pairField.length ?? 0) + newTerms.length);
  const pairPostings = new Column((previous?.pairPostings.length ?? 1) + newTerms.length);
  const postingDocs = new Column((previous?.postingDocs.length ?? 0) + 1024);
  const postingFreqs = new Column((previous?.postingFreqs.length ?? 0) + 1024);
  termPairs.push(0);
  pairPostings.push(0);
  // Merges the term's previous postings (kept documents, renumbered: the order of ids holds)
  // with its new ones, field by field.
  const emit = (term: string, old: number, added: { field: number; doc: number; freq: number }[] | undefined): void => {
    let next = 0;
    for (let f = 0; f < F; f++) {
      let oldFrom = 0;
      let oldTo = 0;
      if (previous !== undefined && old >= 0) {
        for (let p = previous.termPairs[old] ?? 0; p < (previous.termPairs[old + 1] ?? 0); p++) {
          if (previous.pairField[p] === f) {
            oldFrom = previous.pairPostings[p] ?? 0;
            oldTo = previous.pairPostings[p + 1] ?? 0;
          }
        }
      }
      const before = postingDocs.length;
      let i = oldFrom;
      while (true) {
        while (i < oldTo && (moved[previous?.postingDocs[i] ?? 0] ?? -1) < 0) i++;
        const fromOld = i < oldTo ? (moved[previous?.postingDocs[i] ?? 0] ?? 0) : Number.POSITIVE_INFINITY;
        const mine = added !== undefined && next < added.length && added[next]?.field === f ? added[next] : undefined;
        const fromNew = mine === undefined ? Number.POSITIVE_INFINITY : mine.doc;
        if (fromOld === Number.POSITIVE_INFINITY && fromNew === Number.POSITIVE_INFINITY) break;
        if (fromOld < fromNew) {
          postingDocs.push(fromOld);
          postingFreqs.push(previous?.postingFreqs[i] ?? 0);
          i++;
        } else {
          postingDocs.push(fromNew);
          postingFreqs.push(mine?.freq ?? 0);
          next++;
        }
      }
      if (postingDocs.length > before) {
        pairField.push(f);
        pairPostings.push(postingDocs.length);
      }
    }
    if (pairField.length > (termPairs.data[termPairs.length - 1] ?? 0)) {
      terms.push(term);
      termPairs.push(pairField.length);
    }
  };
  let o = 0;
  let n = 0;
  while (o < oldTerms.length || n < newTerms.length) {
    const oldTerm = oldTerms[o];
    const newTerm = newTerms[n];
    const order = oldTerm === undefined ? 1 : newTerm === undefined ? -1 : compareStrings(oldTerm, newTerm);
    if (order < 0) emit(oldTerm as string, o++, undefined);
    else if (order > 0) emit(newTerm as string, -1, fresh.get(newTerms[n++] as string));
    else emit(oldTerm as string, o++, fresh.get(newTerms[n++] as string));
  }
  return { fields, ids: [...ids], fieldLengths, terms, termPairs: termPairs.done(), pairField: Uint8Array.from(pairField.done()), pairPostings: pairPostings.done(), postingDocs: postingDocs.done(), postingFreqs: postingFreqs.done() };
}

/**
 * The index as readers get it (the settings' pruning): in each of `pruneFields`, a term found
 * in more than `pruneShare` of the documents is dropped, once there are `pruneMinDocuments`
 * documents (see `SearchSettings`); a term left in no field goes. Pure.
 */
export function pruneIndex(index: InvertedIndex, settings: SearchSettings): InvertedIndex {
  const documents = index.ids.length;
  if (documents < settings.pruneMinDocuments) return index;
  const limit = settings.pruneShare * documents;
  const prunable = new Set(settings.pruneFields.map((field) => index.fields.indexOf(field)));
  const terms: string[] = [];
  const termPairs = new Column(index.terms.length + 1);
  const pairField = new Column(index.pairField.length);
  const pairPostings = new Column(index.pairPostings.length);
  const postingDocs = new Column(index.postingDocs.length);
  const postingFreqs = new Column(index.postingFreqs.length);
  termPairs.push(0);
  pairPostings.push(0);
  index.terms.forEach((term, t) => {
    for (let p = index.termPairs[t] ?? 0; p < (index.termPairs[t + 1] ?? 0); p++) {
      const from = index.pairPostings[p] ?? 0;
      const to = index.pairPostings[p + 1] ?? 0;
      const field = index.pairField[p] ?? 0;
      if (prunable.has(field) && to - from > limit) continue;
      for (let i = from; i < to; i++) {
        postingDocs.push(index.postingDocs[i] ?? 0);
        postingFreqs.push(index.postingFreqs[i] ?? 0);
      }
      pairField.push(field);
      pairPostings.push(postingDocs.length);
    }
    if (pairField.length > (termPairs.data[termPairs.length - 1] ?? 0)) {
      terms.push(term);
      termPairs.push(pairField.length);
    }
  });
  return { ...index, terms, termPairs: termPairs.done(), pairField: Uint8Array.from(pairField.done()), pairPostings: pairPostings.done(), postingDocs: postingDocs.done(), postingFreqs: postingFreqs.done() };
}

/**
 * Per field, MiniSearch's average field length: the running mean it keeps as documents are
 * added in order (`addFieldLength`: `(average * count + length) / (count + 1)`), computed the
 * same way so that the value is MiniSearch's to the last bit. Pure.
 */
export function averageFieldLengths(index: InvertedIndex): number[] {
  const F = index.fields.length;
  const averages = new Array<number>(F).fill(0);
  for (let d = 0; d < index.ids.length; d++) {
    for (let f = 0; f < F; f++) averages[f] = ((averages[f] ?? 0) * d + (index.fieldLengths[d * F + f] ?? 0)) / (d + 1);
  }
  return averages;
}

/**
 * The index in MiniSearch's serialised form (`MiniSearch.toJSON()`, serialization version 2),
 * which `MiniSearch.loadJSON` reads in the browser: documents numbered in `ids` order, terms in
 * sorted order (MiniSearch's own order is its tree's; it reads any). JSON text. Pure.
 */
export function miniSearchJson(index: InvertedIndex): string {
  return [...miniSearchPieces(index)].join('');
}

/**
 * The text of {@link miniSearchJson} a term at a time (search-index.json's largest part: it is
 * written as it is made, never as one string, tree-files.ts `ContentPieces`). Pure.
 */
export function* miniSearchPieces(index: InvertedIndex): Generator<string, void, undefined> {
  const count = index.ids.length;
  const F = index.fields.length;
  const documentIds = index.ids.map((id, d) => `"${d}":${JSON.stringify(id)}`).join(',');
  const fieldIds = JSON.stringify(Object.fromEntries(index.fields.map((field, f) => [field, f])));
  const lengths = index.ids.map((_, d) => `"${d}":[${index.fieldLengths.subarray(d * F, d * F + F).join(',')}]`).join(',');
  yield `{"documentCount":${count},"nextId":${count},"documentIds":{${documentIds}},"fieldIds":${fieldIds},"fieldLength":{${lengths}},"averageFieldLength":${JSON.stringify(averageFieldLengths(index))},"storedFields":{},"dirtCount":0,"index":[`;
  for (let t = 0; t < index.terms.length; t++) {
    // `[term,{"field":{"doc":freq,…},…}]`
    let entry = `${t === 0 ? '' : ','}[${JSON.stringify(index.terms[t])},{`;
    const firstPair = index.termPairs[t] ?? 0;
    for (let p = firstPair; p < (index.termPairs[t + 1] ?? 0); p++) {
      entry += `${p === firstPair ? '' : ','}"${index.pairField[p] ?? 0}":{`;
      const firstPosting = index.pairPostings[p] ?? 0;
      for (let i = firstPosting; i < (index.pairPostings[p + 1] ?? 0); i++) entry += `${i === firstPosting ? '' : ','}"${index.postingDocs[i] ?? 0}":${index.postingFreqs[i] ?? 0}`;
      entry += '}';
    }
    yield `${entry}}]`;
  }
  yield '],"serializationVersion":2}';
}

/**
 * The index of a MiniSearch serialisation (`toJSON()`, as `api/search-index.json` holds it)
 * over `fields`, its documents in short-id order (the build numbers them by id); postings of
 * documents the serialisation no longer lists are dropped. For readers of a JSON index. Pure.
 */
export function indexOfMiniSearch(plain: AsPlainObject, fields: readonly string[]): InvertedIndex {
  const shortIds = Object.keys(plain.documentIds).map(Number).sort((a, b) => a - b);
  const docOf = new Map(shortIds.map((shortId, d) => [String(shortId), d]));
  const ids = shortIds.map((shortId) => String(plain.documentIds[String(shortId)]));
  const F = fields.length;
  const fieldLengths = new Uint32Array(ids.length * F);
  for (const [shortId, lengths] of Object.entries(plain.fieldLength)) {
    const d = docOf.get(shortId);
    if (d === undefined) continue;
    fields.forEach((field, f) => (fieldLengths[d * F + f] = lengths[plain.fieldIds[field] ?? -1] ?? 0));
  }
  const vectors = new Map(ids.map((id): [string, DocumentVector] => [id, { id, lengths: [], terms: fields.map(() => new Map<string, number>()) }]));
  for (const [term, byField] of plain.index) {
    fields.forEach((field, f) => {
      const fieldId = plain.fieldIds[field];
      for (const [shortId, freq] of Object.entries(fieldId === undefined ? {} : (byField[String(fieldId)] ?? {}))) {
        const id = ids[docOf.get(shortId) ?? -1];
        if (id !== undefined) vectors.get(id)?.terms[f]?.set(term, freq);
      }
    });
  }
  const sorted = [...ids].sort(compareStrings);
  const index = updateIndex(fields, undefined, sorted, vectors);
  // Lengths by the serialisation's numbering, moved to the sorted one.
  const place = new Map(ids.map((id, d) => [id, d]));
  sorted.forEach((id, d) => index.fieldLengths.set(fieldLengths.subarray((place.get(id) ?? 0) * F, (place.get(id) ?? 0) * F + F), d * F));
  return index;
}

/** The magic of the whole index file. */
const MAGIC = 'LSI1';
/** Its format. */
const FORMAT = 'loadout-search-index-build/1';

/** The whole index as bytes, for the next build (`.search-index.bin`). Pure. */
export function encodeIndex(index: InvertedIndex): Uint8Array {
  return joinPieces(indexPieces(index));
}

/** The bytes of {@link encodeIndex} a section at a time (sections-file.ts `sectionPieces`). Pure. */
export function* indexPieces(index: InvertedIndex): Generator<Uint8Array | '', void, undefined> {
  for (const term of index.terms) if (term.includes('\n')) throw new LoadoutError('internal', `the search index has the term ${JSON.stringify(term)} (expected no line break in a term)`);
  yield '';
  yield* sectionPieces(MAGIC, { format: FORMAT, fields: index.fields, documents: index.ids.length, terms: index.terms.length }, [
    { name: 'ids', type: Uint8Array, data: Buffer.from(index.ids.join('\n')) },
    { name: 'terms', type: Uint8Array, data: Buffer.from(index.terms.join('\n')) },
    { name: 'fieldLengths', type: Uint32Array, data: index.fieldLengths },
    { name: 'termPairs', type: Uint32Array, data: index.termPairs },
    { name: 'pairField', type: Uint8Array, data: index.pairField },
    { name: 'pairPostings', type: Uint32Array, data: index.pairPostings },
    { name: 'postingDocs', type: Uint32Array, data: index.postingDocs },
    { name: 'postingFreqs', type: Uint32Array, data: index.postingFreqs },
  ]);
}

/**
 * Reads a file written by {@link encodeIndex}; the arrays are views of `bytes`.
 * @throws LoadoutError `invalid_content` when it is not such a file or is inconsistent.
 */
export function decodeIndex(bytes: Uint8Array): InvertedIndex {
  const file = decodeSections(bytes, MAGIC, 'the build\'s search index');
  const bad = (what: string): LoadoutError => new LoadoutError('invalid_content', `the build's search index ${what}`, { hint: 'Run `loadout build --clean`.' });
  if (file.header['format'] !== FORMAT || !Array.isArray(file.header['fields'])) throw bad(`has format ${JSON.stringify(file.header['format'])} (expected ${FORMAT})`);
  const text = (name: string): string[] => {
    const raw = file.section(name, Uint8Array);
    const joined = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
    return joined === '' ? [] : joined.split('\n');
  };
  const index: InvertedIndex = {
    fields: file.header['fields'] as string[],
    ids: text('ids'),
    terms: text('terms'),
    fieldLengths: file.section('fieldLengths', Uint32Array),
    termPairs: file.section('termPairs', Uint32Array),
    pairField: file.section('pairField', Uint8Array),
    pairPostings: file.section('pairPostings', Uint32Array),
    postingDocs: file.section('postingDocs', Uint32Array),
    postingFreqs: file.section('postingFreqs', Uint32Array),
  };
  const pairs = index.pairField.length;
  if (index.termPairs.length !== index.terms.length + 1 || index.pairPostings.length !== pairs + 1 || index.fieldLengths.length !== index.ids.length * index.fields.length || index.postingDocs.length !== index.postingFreqs.length || (index.termPairs[index.terms.length] ?? 0) !== pairs || (index.pairPostings[pairs] ?? 0) !== index.postingDocs.length) {
    throw bad(`has sections of the wrong lengths for ${index.terms.length} terms and ${index.ids.length} documents`);
  }
  return index;
}
