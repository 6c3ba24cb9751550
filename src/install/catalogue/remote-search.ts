/**
 * Searching a catalogue served over HTTP(S), for `loadout search --from <base URL>`:
 * - a catalogue with a server answers `GET <base>/api/v1/search` (spec "Search"), and its
 *   ranked response is used as it is;
 * - a catalogue published as static files (object storage, DESIGN.md section 1) has no search
 *   endpoint (404), so the tree's public index, `api/search-index.json`, is read and the same
 *   engine the server runs ranks it here.
 * The catalogue is not trusted: reads stay below the base URL, are capped, and the response is
 * checked for the shape a table needs before it is shown.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { createSearchEngine, type SearchResponse } from '../../search/engine.js';
import type { SearchIndexFile } from '../../search/index-file.js';
import type { SearchQuery } from '../../search/query.js';
import { SEARCH_INDEX_PATH } from '../../search/settings.js';
import { ConsumerError } from '../errors.js';
import { httpGet } from './http-get.js';

/** The cap of a search response (50 results at most, spec "Search"). */
const RESPONSE_MAX_BYTES = 4 * 1024 * 1024;
/** The cap of the public search index: about 3 KB a loadout, far above 10,000 loadouts. */
const INDEX_MAX_BYTES = 128 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * Searches the catalogue at `base` (an http(s) base URL without a trailing slash).
 * @param query the checked query, for ranking the index here
 * @param parameters the same query as the strings that were checked, for the server
 * @returns the `GET /api/v1/search` response, from the server or ranked here from the index
 * @throws ConsumerError `CatalogueUnreachable` (no answer, a status other than 200 or 404),
 *   `InvalidCatalogue` (a response or index that is not what the spec describes),
 *   `ResponseTooLarge`
 */
export async function searchRemote(base: string, query: SearchQuery, parameters: URLSearchParams): Promise<SearchResponse> {
  const endpoint = new URL(`${base}/api/v1/search?${parameters.toString()}`);
  const answer = await httpGet(endpoint, { cap: RESPONSE_MAX_BYTES, timeoutMs: TIMEOUT_MS });
  if (answer.status === 200) return checkedResponse(parseJson(answer.body, endpoint.href), endpoint.href);
  if (answer.status !== 404) throw new ConsumerError('CatalogueUnreachable', `${endpoint.href} answered HTTP ${answer.status} (expected 200, or 404 from a catalogue without a server)`);
  const indexUrl = new URL(`${base}/${SEARCH_INDEX_PATH}`);
  const index = await httpGet(indexUrl, { cap: INDEX_MAX_BYTES, timeoutMs: TIMEOUT_MS });
  if (index.status !== 200) {
    throw new ConsumerError('CatalogueUnreachable', `${base} has no search: ${endpoint.pathname} and ${indexUrl.href} answered ${answer.status} and ${index.status} (expected a catalogue built by \`loadout build\`)`);
  }
  try {
    return createSearchEngine(parseJson(index.body, indexUrl.href) as SearchIndexFile).search(query);
  } catch (error) {
    if (error instanceof LoadoutError && !(error instanceof ConsumerError)) throw new ConsumerError('InvalidCatalogue', `${indexUrl.href}: ${error.message}`, { cause: error });
    throw error;
  }
}

function parseJson(body: Uint8Array, where: string): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
  } catch (cause) {
    throw new ConsumerError('InvalidCatalogue', `${where} is not JSON (expected a search response or index)`, { cause });
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * `value` if it has the fields a search table reads (spec "Search": `total`, `results[]` with
 * `id`, `version`, `title`, `score`).
 * @throws ConsumerError `InvalidCatalogue` naming the first field that is not as expected
 */
function checkedResponse(value: unknown, where: string): SearchResponse {
  const bad = (field: string, expected: string): ConsumerError => new ConsumerError('InvalidCatalogue', `${where}: ${field} is not ${expected}`);
  if (typeof value !== 'object' || value === null) throw bad('the response', 'an object');
  const response = value as Partial<SearchResponse>;
  if (!Number.isInteger(response.total)) throw bad('total', 'an integer');
  if (!Array.isArray(response.results)) throw bad('results', 'an array');
  response.results.forEach((result: unknown, i) => {
    const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    for (const field of ['id', 'version', 'title'] as const) if (!isString(r[field])) throw bad(`results[${i}].${field}`, 'a string');
    if (typeof r['score'] !== 'number') throw bad(`results[${i}].score`, 'a number');
  });
  return { ...response, query: isString(response.query) ? response.query : '', offset: Number.isInteger(response.offset) ? (response.offset as number) : 0 } as SearchResponse;
}
