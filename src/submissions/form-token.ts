/**
 * Form tokens for the browser form (spec "Authentication"; DESIGN.md section 5): a payload
 * `{n: nonce, exp: unix seconds}` as base64url JSON, a dot, and its HMAC-SHA256 under
 * `FORM_TOKEN_SECRET` as base64url, both canonical (no padding, no other spelling). Valid for two hours and single use: the nonce is
 * recorded when a submission made with the token is stored. Pure: no I/O.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a form token lasts: 2 hours, in seconds. */
export const FORM_TOKEN_LIFETIME_SECONDS = 2 * 60 * 60;

/** A freshly issued form token. */
export interface IssuedFormToken {
  token: string;
  nonce: string;
  expiresAt: Date;
}

/** Why a form token is refused; each is a 401. */
export type FormTokenProblem = 'malformed' | 'bad_signature' | 'expired';

/** Result of {@link verifyFormToken}. */
export type FormTokenCheck = { ok: true; nonce: string; expiresAt: Date } | { ok: false; problem: FormTokenProblem };

/** Issues a token valid from `now` for {@link FORM_TOKEN_LIFETIME_SECONDS}. */
export function issueFormToken(secret: string, now: Date): IssuedFormToken {
  const nonce = randomBytes(16).toString('base64url');
  const exp = Math.floor(now.getTime() / 1000) + FORM_TOKEN_LIFETIME_SECONDS;
  const payload = Buffer.from(JSON.stringify({ n: nonce, exp })).toString('base64url');
  return { token: `${payload}.${sign(secret, payload)}`, nonce, expiresAt: new Date(exp * 1000) };
}

/**
 * Checks the signature (in constant time) and the expiry of `token` at `now`. Does not
 * check whether the nonce was used: that is the store's job.
 */
export function verifyFormToken(secret: string, token: string, now: Date): FormTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 2 || parts[0] === undefined || parts[1] === undefined || !isCanonicalBase64url(parts[0]) || !isCanonicalBase64url(parts[1])) return { ok: false, problem: 'malformed' };
  const expected = Buffer.from(sign(secret, parts[0]), 'base64url');
  const given = Buffer.from(parts[1], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: 'bad_signature' };
  let payload: { n?: unknown; exp?: unknown };
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as { n?: unknown; exp?: unknown };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (typeof payload.n !== 'string' || typeof payload.exp !== 'number') return { ok: false, problem: 'malformed' };
  if (payload.exp * 1000 <= now.getTime()) return { ok: false, problem: 'expired' };
  return { ok: true, nonce: payload.n, expiresAt: new Date(payload.exp * 1000) };
}

/**
 * True when `text` is base64url (RFC 4648 section 5) in its one canonical form: only the
 * alphabet, no padding, and unused low bits of the last character zero (section 3.5). Node's
 * decoder skips characters outside the alphabet and ignores those bits, so `sig`, `sig=`, `sig!`
 * and a `sig` whose last character differs in those bits would decode alike: one token must have
 * one spelling.
 */
function isCanonicalBase64url(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/u.test(text) && Buffer.from(text, 'base64url').toString('base64url') === text;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}
