/**
 * Version ranges (issue 56: a bundle names its loadouts with semver ranges, `^1.2`, `~2.1.0`,
 * `>=1 <3`), read as npm reads them: node-semver's range grammar (github.com/npm/node-semver,
 * "Ranges", `range.bnf`), the library npm itself uses, so that a range means here what it means
 * in a `package.json` and in a Claude Code plugin's `dependencies` (which also take semver).
 * A catalogue's versions are MAJOR.MINOR.PATCH with digits only (`VERSION_PATTERN`), so no
 * prerelease ever takes part.
 *
 * Pure: versions and ranges in, a chosen version or the conflicts out. The bundle checks, the
 * build (a bundle record's resolved versions) and the installer (`loadout install <bundle>`,
 * where two bundles may ask for one loadout) all choose versions here, so that they agree.
 */
import semver from 'semver';
import { VERSION_PATTERN } from './vocabulary.js';

/** node-semver's options for every call: strict parsing (no `v1.2` or `=1.2` loosened into a version), no prereleases. */
const STRICT = { loose: false, includePrerelease: false } as const;

/**
 * Why `range` is not a range, in words ("expected …"), or undefined when it is one. A range is
 * text of at most 256 characters that node-semver reads as a range and that names something
 * (an empty or blank text reads as `*`, which must be written as `*`).
 */
export function describeRangeProblem(range: string): string | undefined {
  const expected = 'expected a semver range such as ^1.2, ~2.1.0, >=1 <3 or 1.4.0';
  if (range.trim() === '') return `is empty (${expected}; * for any version)`;
  if (range.length > MAX_RANGE_LENGTH) return `is ${range.length} characters long (${expected}, at most ${MAX_RANGE_LENGTH} characters)`;
  if (semver.validRange(range, STRICT) === null) return `is not a semver range (${expected})`;
  return undefined;
}

/** The longest range read (node-semver's own limit on a version is 256 characters; a range of a catalogue's is far shorter). */
export const MAX_RANGE_LENGTH = 256;

/** True when `range` is a range ({@link describeRangeProblem}). */
export const isRange = (range: string): boolean => describeRangeProblem(range) === undefined;

/**
 * The newest of `versions` that `range` allows (node-semver `maxSatisfying`), or undefined when
 * none does or `range` is not a range. Versions that are not MAJOR.MINOR.PATCH with digits only
 * (`VERSION_PATTERN`: no `v` prefix, no prerelease) are ignored.
 */
export function chooseVersion(versions: readonly string[], range: string): string | undefined {
  return chooseVersionForAll(versions, [range]);
}

/**
 * The newest of `versions` that every one of `ranges` allows, or undefined when none does (or
 * one of them is not a range). With no ranges, the newest version.
 */
export function chooseVersionForAll(versions: readonly string[], ranges: readonly string[]): string | undefined {
  if (ranges.some((r) => !isRange(r))) return undefined;
  let best: string | undefined;
  for (const version of versions) {
    if (!VERSION_PATTERN.test(version) || !ranges.every((r) => semver.satisfies(version, r, STRICT))) continue;
    if (best === undefined || semver.gt(version, best, STRICT)) best = version;
  }
  return best;
}

/** True when `version` (MAJOR.MINOR.PATCH) is allowed by `range` (false when either does not read). */
export function satisfiesRange(version: string, range: string): boolean {
  return isRange(range) && VERSION_PATTERN.test(version) && semver.satisfies(version, range, STRICT);
}

/** One requirement of a version range for a loadout: who asks (a bundle id, `project`…), for which loadout, with which range. */
export interface RangeRequirement {
  /** The loadout asked for. */
  id: string;
  range: string;
  /** Who asks for it, as the messages name it (e.g. `bundle web-team-stack`). */
  by: string;
}

/** Two requirements for one loadout that no version meets together. */
export interface RangeConflict {
  id: string;
  first: RangeRequirement;
  second: RangeRequirement;
  /**
   * `disjoint`: no version could ever meet both (node-semver `intersects` is false);
   * `no-version`: some version could, but none of the published ones does.
   */
  reason: 'disjoint' | 'no-version';
  /** `loadout nextjs-app-router: bundle a asks for ^1.2 and bundle b for ^2 (no version can meet both)`. */
  message: string;
}

/** What {@link resolveRequirements} chose. */
export interface Resolution {
  /** Loadout id → the newest published version every requirement of it allows, for each loadout that has one. */
  chosen: Map<string, string>;
  /** Each pair of requirements that no version meets together (each pair once, in the order given). */
  conflicts: RangeConflict[];
  /** Requirements that no published version meets on its own (a loadout that is not published has none). */
  unsatisfied: RangeRequirement[];
}

/**
 * Chooses one version per loadout for `requirements` (several may name one loadout: two
 * bundles, or a bundle and the project), from `versionsOf(id)`, its published versions (none
 * when unknown). A loadout's choice is the newest version every requirement allows; when none
 * does, the pairs that cannot both be met are named ({@link RangeConflict}) and the loadout is
 * left out of `chosen`. Requirements with a bad range count as unsatisfied. Pure.
 */
export function resolveRequirements(requirements: readonly RangeRequirement[], versionsOf: (id: string) => readonly string[]): Resolution {
  const byId = new Map<string, RangeRequirement[]>();
  for (const requirement of requirements) byId.set(requirement.id, [...(byId.get(requirement.id) ?? []), requirement]);
  const chosen = new Map<string, string>();
  const conflicts: RangeConflict[] = [];
  const unsatisfied: RangeRequirement[] = [];
  for (const [id, asked] of byId) {
    const versions = versionsOf(id);
    const alone = asked.filter((r) => chooseVersion(versions, r.range) === undefined);
    unsatisfied.push(...alone);
    const version = chooseVersionForAll(versions, asked.map((r) => r.range));
    if (version !== undefined) {
      chosen.set(id, version);
      continue;
    }
    for (let i = 0; i < asked.length; i++) {
      for (let j = i + 1; j < asked.length; j++) {
        const first = asked[i] as RangeRequirement;
        const second = asked[j] as RangeRequirement;
        if (alone.includes(first) || alone.includes(second)) continue;
        const conflict = conflictOf(id, first, second, versions);
        if (conflict !== undefined) conflicts.push(conflict);
      }
    }
  }
  return { chosen, conflicts, unsatisfied };
}

/** The conflict between two requirements for loadout `id`, or undefined when a published version meets both. */
export function conflictOf(id: string, first: RangeRequirement, second: RangeRequirement, versions: readonly string[]): RangeConflict | undefined {
  if (!isRange(first.range) || !isRange(second.range)) return undefined;
  if (chooseVersionForAll(versions, [first.range, second.range]) !== undefined) return undefined;
  const reason = semver.intersects(first.range, second.range, STRICT) ? 'no-version' : 'disjoint';
  const why = reason === 'disjoint' ? 'no version can meet both' : `no published version meets both; published: ${versions.length === 0 ? 'none' : versions.join(', ')}`;
  return { id, first, second, reason, message: `loadout ${id}: ${first.by} asks for ${first.range} and ${second.by} for ${second.range} (${why})` };
}
