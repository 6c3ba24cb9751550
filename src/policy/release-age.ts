/**
 * `min_release_age` (issue 55, point 1): a version published more recently than the age is not
 * installed or updated to, unless it is named (`--version`, `--to`, the lock's version with
 * `--frozen`) and an `exceptions` entry lists it. The age of a version is read from the `date`
 * of its entry in `api/loadouts/<id>/versions.json` (`YYYY-MM-DD`, the day its first commit was
 * made; covered by the catalogue's signature when it is signed, docs/signing.md), taken as
 * 00:00 UTC of that day: a version dated 2026-02-20 under `7d` is eligible from
 * 2026-02-27T00:00:00Z. A version whose date is missing or not a date is never old enough.
 *
 * The same rule as npm's `min-release-age`, pnpm's `minimumReleaseAge` and uv's
 * `--exclude-newer`: a fresh release (the window in which a compromised one is caught and
 * pulled) waits. The time is passed in (`PolicyInForce.now`). Pure.
 */
import semver from 'semver';
import type { VersionEntry } from '../tree-format/versions.js';
import type { Policy, PolicyViolation } from './policy.js';

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u;

/** The age `12h`, `7d` or `2w` in milliseconds. @throws Error for another form (a policy that passed its check has none). */
export function ageMs(age: string): number {
  const match = /^(\d{1,4})([hdw])$/u.exec(age);
  if (match === null) throw new Error(`internal error: min_release_age ${JSON.stringify(age)} passed the policy's check (expected 12h, 7d or 2w)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** The time `date` (`YYYY-MM-DD`, UTC) was published, in ms since the epoch, or undefined when it is not such a date. */
function publishedAt(date: string | null | undefined): number | undefined {
  const match = typeof date === 'string' ? DATE.exec(date) : null;
  if (match === null) return undefined;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // A day that rolls over (2026-02-31) is no date.
  return new Date(time).toISOString().slice(0, 10) === date ? time : undefined;
}

/** How a version stands against the policy's age. */
export interface ReleaseAge {
  /** True when the version is old enough (or the policy sets no age). */
  eligible: boolean;
  /** When it becomes eligible, ISO 8601 UTC; null when it is eligible or its date is unknown. */
  eligibleAt: string | null;
}

/** How `entry` stands against `policy.min_release_age` at `now`. Pure. */
export function releaseAge(policy: Policy, entry: Pick<VersionEntry, 'date'>, now: Date): ReleaseAge {
  if (policy.min_release_age === undefined) return { eligible: true, eligibleAt: null };
  const published = publishedAt(entry.date);
  if (published === undefined) return { eligible: false, eligibleAt: null };
  const at = published + ageMs(policy.min_release_age);
  return at <= now.getTime() ? { eligible: true, eligibleAt: null } : { eligible: false, eligibleAt: new Date(at).toISOString() };
}

/** True when an `exceptions` entry lists `version` of `loadout`. */
export function isExcepted(policy: Policy, loadout: string, version: string): boolean {
  return (policy.exceptions ?? []).some((e) => e.loadout === loadout && e.version === version);
}

/** The violation of `min_release_age` by `version` of `loadout`, whose entry is `entry`; undefined when it is old enough. */
export function releaseAgeViolation(policy: Policy, loadout: string, entry: Pick<VersionEntry, 'version' | 'date'>, now: Date, named: boolean): PolicyViolation | undefined {
  const age = releaseAge(policy, entry, now);
  if (age.eligible || (named && isExcepted(policy, loadout, entry.version))) return undefined;
  const when = age.eligibleAt === null ? `its versions.json entry gives no date (${JSON.stringify(entry.date ?? null)}), so it is never old enough` : `it was published on ${entry.date ?? ''}, less than ${policy.min_release_age ?? ''} before ${now.toISOString()}; it is eligible from ${age.eligibleAt}`;
  const how = named ? `; add {loadout: ${loadout}, version: ${entry.version}} to the policy's exceptions to take it now` : '';
  return { rule: 'min_release_age', loadout, agent: null, capability: null, message: `min_release_age: ${loadout} ${entry.version} is too new: ${when}${how}` };
}

/**
 * The newest version of `versions` that `policy`'s age lets an install or update take without
 * naming it (the newest eligible one, by semver), or undefined when none is. Pure.
 */
export function newestEligible(policy: Policy, versions: readonly Pick<VersionEntry, 'version' | 'date'>[], now: Date): Pick<VersionEntry, 'version' | 'date'> | undefined {
  let best: Pick<VersionEntry, 'version' | 'date'> | undefined;
  for (const entry of versions) {
    if (!releaseAge(policy, entry, now).eligible) continue;
    if (best === undefined || semver.gt(entry.version, best.version)) best = entry;
  }
  return best;
}

/** `2026-02-27` of an ISO time: the day a held version becomes eligible, for tables. */
export const dayOf = (iso: string): string => iso.slice(0, 10);
