/**
 * What a signing build may reuse from the previous tree (issue 35, point 10; SECURITY.md "What a
 * signed build vouches for"). The previous tree, its store entries and its build cache come back
 * from a CI cache that others may have written: a store entry changed together with its
 * `versions.json` digest and cache line was reused and signed as "unchanged". A signing build
 * must not vouch for bytes it did not derive from the commit.
 *
 * So each signing build attests what it derived: for every loadout in its tree, an HMAC-SHA256
 * (RFC 2104) under a key derived from the signing key (HKDF-SHA256, RFC 5869; whoever can forge
 * it can sign anyway) over the loadout id, its store entry, the key of its inputs (cache.ts
 * `loadoutKey`), the digest of its versions document, its listing (which the signed index is
 * made of), its folder's git tree id and the HEAD commit of that build. The attestations are kept
 * in the tree's dot file {@link ATTESTATIONS_FILE} (never published). The next signing build
 * with the same key reuses a loadout only when its attestation verifies for what the restored
 * cache says; the cache's tree id and HEAD are then compared with the source as for any rebuild
 * (previous-build.ts `findUnchanged`: git's tree id of the folder now, and no commit since that
 * HEAD touched it). Anything else is read, checked and written again from the commit. What a
 * build derived itself it attests again with its own HEAD, so the chain holds from build to
 * build, and a cache from a build without this key (or unsigned) is not reused at all.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SigningKey } from '../../tree-format/signing/keys.js';
import { listingLine, type BuildCache, type CachedLoadout } from './cache.js';
import type { Unchanged } from './previous-build.js';

/** The tree's dot file of attestations: `{"head": <commit or "">, "loadouts": {<id>: <hex HMAC>}}`. */
export const ATTESTATIONS_FILE = '.loadout-attestations.json';

/** HKDF's `info` (RFC 5869 section 3.2): binds the derived key to this one use. */
const KEY_INFO = 'loadout build reuse attestation v1';

/** The key attestations are made with, derived from the signing key's private half. */
export function attestationKeyOf(key: SigningKey): Buffer {
  const secret = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32));
}

/** What one attestation covers. */
export interface ReuseClaim {
  id: string;
  /** Its store entry's name. */
  name: string;
  /** The key of its inputs (cache.ts `loadoutKey`). */
  key: string;
  /** The digest of its versions document: sha256 (hex) and bytes. */
  versions: readonly [string, number];
  /** Its listing (catalogue-entry.ts; the rows of the signed index) as its cache line (cache.ts `listingLine`). */
  listing: string;
  /** Its folder's git tree id at `head` ('' when its folder had changes). */
  tree: string;
  /** The HEAD commit of the build that attests it ('' outside git). */
  head: string;
}

/**
 * The claim of `loadout` (as the cache keeps it) with the digest of its versions document, at
 * `head`; its listing as the cache line of `cache` (the cache read, whose lines are reused) or
 * as written now.
 */
export function claimOf(id: string, loadout: CachedLoadout, versions: readonly [string, number], head: string | null | undefined, cache?: BuildCache): ReuseClaim {
  const { state, listing } = loadout;
  return { id, name: state.name, key: state.key, versions, listing: listingLine(id, listing, cache), tree: state.stamp?.tree ?? '', head: head ?? '' };
}

/** The attestation of `claim` under `key`: HMAC-SHA256 over its fields in a fixed order, as hex. */
export function attest(key: Buffer, claim: ReuseClaim): string {
  const fields = [claim.id, claim.name, claim.key, claim.versions[0], String(claim.versions[1]), claim.listing, claim.tree, claim.head];
  return createHmac('sha256', key).update(JSON.stringify(fields)).digest('hex');
}

/** The attestations a tree holds, by loadout id, with the HEAD they were made at; empty when it has none or they are malformed. */
export function readAttestations(tree: string | undefined): { head: string; loadouts: Map<string, string> } {
  const none = { head: '', loadouts: new Map<string, string>() };
  if (tree === undefined) return none;
  try {
    const value = JSON.parse(readFileSync(join(tree, ATTESTATIONS_FILE), 'utf8')) as { head?: unknown; loadouts?: unknown };
    if (typeof value.head !== 'string' || value.loadouts === null || typeof value.loadouts !== 'object' || Array.isArray(value.loadouts)) return none;
    const loadouts = new Map<string, string>();
    for (const [id, mac] of Object.entries(value.loadouts)) if (typeof mac === 'string' && /^[0-9a-f]{64}$/u.test(mac)) loadouts.set(id, mac);
    return { head: value.head, loadouts };
  } catch {
    return none;
  }
}

/** The text of {@link ATTESTATIONS_FILE} for `claims` (all made at `head`). */
export function attestationsText(key: Buffer, head: string | undefined, claims: Iterable<ReuseClaim>): string {
  const loadouts: Record<string, string> = {};
  for (const claim of claims) loadouts[claim.id] = attest(key, claim);
  return JSON.stringify({ head: head ?? '', loadouts });
}

/**
 * `unchanged` (previous-build.ts) narrowed to the loadouts whose attestation in the live tree
 * (`attestations`, {@link readAttestations}) verifies under `key` for what the restored `cache`
 * says of them (its lines, and its HEAD), with the digest of its versions document as
 * `digestOf` gives it (the digest the snapshot would sign). A loadout left out is built again.
 */
export function attestedOnly(unchanged: Unchanged, input: { key: Buffer; attestations: ReturnType<typeof readAttestations>; cache: BuildCache; digestOf: (name: string) => [string, number] | undefined }): Unchanged {
  const previousHead = input.cache.head;
  const verdicts = new Map<string, boolean>();
  const verified = (id: string, loadout: CachedLoadout): boolean => {
    let verdict = verdicts.get(id);
    if (verdict === undefined) {
      const mac = input.attestations.loadouts.get(id);
      const digest = input.digestOf(loadout.state.name);
      verdict = false;
      if (mac !== undefined && digest !== undefined && input.attestations.head === (previousHead ?? '')) {
        const expected = Buffer.from(attest(input.key, claimOf(id, loadout, digest, previousHead, input.cache)), 'hex');
        verdict = timingSafeEqual(expected, Buffer.from(mac, 'hex'));
      }
      verdicts.set(id, verdict);
    }
    return verdict;
  };
  const previous = (id: string): CachedLoadout | undefined => {
    const loadout = unchanged.previous(id);
    return loadout !== undefined && verified(id, loadout) ? loadout : undefined;
  };
  // Attesting reads the listings (the claim covers them): a signing build parses them first.
  return { previous, previousKey: (id) => previous(id)?.state.key, unread: new Set([...unchanged.unread].filter((id) => previous(id) !== undefined)), readListings: unchanged.readListings };
}
