/**
 * The bot-challenge verifier behind an interface (STYLE.md Layout 4). The implementation
 * speaks the vendor's siteverify protocol (Cloudflare Turnstile, and hCaptcha alike): POST
 * `application/x-www-form-urlencoded` fields `secret`, `response` and `remoteip` to
 * `CHALLENGE_VERIFY_URL`; the JSON answer has `success` (boolean) and `error-codes` (array of
 * strings, e.g. `invalid-input-response`, `timeout-or-duplicate`). Source: Cloudflare
 * Turnstile "Validate the token" (server-side validation) documentation.
 */
import { LoadoutError } from '../catalogue/errors.js';

/** The vendor's verdict on a challenge token. */
export interface ChallengeResult {
  success: boolean;
  /** The vendor's `error-codes`; empty on success. */
  errorCodes: string[];
}

/** Verifies challenge tokens. */
export interface ChallengeVerifier {
  /**
   * Asks whether `token` is a valid, unused challenge result for a visitor at `remoteIp`.
   * @throws LoadoutError `io` when the vendor cannot be reached or answers garbage.
   */
  verify(token: string, remoteIp: string | undefined): Promise<ChallengeResult>;
}

/** Options of {@link createSiteverifyVerifier}. */
export interface SiteverifyOptions {
  secret: string;
  /** The siteverify address (`CHALLENGE_VERIFY_URL`). */
  verifyUrl: string;
  /** Milliseconds before giving up on the vendor; default 10,000. */
  timeoutMs?: number;
}

/** A verifier that calls the siteverify endpoint over HTTP. */
export function createSiteverifyVerifier(options: SiteverifyOptions): ChallengeVerifier {
  return {
    async verify(token, remoteIp) {
      const form = new URLSearchParams({ secret: options.secret, response: token });
      if (remoteIp !== undefined && remoteIp !== '') form.set('remoteip', remoteIp);
      let answer: unknown;
      try {
        const response = await fetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        answer = await response.json();
      } catch (cause) {
        throw new LoadoutError('io', `the challenge vendor at ${options.verifyUrl} did not answer: ${(cause as Error).message}`, { cause });
      }
      const body = answer as { success?: unknown; 'error-codes'?: unknown } | null;
      if (body === null || typeof body !== 'object' || typeof body.success !== 'boolean') {
        throw new LoadoutError('io', `the challenge vendor at ${options.verifyUrl} answered without a boolean "success"`);
      }
      const codes = Array.isArray(body['error-codes']) ? body['error-codes'].filter((c): c is string => typeof c === 'string') : [];
      return { success: body.success, errorCodes: codes };
    },
  };
}
