/**
 * The checks of a bundle against its catalogue (issue 56, point 1): every member is a loadout
 * of this catalogue, its range allows one of that loadout's published versions (the versions
 * the build publishes: every version in git history and the working tree's, history.ts), and
 * the bundle's id is no loadout's (the two would share `plugins/<id>/` and the marketplaces'
 * plugin names). Each finding names the line of `bundle.yaml` it is about. Pure: the
 * catalogue comes in as its loadouts' published versions.
 */
import type { Diagnostic } from '../catalogue/diagnostics.js';
import { chooseVersion, isRange } from '../catalogue/version-ranges.js';
import { suggestIds } from '../catalogue/suggest.js';
import { memberPointer, type ReadBundle } from './read.js';

/** What the checks know of the catalogue: each loadout's published versions, oldest first (undefined for an id that is no loadout). */
export type PublishedVersionsOf = (id: string) => readonly string[] | undefined;

/**
 * The findings of `bundle` (read.ts, its manifest read) against the catalogue's loadouts
 * `loadoutIds` and their published versions: {@link checkBundleIds} and
 * {@link checkBundleRanges}; none for a bundle whose manifest did not read (read.ts reported
 * why). Never throws.
 */
export function checkBundleMembers(bundle: ReadBundle, loadoutIds: readonly string[], versionsOf: PublishedVersionsOf): Diagnostic[] {
  return [...checkBundleIds(bundle, loadoutIds), ...checkBundleRanges(bundle, versionsOf)];
}

/** The findings that need the loadouts' ids alone: a bundle id that is a loadout's, and members that are no loadout. Never throws. */
export function checkBundleIds(bundle: ReadBundle, loadoutIds: readonly string[]): Diagnostic[] {
  const { manifest } = bundle;
  if (manifest === undefined) return [];
  const findings: Diagnostic[] = [];
  if (loadoutIds.includes(manifest.id)) findings.push(finding(bundle, '/id', `/id ${JSON.stringify(manifest.id)} is also a loadout's id (expected a name no loadout has: a bundle's plugin and a loadout's would share plugins/${manifest.id}/ and one name in the marketplaces)`));
  manifest.loadouts.forEach((member, i) => {
    if (loadoutIds.includes(member.id)) return;
    const near = suggestIds(member.id, loadoutIds);
    findings.push(finding(bundle, memberPointer(i, 'id'), `names ${JSON.stringify(member.id)}, which is no loadout of this catalogue (expected a folder name of loadouts/${near.length === 0 ? '' : `, such as ${near.join(' or ')}`})`));
  });
  return findings;
}

/** The findings of ranges that allow none of their loadout's published versions (a member that is no loadout, or whose range does not read, is another check's). Never throws. */
export function checkBundleRanges(bundle: ReadBundle, versionsOf: PublishedVersionsOf): Diagnostic[] {
  const { manifest } = bundle;
  if (manifest === undefined) return [];
  const findings: Diagnostic[] = [];
  manifest.loadouts.forEach((member, i) => {
    const versions = versionsOf(member.id);
    if (versions === undefined || !isRange(member.range) || chooseVersion(versions, member.range) !== undefined) return;
    findings.push(finding(bundle, memberPointer(i, 'range'), `the range ${JSON.stringify(member.range)} of ${member.id} allows none of its published versions (${versions.length === 0 ? 'none' : versions.join(', ')}) (expected a range that one of them meets)`, `Widen the range, or publish a version of ${member.id} that it allows.`));
  });
  return findings;
}

/** A diagnostic of `bundle` at `pointer`, on the line the pointer is on. */
function finding(bundle: ReadBundle, pointer: string, message: string, hint?: string): Diagnostic {
  const line = bundle.lineOf(pointer);
  return { loadout: bundle.id, file: bundle.file, ...(line === undefined ? {} : { line }), pointer, message, ...(hint === undefined ? {} : { hint }) };
}
