/**
 * The one mapper from errors to HTTP problem details (RFC 9457, `application/problem+json`):
 * `{type, title, status, detail, code, errors?}` (DESIGN.md section 5).
 */

/** A field-level error of a 422 problem: an RFC 6901 pointer into the body and a message. */
export interface FieldError {
  pointer: string;
  message: string;
}

/** Problem codes, stable and documented at `/docs/#problems`. */
export type ProblemCode =
  | 'bad_request'
  | 'bad_parameter'
  | 'bad_path'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'id_taken'
  | 'request_timeout'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'malformed_json'
  | 'invalid_body'
  | 'checks_timeout'
  | 'checks_busy'
  | 'rate_limited'
  | 'submissions_closed'
  | 'challenge_unavailable'
  | 'not_ready'
  | 'internal_error';

/** The title of each problem code (also listed on the docs page). */
export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  bad_request: 'Bad request',
  bad_parameter: 'Bad parameter',
  bad_path: 'Bad path',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  id_taken: 'Loadout id taken',
  request_timeout: 'Request timeout',
  body_too_large: 'Body too large',
  unsupported_media_type: 'Unsupported media type',
  headers_too_large: 'Request header fields too large',
  malformed_json: 'Malformed JSON',
  invalid_body: 'Invalid submission',
  checks_timeout: 'Checks ran out of time',
  checks_busy: 'Checks busy',
  rate_limited: 'Too many requests',
  submissions_closed: 'Submissions closed',
  challenge_unavailable: 'Challenge vendor unavailable',
  not_ready: 'Not ready',
  internal_error: 'Internal error',
};

/** The RFC 9457 body. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  /** At most {@link MAX_LISTED_ERRORS}. */
  errors?: FieldError[];
  /** How many errors were found beyond those listed; present only when some were left out. */
  errors_omitted?: number;
  [extension: string]: unknown;
}

/**
 * Most field errors a problem lists (50). A body can hold tens of thousands of bad fields, and
 * listing each would make the answer many times larger than the request (SECURITY.md: error
 * responses are capped); the rest are counted in `errors_omitted` and in `detail`.
 */
export const MAX_LISTED_ERRORS = 50;

/**
 * Builds a problem body; `type` points at the code's documentation. `extra` adds members
 * (`errors`, or extensions such as `challenge_errors`). More than {@link MAX_LISTED_ERRORS}
 * `errors` are cut to the first ones, with `errors_omitted` (a count) and a sentence in `detail`.
 */
export function makeProblem(status: number, code: ProblemCode, detail: string, extra: Record<string, unknown> = {}): Problem {
  return limitErrors({ type: `/docs/#problem-${code}`, title: PROBLEM_TITLES[code], status, detail, code, ...extra });
}

/**
 * A `Response` carrying a problem, with `headers` added (e.g. `Allow`, `Retry-After`). The
 * errors are capped here too, so that a problem built by hand obeys the same limit.
 */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(limitErrors(problem)), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** Shorthand: `problemResponse(makeProblem(...))`. */
export function problem(status: number, code: ProblemCode, detail: string, options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {}): Response {
  return problemResponse(makeProblem(status, code, detail, options.extra), options.headers);
}

/** `problem` with at most {@link MAX_LISTED_ERRORS} errors; unchanged when it has no more. */
function limitErrors(problem: Problem): Problem {
  const errors = problem.errors;
  if (!Array.isArray(errors) || errors.length <= MAX_LISTED_ERRORS) return problem;
  const omitted = errors.length - MAX_LISTED_ERRORS;
  return {
    ...problem,
    detail: `${problem.detail} (only the first ${MAX_LISTED_ERRORS} of ${errors.length} errors are listed; ${omitted} more are not)`,
    errors: errors.slice(0, MAX_LISTED_ERRORS),
    errors_omitted: omitted,
  };
}
