/**
 * `min_release_age` (policy/release-age.ts) at a time passed in: a version is eligible from 00:00
 * UTC of its date plus the age, never when its date is missing or no date; the newest eligible
 * version by semver; exceptions lift the age of a named version only.
 */
import { describe, expect, it } from 'vitest';
import { ageMs, isExcepted, newestEligible, releaseAge, releaseAgeViolation } from '../../src/policy/release-age.js';
import type { Policy } from '../../src/policy/policy.js';

const WEEK: Policy = { min_release_age: '7d', exceptions: [{ loadout: 'kit', version: '1.2.0' }] };

describe('min_release_age', () => {
  it('reads hours, days and weeks', () => {
    expect([ageMs('12h'), ageMs('7d'), ageMs('2w'), ageMs('0d')]).toEqual([12 * 3_600_000, 7 * 86_400_000, 14 * 86_400_000, 0]);
    expect(() => ageMs('7 days')).toThrow(/internal error/u);
  });

  it('makes a version eligible from 00:00 UTC of its date plus the age, and one without a date never', () => {
    const entry = { date: '2026-03-01' };
    expect(releaseAge(WEEK, entry, new Date('2026-03-07T23:59:59.999Z'))).toEqual({ eligible: false, eligibleAt: '2026-03-08T00:00:00.000Z' });
    expect(releaseAge(WEEK, entry, new Date('2026-03-08T00:00:00.000Z'))).toEqual({ eligible: true, eligibleAt: null });
    for (const date of [null, '2026-02-31', '1 March 2026', '']) expect(releaseAge(WEEK, { date }, new Date('2030-01-01T00:00:00Z'))).toEqual({ eligible: false, eligibleAt: null });
    expect(releaseAge({}, { date: null }, new Date(0))).toEqual({ eligible: true, eligibleAt: null });
  });

  it('takes the newest eligible version by semver, and lifts the age of a named, excepted version only', () => {
    const versions = [
      { version: '1.10.0', date: '2026-01-01' },
      { version: '1.9.0', date: '2026-02-01' },
      { version: '1.2.0', date: '2026-03-01' },
    ];
    expect(newestEligible(WEEK, versions, new Date('2026-03-05T00:00:00Z'))?.version).toBe('1.10.0');
    expect(newestEligible(WEEK, versions, new Date('2025-12-01T00:00:00Z'))).toBeUndefined();
    expect(isExcepted(WEEK, 'kit', '1.2.0')).toBe(true);
    const now = new Date('2026-03-05T00:00:00Z');
    expect(releaseAgeViolation(WEEK, 'kit', { version: '1.2.0', date: '2026-03-01' }, now, true)).toBeUndefined();
    expect(releaseAgeViolation(WEEK, 'kit', { version: '1.2.0', date: '2026-03-01' }, now, false)).toMatchObject({ rule: 'min_release_age', loadout: 'kit', capability: null });
    expect(releaseAgeViolation(WEEK, 'other', { version: '1.2.0', date: '2026-03-01' }, now, true)?.message).toBe(
      'min_release_age: other 1.2.0 is too new: it was published on 2026-03-01, less than 7d before 2026-03-05T00:00:00.000Z; it is eligible from 2026-03-08T00:00:00.000Z; add {loadout: other, version: 1.2.0} to the policy\'s exceptions to take it now',
    );
  });
});
