import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { createSearchEngine, loadSearchEngine } from '../../src/search/engine.js';
import { rankingSourceOf, type SearchIndexFile } from '../../src/search/index-file.js';
import { fromRecord, parseSearchParameters, type SearchQuery } from '../../src/search/query.js';
import { decodeRankingIndex, encodeRankingIndex, SEARCH_RANKING_FORMAT, SEARCH_RANKING_PATH } from '../../src/search/ranking-file.js';
import { SEARCH_INDEX_PATH } from '../../src/search/settings.js';
import { createApp } from '../../src/server/app.js';
import { buildFixtureCatalogue, FIXTURE_IDS, type FixtureCatalogue } from './fixture.js';

let fixture: FixtureCatalogue;
let file: SearchIndexFile;
let scratch: string;

beforeAll(async () => {
  fixture = await buildFixtureCatalogue();
  file = JSON.parse(readFileSync(join(fixture.dist, SEARCH_INDEX_PATH), 'utf8')) as SearchIndexFile;
  scratch = mkdtempSync(join(tmpdir(), 'loadout-ranking-file-'));
});
afterAll(() => {
  fixture?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const query = (params: Record<string, string>): SearchQuery => parseSearchParameters(fromRecord(params)).query as SearchQuery;
const QUERIES: Record<string, string>[] = [{ q: 'nextjs' }, { q: 'fastap', has: 'skills' }, { q: 'unty' }, { q: '', tags: 'react' }, { q: 'python', agent: 'cursor' }];

const expectInvalid = (bytes: Uint8Array, message: RegExp): void => {
  let error: unknown;
  try {
    decodeRankingIndex(bytes);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(LoadoutError);
  expect((error as LoadoutError).code).toBe('invalid_content');
  expect((error as LoadoutError).message).toMatch(message);
};

describe('the binary search index', () => {
  it('is written by the build as a dot file, which the server never serves', async () => {
    const bytes = readFileSync(join(fixture.dist, SEARCH_RANKING_PATH));
    expect(Buffer.from(encodeRankingIndex(rankingSourceOf(file))).equals(bytes)).toBe(true);
    const app = createApp({ distDir: fixture.dist, baseUrl: fixture.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
    expect((await app.request(`/${SEARCH_RANKING_PATH}`)).status).toBe(404);
  });

  it('is the same bytes for the same index, and decodes to what it was made from', () => {
    const bytes = encodeRankingIndex(rankingSourceOf(file));
    expect(Buffer.from(encodeRankingIndex(rankingSourceOf(file))).equals(Buffer.from(bytes))).toBe(true);
    const index = decodeRankingIndex(bytes);
    expect(index.documents).toBe(FIXTURE_IDS.length);
    expect(index.documentCount).toBe(file.index.documentCount);
    expect(index.terms).toEqual(file.index.index.map(([term]) => term).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(index.settings).toEqual(file.settings);
    // Each row's JSON is the search row with the score where the engine puts it.
    const first = file.documents[0];
    const rows = Buffer.from(index.rows.buffer, index.rows.byteOffset, index.rows.byteLength);
    const json = `${rows.toString('utf8', index.rowStart[0], index.rowSplit[0])}1${rows.toString('utf8', index.rowSplit[0], index.rowStart[1])}`;
    expect(JSON.parse(json)).toEqual({ ...first, score: 1 });
  });

  it('is decoded from a buffer at any byte offset', () => {
    const bytes = encodeRankingIndex(rankingSourceOf(file));
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(decodeRankingIndex(shifted.subarray(3)).terms).toEqual(decodeRankingIndex(bytes).terms);
  });

  it('refuses another file, another format and a truncated file', () => {
    const bytes = Buffer.from(encodeRankingIndex(rankingSourceOf(file)));
    expectInvalid(Buffer.from('{"format":"loadout-search-index/1"}'), /does not start with LSR1/u);
    expectInvalid(bytes.subarray(0, 100), /bytes long \(expected a header of/u);
    expectInvalid(bytes.subarray(0, bytes.length - 1024), /has no whole section/u);
    const other = Buffer.from(bytes);
    other.write('loadout-search-ranking/9', other.indexOf(SEARCH_RANKING_FORMAT), 'latin1');
    expectInvalid(other, /has format "loadout-search-ranking\/9" \(expected loadout-search-ranking\/3\)/u);
  });

  it('falls back to the JSON index when the tree has no binary index or one this code cannot read', async () => {
    const expected = QUERIES.map((q) => createSearchEngine(file).search(query(q)));
    mkdirSync(join(scratch, 'api'), { recursive: true });
    copyFileSync(join(fixture.dist, SEARCH_INDEX_PATH), join(scratch, SEARCH_INDEX_PATH));
    expect(existsSync(join(scratch, SEARCH_RANKING_PATH))).toBe(false);
    const fromJson = await loadSearchEngine(scratch);
    expect(QUERIES.map((q) => fromJson.search(query(q)))).toEqual(expected);
    writeFileSync(join(scratch, SEARCH_RANKING_PATH), 'not an index');
    const fromBroken = await loadSearchEngine(scratch);
    expect(QUERIES.map((q) => fromBroken.search(query(q)))).toEqual(expected);
    const fromBinary = await loadSearchEngine(fixture.dist);
    expect(QUERIES.map((q) => fromBinary.search(query(q)))).toEqual(expected);
  });
});
