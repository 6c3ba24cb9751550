/**
 * The bot challenge of the browser form, behind one interface (STYLE.md Layout 4), with three
 * providers (`CHALLENGE_PROVIDER`; spec "Authentication": a browser sends `challenge_token`):
 * - `altcha` (the default): a self-hosted proof-of-work challenge (`altcha.ts`); no vendor, no
 *   site key; the server issues the challenges and checks the solutions itself.
 * - `turnstile` and `hcaptcha`: a hosted vendor, checked through its siteverify protocol: POST
 *   `application/x-www-form-urlencoded` fields `secret`, `response` and `remoteip` to
 *   `CHALLENGE_VERIFY_URL`; the JSON answer has `success` (boolean) and `error-codes` (array of
 *   strings, e.g. `invalid-input-response`, `timeout-or-duplicate`). Sources: Cloudflare
 *   Turnstile "Validate the token" (server-side validation); hCaptcha "Verify the User
 *   Response Server Side", which uses the same fields.
 *
 * Whatever the provider, a passed challenge names a `replayKey` that the submissions API
 * records as used, so the same solution or token never passes twice.
 */
import { createHash } from 'node:crypto';
import { LoadoutError } from '../catalogue/errors.js';

/** The providers `CHALLENGE_PROVIDER` may name. */
export const CHALLENGE_PROVIDERS = ['altcha', 'turnstile', 'hcaptcha'] as const;
export type ChallengeProvider = (typeof CHALLENGE_PROVIDERS)[number];
/** The hosted vendors among {@link CHALLENGE_PROVIDERS}. */
export type VendorProvider = Exclude<ChallengeProvider, 'altcha'>;

/** Each vendor's siteverify address, the default of `CHALLENGE_VERIFY_URL` (from the vendors' documentation). */
export const VENDOR_VERIFY_URLS: Record<VendorProvider, string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
};

/** The verdict on a challenge token. */
export interface ChallengeResult {
  success: boolean;
  /** Why not, as the vendor's `error-codes` (or ALTCHA's equivalents); empty on success. */
  errorCodes: string[];
  /**
   * On success: the key under which the solution is recorded as used (unique per solution,
   * prefixed by the provider), and until when (after that the solution is refused as expired
   * anyway, so the record may be deleted).
   */
  replay?: { key: string; expiresAt: Date };
}

/** A bot challenge: what the session endpoint tells the browser, and the check of its result. */
export interface ChallengeVerifier {
  readonly provider: ChallengeProvider;
  /** The site key a vendor's widget needs (`CHALLENGE_SITE_KEY`); undefined for ALTCHA. */
  readonly siteKey: string | undefined;
  /**
   * ALTCHA only: a new signed challenge for the widget, as the JSON the widget fetches from
   * its `challenge` address. Undefined for vendors, whose widgets fetch from the vendor.
   */
  issue?(now: Date): Promise<unknown>;
  /**
   * Checks `token` (the widget's result) for a visitor at `remoteIp`. Does not record it as
   * used: the caller does, with {@link ChallengeResult.replay}.
   * @throws LoadoutError `io` when a vendor cannot be reached or answers garbage.
   */
  verify(token: string, remoteIp: string | undefined, now: Date): Promise<ChallengeResult>;
}

/** Options of {@link createSiteverifyVerifier}. */
export interface SiteverifyOptions {
  /** Default `turnstile`. */
  provider?: VendorProvider;
  secret: string;
  /** The site key of the vendor's widget (`CHALLENGE_SITE_KEY`). */
  siteKey?: string;
  /** The siteverify address (`CHALLENGE_VERIFY_URL`). */
  verifyUrl: string;
  /** Milliseconds before giving up on the vendor; default 10,000. */
  timeoutMs?: number;
}

/**
 * How long a vendor token is kept as used: Turnstile tokens live 300 seconds and hCaptcha's
 * about 120 (vendors' documentation); an hour is well past both.
 */
const VENDOR_TOKEN_KEEP_MS = 60 * 60 * 1000;

/** A verifier that calls a vendor's siteverify endpoint over HTTP. */
export function createSiteverifyVerifier(options: SiteverifyOptions): ChallengeVerifier {
  const provider = options.provider ?? 'turnstile';
  return {
    provider,
    siteKey: options.siteKey,
    async verify(token, remoteIp, now) {
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
      if (!body.success) return { success: false, errorCodes: codes };
      // The vendor refuses a token it has seen; recording its hash refuses it here too, also
      // between vendor outages and across vendors' own replay windows.
      const key = `${provider}:${createHash('sha256').update(token).digest('hex')}`;
      return { success: true, errorCodes: [], replay: { key, expiresAt: new Date(now.getTime() + VENDOR_TOKEN_KEEP_MS) } };
    },
  };
}
