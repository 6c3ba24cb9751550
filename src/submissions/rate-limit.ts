/**
 * Rate limits per client address and per API key (DESIGN.md section 5): fixed windows of
 * `windowSeconds`, counted in the database so that every instance shares them. A request
 * over the limit gets 429 with `Retry-After` (RFC 9110 section 10.2.3, in seconds) until the
 * window ends.
 *
 * An address bucket is keyed on the IPv4 address, or on the IPv6 prefix (a /64 by default):
 * one host or customer usually holds a whole /64 and can pick any address in it.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { RateLimitStore } from '../storage/guard-store.js';

/** Limits: hits per window for each kind of bucket. */
export interface RateLimits {
  /** Requests per window from one client address. */
  perAddress: number;
  /** Submissions per window with one API key. */
  perKey: number;
  /** Window length in seconds. */
  windowSeconds: number;
  /**
   * Prefix length in bits (1 to 128) that IPv6 client addresses are grouped by
   * (`RATE_LIMIT_IPV6_PREFIX`); default {@link DEFAULT_IPV6_PREFIX}.
   */
  ipv6Prefix?: number;
}

/**
 * Default IPv6 grouping: the /64, the size of one subnet (RFC 4291 section 2.5.4: global
 * unicast interface ids are 64 bits) and what one customer gets at the least (RFC 6177).
 */
export const DEFAULT_IPV6_PREFIX = 64;

/** Default limits: 30 requests per address (IPv6: per /64) and 120 per key, per hour. */
export const DEFAULT_RATE_LIMITS: RateLimits = { perAddress: 30, perKey: 120, windowSeconds: 3600, ipv6Prefix: DEFAULT_IPV6_PREFIX };

/**
 * The rate-limit key of a client address: an IPv4 address as it is; an IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`, RFC 4291 section 2.5.5.2) as its IPv4 address; any other IPv6
 * address as its first `ipv6Prefix` bits, written as eight full groups and the length
 * (`2001:0db8:0001:0002:0000:0000:0000:0000/64`), zone id dropped. Anything else (such as
 * `unknown`) is returned unchanged. Pure.
 */
export function rateLimitAddress(address: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  if (isIPv4(address)) return address;
  const bare = address.replace(/(?<!%)%.*$/su, '');
  if (!isIPv6(bare)) return address;
  const groups = parseIpv6(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((group) => group.toString(16).padStart(4, '0')).join(':')}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of `address`, a valid IPv6 address without zone (RFC 4291 section 2.2). */
function parseIpv6(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const groupsOf = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = groupsOf(head);
  if (rest === undefined) return before;
  const after = groupsOf(rest);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

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
