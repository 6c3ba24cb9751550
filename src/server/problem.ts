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
  | 'bad_parameter'
  | 'bad_path'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'id_taken'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'malformed_json'
  | 'invalid_body'
  | 'rate_limited'
  | 'submissions_closed'
  | 'challenge_unavailable'
  | 'internal_error';

/** The title of each problem code (also listed on the docs page). */
export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  bad_parameter: 'Bad parameter',
  bad_path: 'Bad path',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  id_taken: 'Loadout id taken',
  body_too_large: 'Body too large',
  unsupported_media_type: 'Unsupported media type',
  malformed_json: 'Malformed JSON',
  invalid_body: 'Invalid submission',
  rate_limited: 'Too many requests',
  submissions_closed: 'Submissions closed',
  challenge_unavailable: 'Challenge vendor unavailable',
  internal_error: 'Internal error',
};

/** The RFC 9457 body. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** Builds a problem body; `type` points at the code's documentation. */
export function makeProblem(status: number, code: ProblemCode, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `/docs/#problem-${code}`, title: PROBLEM_TITLES[code], status, detail, code, ...extra };
}

/** A `Response` carrying a problem, with `headers` added (e.g. `Allow`, `Retry-After`). */
export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** Shorthand: `problemResponse(makeProblem(...))`. */
export function problem(status: number, code: ProblemCode, detail: string, options: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {}): Response {
  return problemResponse(makeProblem(status, code, detail, options.extra), options.headers);
}
