/**
 * Search's public surface (explicit names: adding one here makes it public): the engine that
 * answers `GET /api/v1/search` and `loadout search` from a built tree's index files, and the
 * parameters' parser. Writing the index is the builder's part (`index-file.ts`); the HTTP
 * route is the server's (`route.ts`).
 */
export { createSearchEngine, loadSearchEngine, openSearchEngine, type SearchEngine, type SearchEngineOptions, type SearchResponse, type SearchResult } from './engine.js';
export { DEFAULT_LIMIT, fromRecord, fromSearchParams, MAX_LIMIT, parseSearchParameters, SEARCH_PARAMETERS, type ParameterError, type RawParameters, type SearchQuery } from './query.js';
