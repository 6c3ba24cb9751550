/**
 * The problem codes of the HTTP API (DESIGN.md section 5: RFC 9457 problem details carry a
 * stable `code`), each with its title, and where the docs page documents each: the server
 * answers with them (`server/problem.ts`) and the docs page of the tree lists them
 * (`pages/docs.ts`), both from here.
 */

/** Problem codes, stable and documented at `/docs/#problems`. */
export type ProblemCode =
  | 'bad_request'
  | 'bad_parameter'
  | 'bad_path'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'misdirected_request'
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
  | 'database_unavailable'
  | 'internal_error';

/** The title of each problem code (the problem's `title`, also listed on the docs page). */
export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  bad_request: 'Bad request',
  bad_parameter: 'Bad parameter',
  bad_path: 'Bad path',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  misdirected_request: 'Misdirected request',
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
  database_unavailable: 'Database unavailable',
  internal_error: 'Internal error',
};

/** The anchor of `code` on the docs page (`problem-<code>`), without `#`. */
export function problemAnchor(code: ProblemCode): string {
  return `problem-${code}`;
}

/**
 * A problem's `type` (RFC 9457 section 3.1.1, a URI reference): the docs page's entry for
 * `code`, `/docs/#problem-<code>`, relative to the server's origin.
 */
export function problemTypeUrl(code: ProblemCode): string {
  return `/docs/#${problemAnchor(code)}`;
}
