/**
 * The server's copy of the search index (DESIGN.md section 7): the MiniSearch index and the result
 * rows of `api/search-index.json`, laid out as typed arrays in one binary file. `loadout build`
 * writes it beside the JSON as the dot file {@link SEARCH_RANKING_PATH} (dot files are never
 * served nor published, so the pages keep downloading the JSON); `loadout serve` and
 * `loadout search` read it into one buffer and rank over views of it, so that a server starts
 * without parsing 10 MB of JSON or building a Map per posting, and holds a few MB for 10,000
 * loadouts instead of a MiniSearch object graph.
 *
 * Layout: the container of sections-file.ts with the magic "LSR1", a {@link RankingHeader} and
 * the sections of {@link SECTION_TYPES}.
 *
 * Documents are numbered by their place in `documents` of the index file (sorted by id), so a
 * lower number is a lower id. Field numbers are places in `settings.fields` (the order in
 * which MiniSearch scores the fields).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { HAS_VALUES, PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { rowHas, type SearchRow } from './document.js';
import { averageFieldLengths, type InvertedIndex } from './inverted-index.js';
import { decodeSections, joinPieces, sectionPieces } from './sections-file.js';
import type { SearchSettings } from './settings.js';

/** Where `loadout build` writes the file, relative to `dist/`. */
export const SEARCH_RANKING_PATH = '.search-ranking.bin';

/** The `format` of the header; a reader refuses any other (3: `docFlags` of 32 bits, with the capability list's). */
export const SEARCH_RANKING_FORMAT = 'loadout-search-ranking/3';

const MAGIC = 'LSR1';

/**
 * Bits of `docFlags`: the row's marks, a bit per `has` value (document.ts `rowHas`), and the
 * capability list's `runs` as two bits, so that a row without a list (a tree built before them)
 * matches neither `runs` value.
 */
export const DOC_FLAG = { verified: 1, featured: 2, deprecated: 4, rules: 8, skills: 16, mcp: 32, hooks: 64, scripts: 128, runsNothing: 256, runsSomething: 512 } as const;

/** The sections and their element types, in file order. */
const SECTION_TYPES = {
  /** The index's terms, sorted by UTF-16 code units, joined by "\n" (UTF-8). */
  terms: Uint8Array,
  /** Per term t, its (term, field) pairs are `termPairs[t]` to `termPairs[t + 1]` (T + 1 entries). */
  termPairs: Uint32Array,
  /** Per pair, the field number; a term's pairs are in field order. */
  pairField: Uint8Array,
  /** Per pair p, its postings are `pairPostings[p]` to `pairPostings[p + 1]` (P + 1 entries). */
  pairPostings: Uint32Array,
  /** Per posting, the document. */
  postingDocs: Uint32Array,
  /** Per posting, the term's frequency in the field. */
  postingFreqs: Uint32Array,
  /** Per document d and field f, at `d * F + f`: the field's length in terms (MiniSearch's `fieldLength`). */
  fieldLengths: Uint32Array,
  /** Per document, the bits of {@link DOC_FLAG}. */
  docFlags: Uint32Array,
  /** Per document, bit i set when `compatibility[agents[i]]` is not `unsupported`. */
  docAgents: Uint32Array,
  /** Per document d and agent i, at `d * A + i`: the tokens the agent loads at every session start (`always_tokens`, DESIGN.md section 8). */
  docAlwaysTokens: Uint32Array,
  /** Per document d, its tags are `docTags[docTagStart[d]]` to `docTags[docTagStart[d + 1]]` (D + 1 entries). */
  docTagStart: Uint32Array,
  /** Tag numbers: stack s is s, category c is `stacks.length + c`. */
  docTags: Uint32Array,
  /** The documents in the order of an empty query: featured first, then updated (newest first, undated last), then id. */
  listing: Uint32Array,
  /** Per document d, its result JSON is `rows[rowStart[d]]` to `rows[rowStart[d + 1]]` (D + 1 entries). */
  rowStart: Uint32Array,
  /** Per document, where its score goes in `rows` (the JSON before it ends with `"score":`). */
  rowSplit: Uint32Array,
  /** Each document's result JSON without its score value (UTF-8). */
  rows: Uint8Array,
} as const;

