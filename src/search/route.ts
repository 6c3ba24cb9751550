/**
 * `GET /api/v1/search` (spec "Endpoints"; DESIGN.md section 5): the checked parameters run
 * against the engine loaded at start. Every bad parameter is one entry of a 400 problem
 * (`bad_parameter`, RFC 9457) whose pointer names it (`/query/limit`); a parameter the
 * search does not have is one too.
 */
import type { Hono } from 'hono';
import { problem } from '../server/problem.js';
import type { SearchEngine } from './engine.js';
import { fromSearchParams, parseSearchParameters, type ParameterError } from './query.js';

/** The path of the search endpoint. */
export const SEARCH_ROUTE = '/api/v1/search';

/**
 * A mount function for `createApp({ routes })` that serves search from `engine`; `onSearch`
 * receives each search's duration in seconds (for the metrics).
 */
export function mountSearch(engine: SearchEngine, onSearch?: (seconds: number) => void): (app: Hono) => void {
  return (app) => {
    app.get(SEARCH_ROUTE, (c) => {
      const params = new URL(c.req.url).searchParams;
      const { query, errors } = parseSearchParameters(fromSearchParams(params), params.keys());
      if (query === undefined) return badParameters(errors);
      const started = performance.now();
      const body = engine.searchJson(query);
      onSearch?.((performance.now() - started) / 1000);
      return c.body(body, 200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
    });
  };
}

/** The 400 problem for `errors` (at least one). */
export function badParameters(errors: readonly ParameterError[]): Response {
  return problem(400, 'bad_parameter', errors.map((e) => e.message).join('; '), {
    // RFC 6901: `~` and `/` in a parameter's name are escaped in its pointer.
    extra: { errors: errors.map((e) => ({ pointer: `/query/${e.parameter.replaceAll('~', '~0').replaceAll('/', '~1')}`, message: e.message })) },
  });
}
