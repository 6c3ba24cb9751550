/**
 * Address rate limits group IPv6 clients by prefix (a /64 by default, `RATE_LIMIT_IPV6_PREFIX`),
 * keep IPv4 addresses as they are, and count an IPv4-mapped IPv6 address as its IPv4 address:
 * the key function alone, and over HTTP with addresses from a trusted proxy's
 * `X-Forwarded-For`.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/cli/config.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { DEFAULT_IPV6_PREFIX, rateLimitAddress } from '../../src/submissions/rate-limit.js';
import { startHarness } from './harness.js';

describe('rateLimitAddress', () => {
  it('gives every address of one /64 the same key, whatever its spelling', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:c:d', 'fe80::1%eth0'].map((address) => rateLimitAddress(address));
    expect(new Set(keys.slice(0, 4))).toEqual(new Set(['2001:0db8:0001:0002:0000:0000:0000:0000/64']));
    expect(keys[4]).toBe('fe80:0000:0000:0000:0000:0000:0000:0000/64');
    expect(DEFAULT_IPV6_PREFIX).toBe(64);
  });

  it('gives other /64s other keys', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:2:2::1', '2001:db9:1:2::1', '::1'].map((address) => rateLimitAddress(address));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('groups by the configured prefix length', () => {
    expect(rateLimitAddress('2001:db8:1:2::1', 48)).toBe(rateLimitAddress('2001:db8:1:ff00::1', 48));
    expect(rateLimitAddress('2001:db8:1:2::1', 48)).not.toBe(rateLimitAddress('2001:db8:2:2::1', 48));
    expect(rateLimitAddress('2001:db8:1:2:aaaa::1', 68)).toBe('2001:0db8:0001:0002:a000:0000:0000:0000/68');
    expect(rateLimitAddress('2001:db8::1', 128)).not.toBe(rateLimitAddress('2001:db8::2', 128));
  });

  it('keeps IPv4 as it is and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(rateLimitAddress('192.0.2.1')).toBe('192.0.2.1');
    expect(rateLimitAddress('192.0.2.2')).toBe('192.0.2.2');
    expect(rateLimitAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(rateLimitAddress('::FFFF:c000:0201')).toBe('192.0.2.1');
    // Not mapped: the IPv4-compatible and NAT64 forms are IPv6 prefixes.
    expect(rateLimitAddress('64:ff9b::192.0.2.1')).toBe('0064:ff9b:0000:0000:0000:0000:0000:0000/64');
    expect(rateLimitAddress('unknown')).toBe('unknown');
  });

  it('reads RATE_LIMIT_IPV6_PREFIX, default 64, and refuses lengths outside 1 to 128', () => {
    expect(resolveConfig({}).rateLimits.ipv6Prefix).toBe(64);
    expect(resolveConfig({ RATE_LIMIT_IPV6_PREFIX: '56' }).rateLimits.ipv6Prefix).toBe(56);
    for (const bad of ['0', '129', '64.5', '/64', 'x']) expect(() => resolveConfig({ RATE_LIMIT_IPV6_PREFIX: bad }), bad).toThrow(LoadoutError);
  });
});

describe('address rate limits over HTTP', () => {
  /** Asks for a session from `address` (as the trusted proxy reports it); returns the status. */
  const sessionFrom = async (url: string, address: string): Promise<number> => {
    const response = await fetch(`${url}/api/v1/submissions/session`, { headers: { 'x-forwarded-for': address } });
    await response.body?.cancel();
    return response.status;
  };

  it('shares one bucket across a /64, and not with the next /64', async () => {
    const h = await startHarness('sqlite', { trustProxy: true, limits: { perAddress: 2 } });
    expect(await sessionFrom(h.url, '2001:db8:1:2::1')).toBe(200);
    expect(await sessionFrom(h.url, '2001:db8:1:2::2')).toBe(200);
    // A third address of the same /64 is over the limit of two.
    expect(await sessionFrom(h.url, '2001:db8:1:2:dead:beef:0:1')).toBe(429);
    expect(await sessionFrom(h.url, '2001:db8:1:3::1')).toBe(200);
  });

  it('counts an IPv4-mapped address with its IPv4 address, and other IPv4 addresses apart', async () => {
    const h = await startHarness('sqlite', { trustProxy: true, limits: { perAddress: 2 } });
    expect(await sessionFrom(h.url, '192.0.2.1')).toBe(200);
    expect(await sessionFrom(h.url, '::ffff:192.0.2.1')).toBe(200);
    expect(await sessionFrom(h.url, '192.0.2.1')).toBe(429);
    expect(await sessionFrom(h.url, '192.0.2.2')).toBe(200);
  });

  it('groups by a configured prefix', async () => {
    const h = await startHarness('sqlite', { trustProxy: true, limits: { perAddress: 1, ipv6Prefix: 48 } });
    expect(await sessionFrom(h.url, '2001:db8:1:2::1')).toBe(200);
    expect(await sessionFrom(h.url, '2001:db8:1:3::1')).toBe(429);
    expect(await sessionFrom(h.url, '2001:db8:2:2::1')).toBe(200);
  });
});