type SectionName = keyof typeof SECTION_TYPES;
type Section<N extends SectionName> = InstanceType<(typeof SECTION_TYPES)[N]>;

/** The JSON header of the file. */
export interface RankingHeader {
  format: typeof SEARCH_RANKING_FORMAT;
  /** Byte order of the sections (`os.endianness()` of the machine that wrote them). */
  endianness: 'LE' | 'BE';
  settings: SearchSettings;
  /** MiniSearch's document count: the N of the inverse document frequency. */
  documentCount: number;
  /** Number of documents (result rows), D. */
  documents: number;
  /** Per field, MiniSearch's average field length, in terms. */
  averageFieldLength: number[];
  /** The agents of `docAgents`, in bit order. */
  agents: string[];
  /** The stacks and categories that `docTags` numbers. */
  stacks: string[];
  categories: string[];
  /** Per section, its byte offset in the file and its length in elements. */
  sections: Record<SectionName, { offset: number; length: number }>;
}

/** A decoded file: the header's fields, the sections as views of the file's bytes, and the terms as strings. */
export type RankingIndex = Omit<RankingHeader, 'format' | 'endianness' | 'sections'> & { [N in Exclude<SectionName, 'terms'>]: Section<N> } & {
  /** The terms, sorted by UTF-16 code units. */
  terms: string[];
};

