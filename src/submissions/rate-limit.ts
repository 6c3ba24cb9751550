/**
 * Rate limits per client address and per API key (DESIGN.md section 5): fixed windows of
 * `windowSeconds`, counted in the database so that every instance shares them. A request
 * over the limit gets 429 with `Retry-After` (RFC 9110 section 10.2.3, in seconds) until the
 * window ends.
 */
import type { RateLimitStore } from '../storage/guard-store.js';

/** Limits: hits per window for each kind of bucket. */
export interface RateLimits {
  /** Requests per window from one client address. */
  perAddress: number;
  /** Submissions per window with one API key. */
  perKey: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

/** Default limits: 30 requests per address and 120 per key, per hour. */
export const DEFAULT_RATE_LIMITS: RateLimits = { perAddress: 30, perKey: 120, windowSeconds: 3600 };

/** The verdict on one hit. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one hit for `bucket` at `now` and says whether it is within `limit`. */
export async function hitRateLimit(store: RateLimitStore, bucket: string, limit: number, windowSeconds: number, now: Date): Promise<RateVerdict> {
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const end = start + windowMs;
  const hits = await store.hit(bucket, new Date(start).toISOString(), new Date(end).toISOString());
  if (hits <= limit) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)) };
}
