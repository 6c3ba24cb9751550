/**
 * The parameters of a search (spec "Endpoints", `GET /api/v1/search`; DESIGN.md section 5),
 * parsed from strings and checked. Pure: `GET /api/v1/search` and `loadout search` both use
 * it, so a bad value gets the same message from both. Errors are returned as data, one per
 * bad parameter, each naming the parameter and what was expected.
 */
import { CATEGORIES, HAS_VALUES, PUBLISHED_AGENTS, RUNS_VALUES, SLUG_PATTERN, type Agent, type Category } from '../catalogue/vocabulary.js';
import type { HasValue, RunsValue } from './document.js';

export type { HasValue, RunsValue } from './document.js';

/** A checked search. Filters that are absent do not filter. */
export interface SearchQuery {
  /** Free text; empty lists every loadout. */
  q: string;
  agent?: Agent;
  /** Stacks or categories that a loadout must all have. */
  tags: string[];
  category?: Category;
  verified?: boolean;
  has?: HasValue;
  /** Only loadouts whose capability list `runs` this (issue 54). */
  runs?: RunsValue;
  /**
   * Only loadouts whose context cost at session start (`always` tokens, DESIGN.md section 8) is at
   * most this: for `agent` when given, else for every agent the loadout supports.
   */
  max_always_tokens?: number;
  /** 1 to {@link MAX_LIMIT}; default {@link DEFAULT_LIMIT}. */
  limit: number;
  /** 0 or more; default 0. */
  offset: number;
}

/** A bad parameter: its name and a message that says what was expected. */
export interface ParameterError {
  parameter: string;
  message: string;
}

/** Spec "Limits": search `limit` is 1 to 50. DESIGN.md section 5: default 20. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 50;
/** Longest accepted `q`, in characters (a bound on the work one query can ask for). */
export const MAX_QUERY_LENGTH = 200;
/** Largest accepted `offset`. */
export const MAX_OFFSET = 100_000;
/** Largest accepted `max_always_tokens` (a context window of ten million tokens is beyond any agent's). */
export const MAX_ALWAYS_TOKENS = 10_000_000;

/** The parameter names: the spec's, with `runs` (issue 54) and `max_always_tokens` (DESIGN.md section 8) before the paging ones. */
export const SEARCH_PARAMETERS = ['q', 'agent', 'tags', 'category', 'verified', 'has', 'runs', 'max_always_tokens', 'limit', 'offset'] as const;

/** Raw values per parameter name (every occurrence, as `URLSearchParams.getAll` gives them). */
export type RawParameters = (name: string) => readonly string[];

/** `URLSearchParams` as {@link RawParameters}. */
export const fromSearchParams = (params: URLSearchParams): RawParameters => (name) => params.getAll(name);

/** A plain object of optional strings as {@link RawParameters} (the CLI's flags). */
export const fromRecord = (values: Partial<Record<string, string>>): RawParameters => (name) => {
  const value = values[name];
  return value === undefined ? [] : [value];
};

/**
 * Parses and checks the parameters. `names`, when given, are the names the request used
 * (`URLSearchParams.keys()`): each one that is not in {@link SEARCH_PARAMETERS} is an error
 * naming it and the known ones, so a misspelt parameter (`query=react`) is refused instead of
 * silently listing every loadout. Returns the query when `errors` is empty.
 */
export function parseSearchParameters(raw: RawParameters, names?: Iterable<string>): { query?: SearchQuery; errors: ParameterError[] } {
  const errors: ParameterError[] = [];
  for (const name of new Set(names)) {
    if ((SEARCH_PARAMETERS as readonly string[]).includes(name)) continue;
    errors.push({ parameter: name, message: `${JSON.stringify(name)} is not a search parameter (expected only ${SEARCH_PARAMETERS.join(', ')})` });
  }
  const one = (name: string): string | undefined => {
    const values = raw(name);
    if (values.length > 1) errors.push({ parameter: name, message: `${name} is given ${values.length} times (expected it at most once)` });
    return values[0];
  };
  const bad = (name: string, value: string, expected: string): undefined => {
    errors.push({ parameter: name, message: `${name} is ${JSON.stringify(value)} (expected ${expected})` });
    return undefined;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = one(name);
    if (value === undefined) return undefined;
    return (allowed as readonly string[]).includes(value) ? (value as T) : bad(name, value, `one of ${allowed.join(', ')}`);
  };
  const integer = (name: string, min: number, max: number, fallback: number): number => {
    const value = one(name);
    if (value === undefined) return fallback;
    const n = /^-?\d{1,9}$/u.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      bad(name, value, min === 0 ? `an integer from 0 to ${max}` : `an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };

  const q = one('q') ?? '';
  if (q.length > MAX_QUERY_LENGTH) errors.push({ parameter: 'q', message: `q is ${q.length} characters long (expected at most ${MAX_QUERY_LENGTH})` });
  const agent = oneOf('agent', PUBLISHED_AGENTS);
  const tagsValue = one('tags');
  const tags = tagsValue === undefined ? [] : tagsValue.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const badTag = tags.find((t) => !SLUG_PATTERN.test(t));
  if (tagsValue !== undefined && badTag !== undefined) bad('tags', tagsValue, 'comma-separated stacks and categories, each a lowercase slug such as nextjs or web-app');
  const category = oneOf('category', CATEGORIES);
  const verifiedValue = oneOf('verified', ['true', 'false'] as const);
  const has = oneOf('has', HAS_VALUES);
  const runs = oneOf('runs', RUNS_VALUES);
  const maxAlways = raw('max_always_tokens').length === 0 ? undefined : integer('max_always_tokens', 0, MAX_ALWAYS_TOKENS, -1);
  const limit = integer('limit', 1, MAX_LIMIT, DEFAULT_LIMIT);
  const offset = integer('offset', 0, MAX_OFFSET, 0);
  if (errors.length > 0) return { errors };
  return {
    query: {
      q: q.trim(),
      ...(agent === undefined ? {} : { agent }),
      tags: [...new Set(tags)],
      ...(category === undefined ? {} : { category }),
      ...(verifiedValue === undefined ? {} : { verified: verifiedValue === 'true' }),
      ...(has === undefined ? {} : { has }),
      ...(runs === undefined ? {} : { runs }),
      ...(maxAlways === undefined ? {} : { max_always_tokens: maxAlways }),
      limit,
      offset,
    },
    errors,
  };
}