/** What the binary form is made from: the settings, the result rows (sorted by id) and the index readers get (inverted-index.ts, pruned), whose documents are the rows'. */
export interface RankingSource {
  settings: SearchSettings;
  documents: readonly SearchRow[];
  index: InvertedIndex;
  /** `JSON.stringify` of each row, when the caller has them already. */
  rowJson?: readonly string[];
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** What goes between a result row's version and the rest of its JSON; the engine writes the score after it. */
const SCORE_KEY = ',"score":';

/**
 * Where the version's value ends in `json`, a row's JSON, when it starts with the id, title,
 * summary and version given (keys in SearchRow's order); undefined when it does not. Compares in
 * place, without building the expected text.
 */
function afterVersion(json: string, id: string, title: string, summary: string, version: string): number | undefined {
  let at = 0;
  for (const [key, value] of [['{"id":', id], [',"title":', title], [',"summary":', summary], [',"version":', version]] as const) {
    const text = JSON.stringify(value);
    if (!json.startsWith(key, at) || !json.startsWith(text, at + key.length)) return undefined;
    at += key.length + text.length;
  }
  return at;
}

/** Appends `value` to `list` unless it is among `list[start..]`. */
function pushOnce(list: number[], start: number, value: number): void {
  if (list.indexOf(value, start) < 0) list.push(value);
}

/**
 * Encodes the index and rows. Pure: the same source gives the same bytes.
 * @throws LoadoutError `internal` when a term contains a line break, the index's documents are
 *   not the rows', or there are more than 32 agents or 255 fields.
 */
export function encodeRankingIndex(source: RankingSource): Uint8Array {
  return joinPieces(rankingIndexPieces(source));
}

/**
 * The bytes of {@link encodeRankingIndex} a section at a time (sections-file.ts
 * `sectionPieces`), with an empty text piece between its steps (the filters, every
 * {@link ROWS_PER_STEP} result rows, the sections), where a writer may pause (tree-files.ts
 * `ContentPieces`). Pure. Same errors as {@link encodeRankingIndex}, thrown when the first piece is taken.
 */
export function* rankingIndexPieces(source: RankingSource): Generator<Uint8Array | '', void, undefined> {
  const { settings, documents, index } = source;
  const fields = settings.fields;
  if (fields.length > 255 || PUBLISHED_AGENTS.length > 32) throw new LoadoutError('internal', `the search ranking file holds at most 255 fields and 32 agents (got ${fields.length} and ${PUBLISHED_AGENTS.length})`);
  if (index.fields.join('\n') !== fields.join('\n') || index.ids.length !== documents.length || index.ids.some((id, d) => documents[d]?.id !== id)) {
    throw new LoadoutError('internal', 'the search index and the result rows are not of the same documents in the same order');
  }
  for (const term of index.terms) if (term.includes('\n')) throw new LoadoutError('internal', `the search index has the term ${JSON.stringify(term)} (expected no line break in a term)`);

  // Filters and the empty query's order. Plain loops, no array or set per document: the build
  // encodes 10,000 documents on every rebuild (DESIGN.md section 7).
  const stackSet = new Set<string>();
  const categorySet = new Set<string>();
  for (const row of documents) {
    for (const s of row.stacks) stackSet.add(s);
    for (const c of row.categories) categorySet.add(c);
  }
  const stacks = [...stackSet].sort(compareStrings);
  const categories = [...categorySet].sort(compareStrings);
  const stackNumber = new Map(stacks.map((s, i) => [s, i]));
  const categoryNumber = new Map(categories.map((c, i) => [c, stacks.length + i]));
  const A = PUBLISHED_AGENTS.length;
  const docTagStart = new Uint32Array(documents.length + 1);
  const docTags: number[] = [];
  const docFlags = new Uint32Array(documents.length);
  const docAgents = new Uint32Array(documents.length);
  const docAlwaysTokens = new Uint32Array(documents.length * A);
  for (let d = 0; d < documents.length; d++) {
    const row = documents[d] as SearchRow;
    // Compatibility may lack an agent, which then counts as supported.
    let agents = 0;
    for (let i = 0; i < A; i++) {
      const agent = PUBLISHED_AGENTS[i] as (typeof PUBLISHED_AGENTS)[number];
      docAlwaysTokens[d * A + i] = row.always_tokens[agent];
      if (row.compatibility[agent] !== 'unsupported') agents |= 1 << i;
    }
    // `>>> 0` keeps bit 31 positive.
    docAgents[d] = agents >>> 0;
    // Each tag once, in the order of its first mention (stack and category numbers never meet).
    const start = docTags.length;
    for (const s of row.stacks) pushOnce(docTags, start, stackNumber.get(s) ?? 0);
    for (const c of row.categories) pushOnce(docTags, start, categoryNumber.get(c) ?? 0);
    docTagStart[d + 1] = docTags.length;
    let flags = (row.verified ? DOC_FLAG.verified : 0) | (row.featured ? DOC_FLAG.featured : 0) | (row.deprecated ? DOC_FLAG.deprecated : 0);
    for (const has of HAS_VALUES) if (rowHas(row, has)) flags |= DOC_FLAG[has];
    // Rows of a tree built before capability lists have none (document.ts `rowRuns`).
    const runs = (row as Partial<SearchRow>).capabilities?.runs;
    if (runs === 'nothing') flags |= DOC_FLAG.runsNothing;
    if (runs === 'something') flags |= DOC_FLAG.runsSomething;
    docFlags[d] = flags;
  }
  const listing = documents.map((_, d) => d).sort((a, b) => listingOrder(documents[a] as SearchRow, documents[b] as SearchRow));
  yield '';

  // Result rows: the JSON around the score, as the engine writes it: a row's JSON (keys in
  // SearchRow's order) with `,"score":` after its version.
  const rowJson = source.rowJson ?? documents.map((row) => JSON.stringify(row));
  const rowTexts: string[] = [];
  const rowSplit = new Uint32Array(documents.length);
  const rowStart: number[] = [0];
  let rowBytes = 0;
  for (let d = 0; d < documents.length; d++) {
    if (d > 0 && d % ROWS_PER_STEP === 0) yield '';
    const { id, title, summary, version } = documents[d] as SearchRow;
    const json = rowJson[d] ?? '';
    const split = afterVersion(json, id, title, summary, version);
    if (split === undefined) throw new LoadoutError('internal', `the result row of ${id} does not start with its id, title, summary and version`);
    const head = `${json.slice(0, split)}${SCORE_KEY}`;
    const tail = json.slice(split);
    rowSplit[d] = rowBytes + Buffer.byteLength(head);
    rowBytes += Buffer.byteLength(head) + Buffer.byteLength(tail);
    rowStart.push(rowBytes);
    rowTexts.push(head, tail);
  }
  yield '';

  const content: { [N in SectionName]: ArrayLike<number> } = {
    terms: Buffer.from(index.terms.join('\n')),
    termPairs: index.termPairs,
    pairField: index.pairField,
    pairPostings: index.pairPostings,
    postingDocs: index.postingDocs,
    postingFreqs: index.postingFreqs,
    fieldLengths: index.fieldLengths,
    docFlags,
    docAgents,
    docAlwaysTokens,
    docTagStart,
    docTags,
    listing,
    rowStart,
    rowSplit,
    rows: Buffer.from(rowTexts.join('')),
  };
  const header: Omit<RankingHeader, 'sections' | 'endianness'> = {
    format: SEARCH_RANKING_FORMAT,
    settings,
    documentCount: documents.length,
    documents: documents.length,
    averageFieldLength: averageFieldLengths(index),
    agents: [...PUBLISHED_AGENTS],
    stacks,
    categories,
  };
  yield* sectionPieces(MAGIC, { ...header }, (Object.keys(SECTION_TYPES) as SectionName[]).map((name) => ({ name, type: SECTION_TYPES[name], data: content[name] })));
}

/** Result rows made between two pauses of {@link rankingIndexPieces}. */
const ROWS_PER_STEP = 1000;

/**
 * Reads a file written by {@link encodeRankingIndex}. The sections are views of `bytes` (copied
 * once when `bytes` is not 8-aligned), so the caller must not change them.
 * @throws LoadoutError `invalid_content` when the file is not of this format, was written with the other byte order, or is truncated.
 */
export function decodeRankingIndex(bytes: Uint8Array): RankingIndex {
  const file = decodeSections(bytes, MAGIC, 'the search ranking file');
  const header = file.header as unknown as RankingHeader;
  if (header.format !== SEARCH_RANKING_FORMAT) {
    throw new LoadoutError('invalid_content', `the search ranking file has format ${JSON.stringify(header.format)} (expected ${SEARCH_RANKING_FORMAT})`, { hint: 'Run `loadout build` again.' });
  }
  const section = <N extends SectionName>(name: N): Section<N> => file.section(name, SECTION_TYPES[name]) as Section<N>;
  const termBytes = section('terms');
  const termText = Buffer.from(termBytes.buffer, termBytes.byteOffset, termBytes.byteLength).toString('utf8');
  const { format: _format, endianness: _endianness, sections: _sections, ...rest } = header;
  const decoded: RankingIndex = {
    ...rest,
    terms: termText === '' ? [] : termText.split('\n'),
    termPairs: section('termPairs'),
    pairField: section('pairField'),
    pairPostings: section('pairPostings'),
    postingDocs: section('postingDocs'),
    postingFreqs: section('postingFreqs'),
    fieldLengths: section('fieldLengths'),
    docFlags: section('docFlags'),
    docAgents: section('docAgents'),
    docAlwaysTokens: section('docAlwaysTokens'),
    docTagStart: section('docTagStart'),
    docTags: section('docTags'),
    listing: section('listing'),
    rowStart: section('rowStart'),
    rowSplit: section('rowSplit'),
    rows: section('rows'),
  };
  const d = decoded.documents;
  const t = decoded.terms.length;
  if (decoded.termPairs.length !== t + 1 || decoded.rowStart.length !== d + 1 || decoded.listing.length !== d || decoded.fieldLengths.length !== d * decoded.settings.fields.length || decoded.docAlwaysTokens.length !== d * decoded.agents.length) {
    throw new LoadoutError('invalid_content', `the search ranking file has sections of the wrong lengths for ${t} terms and ${d} documents`, { hint: 'Run `loadout build` again.' });
  }
  return decoded;
}

/** Empty-query order: featured first, then updated (newest first, undated last), then id. */
export function listingOrder(a: SearchRow, b: SearchRow): number {
  if (a.featured !== b.featured) return a.featured ? -1 : 1;
  if (a.updated !== b.updated) {
    if (a.updated === null) return 1;
    if (b.updated === null) return -1;
    return a.updated < b.updated ? 1 : -1;
  }
  return compareStrings(a.id, b.id);
}

