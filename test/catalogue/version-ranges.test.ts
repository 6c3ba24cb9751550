/**
 * Version ranges (src/catalogue/version-ranges.ts): which texts are ranges, the version a range
 * or several choose, and the conflicts between two requirements, named; with fast-check
 * properties that the choice is the newest version every range allows, and that a conflict is
 * named exactly when no version meets both.
 */
import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { chooseVersion, chooseVersionForAll, describeRangeProblem, isRange, resolveRequirements, satisfiesRange } from '../../src/catalogue/version-ranges.js';

const VERSIONS = ['1.0.0', '1.2.0', '1.2.5', '1.10.0', '2.0.0', '2.1.3', '3.0.0'];

describe('ranges', () => {
  it('reads the issue\'s forms and npm\'s, and says what is wrong with the rest', () => {
    for (const range of ['^1.2', '~2.1.0', '>=1 <3', '1.4.0', '*', '1.x', '^1 || ^3', '1.0.0 - 2.0.0']) expect(isRange(range), range).toBe(true);
    expect(describeRangeProblem('')).toBe('is empty (expected a semver range such as ^1.2, ~2.1.0, >=1 <3 or 1.4.0; * for any version)');
    expect(describeRangeProblem('   ')).toMatch(/^is empty/u);
    expect(describeRangeProblem('=>1')).toBe('is not a semver range (expected a semver range such as ^1.2, ~2.1.0, >=1 <3 or 1.4.0)');
    expect(describeRangeProblem('latest')).toMatch(/^is not a semver range/u);
    expect(describeRangeProblem(`^${'1'.repeat(300)}`)).toMatch(/^is 301 characters long/u);
  });

  it('chooses the newest published version a range allows, none when it allows none', () => {
    expect(chooseVersion(VERSIONS, '^1.2')).toBe('1.10.0');
    expect(chooseVersion(VERSIONS, '~1.2.0')).toBe('1.2.5');
    expect(chooseVersion(VERSIONS, '>=1 <3')).toBe('2.1.3');
    expect(chooseVersion(VERSIONS, '^4')).toBeUndefined();
    expect(chooseVersion(VERSIONS, 'nonsense')).toBeUndefined();
    expect(chooseVersion(['1.0.0', 'v2.0.0', 'latest'], '*')).toBe('1.0.0');
    expect(chooseVersionForAll(VERSIONS, ['^1', '<1.5'])).toBe('1.2.5');
    expect(satisfiesRange('2.0.0', '^1')).toBe(false);
  });

  it('names the two requirements that no version meets together, and why', () => {
    const resolution = resolveRequirements(
      [
        { id: 'nextjs-app-router', range: '^1.2', by: 'bundle web-team-stack' },
        { id: 'nextjs-app-router', range: '^2', by: 'bundle platform' },
        { id: 'secure-code-review', range: '>=1 <3', by: 'bundle web-team-stack' },
        { id: 'secure-code-review', range: '~2.1.0', by: 'project' },
        { id: 'dbt-analytics', range: '>=1.3', by: 'bundle data' },
        { id: 'dbt-analytics', range: '<1.6', by: 'project' },
        { id: 'godot-gdscript', range: '^9', by: 'project' },
      ],
      (id) => (id === 'dbt-analytics' ? ['1.0.0', '1.2.0', '1.7.0'] : id === 'godot-gdscript' ? ['1.0.0'] : VERSIONS),
    );
    expect([...resolution.chosen]).toEqual([['secure-code-review', '2.1.3']]);
    expect(resolution.conflicts.map((c) => [c.id, c.reason, c.message])).toEqual([
      ['nextjs-app-router', 'disjoint', 'loadout nextjs-app-router: bundle web-team-stack asks for ^1.2 and bundle platform for ^2 (no version can meet both)'],
      ['dbt-analytics', 'no-version', 'loadout dbt-analytics: bundle data asks for >=1.3 and project for <1.6 (no published version meets both; published: 1.0.0, 1.2.0, 1.7.0)'],
    ]);
    expect(resolution.unsatisfied).toEqual([{ id: 'godot-gdscript', range: '^9', by: 'project' }]);
  });
});

/** A version MAJOR.MINOR.PATCH of small numbers, so that ranges often meet. */
const version = fc.tuple(fc.nat(4), fc.nat(4), fc.nat(4)).map(([a, b, c]) => `${a}.${b}.${c}`);
/** A range of one of the forms the issue names, over the same small numbers. */
const range = fc.oneof(
  version.map((v) => `^${v}`),
  version.map((v) => `~${v}`),
  fc.tuple(version, version).map(([a, b]) => `>=${a} <${b}`),
  version,
  fc.constant('*'),
);

describe('ranges, over drawn versions and ranges', () => {
  it('choose the newest version every range allows, and name a conflict exactly when no version meets both', () => {
    fc.assert(
      fc.property(fc.uniqueArray(version, { maxLength: 12 }), range, range, (versions, a, b) => {
        const chosen = chooseVersionForAll(versions, [a, b]);
        const allowed = versions.filter((v) => semver.satisfies(v, a) && semver.satisfies(v, b));
        expect(chosen).toBe(allowed.length === 0 ? undefined : allowed.sort(semver.rcompare)[0]);
        const resolution = resolveRequirements([{ id: 'x', range: a, by: 'first' }, { id: 'x', range: b, by: 'second' }], () => versions);
        const alone = [a, b].filter((r) => chooseVersion(versions, r) === undefined);
        expect(resolution.chosen.get('x')).toBe(chosen);
        expect(resolution.conflicts.length).toBe(chosen === undefined && alone.length === 0 ? 1 : 0);
        expect(resolution.unsatisfied.map((u) => u.range)).toEqual(alone);
      }),
      { numRuns: 500 },
    );
  });
});
