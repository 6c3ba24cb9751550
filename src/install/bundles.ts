/**
 * Bundles installed as one (issue 56, point 3): what `install`, `update`, `uninstall`, `status`
 * and `outdated` need to know of a bundle, and the rules they share, so that each command asks
 * here instead of deciding again.
 *
 * - A bundle is read from the catalogue's `api/bundles.json` and `api/bundles/<id>.json`
 *   (`tree-format/bundle.ts`), checked as any document of an untrusted catalogue; when the
 *   catalogue is signed, their bytes must be those its snapshot lists (it lists both).
 * - Every version is chosen by the one range rule, `catalogue/version-ranges.ts`: a member is
 *   installed at the newest published version every installed bundle's range for it allows.
 * - The lock records the bundle (`project/lock.ts` `LockedBundle`) and, on each member's entry,
 *   who asked for it (`requested_by`: `user`, `bundle:<id>`).
 * - What is refused is refused before anything is written, naming both constraints: a member
 *   installed at a version outside a bundle's range, two bundles whose ranges for one loadout
 *   do not meet (`BundleConflict`); a member removed alone (`BundleMember`).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { isAgent, SLUG_PATTERN, VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { chooseVersionForAll, conflictOf, isRange, satisfiesRange, type RangeRequirement } from '../catalogue/version-ranges.js';
import { BUNDLES_LIST_TREE_PATH, bundleRecordTreePath, type BundleMemberRange } from '../tree-format/bundle.js';
import type { VersionsDocument } from '../tree-format/index.js';
import { DOCUMENT_MAX_BYTES, type CatalogueReader } from './catalogue/catalogue-reader.js';
import { checkDocumentDigest } from './catalogue/signed-catalogue.js';
import { ConsumerError } from './errors.js';
import { bundleRequest, requestersOf, USER_REQUEST, withRequesters, type LockedBundle, type LockEntry, type LockFile } from './project/lock.js';

/** A bundle as the catalogue publishes it now: its id, its latest version and that version's members. */
export interface CatalogueBundle {
  id: string;
  version: string;
  members: BundleMemberRange[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The ids of the catalogue's bundle list (`api/bundles.json`), or [] when the catalogue
 * publishes none (a catalogue built before bundles).
 * @throws ConsumerError `InvalidCatalogue` when the list is not of its form; the reader's errors other than `not_found`
 */
export async function catalogueBundleIds(catalogue: CatalogueReader): Promise<string[]> {
  let bytes: Uint8Array;
  try {
    bytes = await catalogue.readDocument(BUNDLES_LIST_TREE_PATH, DOCUMENT_MAX_BYTES);
  } catch (error) {
    if (error instanceof LoadoutError && error.code === 'not_found') return [];
    throw error;
  }
  const where = `${catalogue.location}/${BUNDLES_LIST_TREE_PATH}`;
  const { snapshot } = await catalogue.signing();
  if (snapshot !== undefined) checkDocumentDigest(snapshot, BUNDLES_LIST_TREE_PATH, bytes, where);
  let list: unknown;
  try {
    list = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (cause) {
    throw new ConsumerError('InvalidCatalogue', `${where} is not JSON (${(cause as Error).message})`, { cause });
  }
  const bundles = isObject(list) ? list['bundles'] : undefined;
  if (!Array.isArray(bundles)) throw new ConsumerError('InvalidCatalogue', `${where} has no bundles array (expected {total, bundles: [{id, …}]})`);
  return bundles.map((b: unknown) => (isObject(b) ? b['id'] : undefined)).filter((id): id is string => typeof id === 'string' && SLUG_PATTERN.test(id));
}

/**
 * Bundle `id` as the catalogue publishes it (`api/bundles/<id>.json`): its latest version and
 * that version's members. A signed catalogue's snapshot must list the record's bytes.
 * @throws ConsumerError `InvalidCatalogue` (a record not of its form), `HashMismatch`; the reader's errors
 */
export async function readCatalogueBundle(catalogue: CatalogueReader, id: string): Promise<CatalogueBundle> {
  if (!SLUG_PATTERN.test(id)) throw new ConsumerError('InvalidCatalogue', `bundle id ${JSON.stringify(id)} is not a lowercase slug (expected an address inside the catalogue)`);
  const path = bundleRecordTreePath(id);
  const where = `${catalogue.location}/${path}`;
  const bytes = await catalogue.readDocument(path, DOCUMENT_MAX_BYTES);
  const { snapshot } = await catalogue.signing();
  if (snapshot !== undefined) checkDocumentDigest(snapshot, path, bytes, where, `bundle ${id} was not published by the key's holder`);
  let record: unknown;
  try {
    record = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (cause) {
    throw new ConsumerError('InvalidCatalogue', `${where} is not JSON (${(cause as Error).message})`, { cause });
  }
  const bad = (what: string): ConsumerError => new ConsumerError('InvalidCatalogue', `${where}: ${what}`);
  if (!isObject(record) || record['id'] !== id) throw bad(`id is not ${JSON.stringify(id)} (expected the bundle's record)`);
  const version = record['version'];
  if (typeof version !== 'string' || !VERSION_PATTERN.test(version)) throw bad(`version is ${JSON.stringify(version)} (expected MAJOR.MINOR.PATCH)`);
  const loadouts = record['loadouts'];
  if (!Array.isArray(loadouts) || loadouts.length === 0) throw bad('loadouts is not a non-empty array (expected [{id, range, agents}])');
  const members = loadouts.map((m: unknown, i): BundleMemberRange => {
    const agents = isObject(m) ? m['agents'] : undefined;
    if (!isObject(m) || typeof m['id'] !== 'string' || !SLUG_PATTERN.test(m['id']) || typeof m['range'] !== 'string' || !isRange(m['range']) || !(agents === null || (Array.isArray(agents) && agents.every(isAgent)))) {
      throw bad(`loadouts[${i}] is not {id: a loadout id, range: a semver range, agents: null or agent ids}`);
    }
    return { id: m['id'], range: m['range'], agents: agents === null ? null : [...(agents as Agent[])] };
  });
  if (new Set(members.map((m) => m.id)).size !== members.length) throw bad('loadouts names a loadout twice');
  return { id, version, members };
}

/**
 * What `install <id>` installs: the loadout `id` when the catalogue has one (its versions
 * document), else the bundle `id` when the catalogue's bundle list names it. A loadout id always
 * means the loadout: `loadout build` and `verify` refuse a bundle whose id is a loadout's
 * (`bundles/check.ts`), so the bundle list is read only when the catalogue has no such loadout,
 * and an install of a loadout costs no request more.
 * @throws the reader's `UnknownLoadout` when it is neither; the errors of {@link readCatalogueBundle}
 */
export async function resolveInstallId(catalogue: CatalogueReader, id: string): Promise<{ versions: VersionsDocument; bundle?: undefined } | { versions?: undefined; bundle: CatalogueBundle }> {
  try {
    return { versions: await catalogue.readVersions(id) };
  } catch (error) {
    if (!(error instanceof ConsumerError && error.name === 'UnknownLoadout')) throw error;
    if (!(await catalogueBundleIds(catalogue)).includes(id)) throw error;
    return { bundle: await readCatalogueBundle(catalogue, id) };
  }
}

/** The agents a member is installed for: the bundle's agents, less those the member is not for. */
export const memberAgents = (member: BundleMemberRange, agents: readonly Agent[]): Agent[] => agents.filter((a) => member.agents === null || member.agents.includes(a));

/** The lock's record of `bundle` installed for `agents` from `source`. */
export function lockedBundle(bundle: CatalogueBundle, agents: readonly Agent[], source: string): LockedBundle {
  return { id: bundle.id, version: bundle.version, source, agents: [...agents].sort(), members: bundle.members.map((m) => ({ id: m.id, range: m.range, agents: memberAgents(m, agents) })) };
}

/** Who asks for loadout `id` for `agent` with which range, among `bundles`. */
export function rangesFor(bundles: readonly LockedBundle[], id: string, agent: Agent): RangeRequirement[] {
  return bundles.flatMap((b) => b.members.filter((m) => m.id === id && m.agents.includes(agent)).map((m) => ({ id, range: m.range, by: `bundle ${b.id} ${b.version}` })));
}

/**
 * `doc` with only the versions every one of `ranges` allows, `latest` the newest of them, so
 * that the policy's choice (`policy-gate.ts` `defaultVersion`, `refuseVersion`) is made within
 * the ranges; `doc` itself when there are none.
 * @throws ConsumerError `BundleConflict` when no published version meets them all, naming each
 *   pair of constraints that cannot both be met (or the one no version meets)
 */
export function withinRanges(doc: VersionsDocument, ranges: readonly RangeRequirement[], also: readonly RangeRequirement[] = []): VersionsDocument {
  const all = [...ranges, ...also];
  if (all.length === 0) return doc;
  const published = doc.versions.map((v) => v.version);
  const latest = chooseVersionForAll(published, all.map((r) => r.range));
  if (latest !== undefined) return { ...doc, latest, versions: doc.versions.filter((v) => all.every((r) => satisfiesRange(v.version, r.range))) };
  const reasons: string[] = [];
  for (const r of all) if (chooseVersionForAll(published, [r.range]) === undefined) reasons.push(`loadout ${doc.id}: ${r.by} asks for ${r.range} and no published version meets it (published: ${published.join(', ')})`);
  for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) {
    const conflict = conflictOf(doc.id, all[i] as RangeRequirement, all[j] as RangeRequirement, published);
    if (conflict !== undefined && !reasons.some((r) => r.includes(conflict.first.by) && r.includes(conflict.second.by))) reasons.push(conflict.message);
  }
  throw bundleConflict(reasons);
}

/** The `BundleConflict` error of `reasons` (each naming both constraints). */
export function bundleConflict(reasons: readonly string[]): ConsumerError {
  return new ConsumerError('BundleConflict', `${reasons.join('; ')}; nothing was written`);
}

/** How an install entry was asked for, in words: `installed on its own`, `brought by bundle x`. */
export function describeRequesters(entry: Pick<LockEntry, 'requested_by'>): string {
  const parts = requestersOf(entry).map((r) => (r === USER_REQUEST ? 'installed on its own' : `brought by bundle ${r.slice('bundle:'.length)}`));
  return parts.join(' and ');
}

/**
 * Refuses installs already in the lock, for the agents a bundle wants, at versions outside the
 * ranges every installed bundle (and the one being installed) has for them.
 * @throws ConsumerError `BundleConflict` naming the install (and who asked for it) and the range
 */
export function refuseOutOfRange(lock: LockFile, bundles: readonly LockedBundle[], wanted: readonly { id: string; agents: readonly Agent[] }[]): void {
  const reasons: string[] = [];
  for (const { id, agents } of wanted) {
    for (const entry of lock.installs.filter((e) => e.id === id && agents.includes(e.agent))) {
      for (const r of rangesFor(bundles, id, entry.agent)) {
        if (!satisfiesRange(entry.version, r.range)) reasons.push(`loadout ${id} is installed at ${entry.version} for ${entry.agent} (${describeRequesters(entry)}) and ${r.by} asks for ${r.range}`);
      }
    }
  }
  if (reasons.length > 0) throw new ConsumerError('BundleConflict', `${reasons.join('; ')}; nothing was written`, { hint: 'Move the installed loadout into the range first (`loadout install <id> --version V`), or uninstall it; nothing was written.' });
}

/** `bundles` with `bundle` in place of the one of its id (or added), sorted by id. */
export function replaceBundle(bundles: readonly LockedBundle[], bundle: LockedBundle): LockedBundle[] {
  return [...bundles.filter((b) => b.id !== bundle.id), bundle].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A `finishLock` for `run-plan.ts`: every entry's `requested_by` as in `before` (the plan makes a
 * new entry, without it, for each install it writes), then for the entries of `requests`
 * (id, agent) the requesters `add`ed and `remove`d; and the lock's `bundles` set to `bundles`
 * (left out when empty). An entry nobody asked for is the user's (`requestersOf`).
 */
export function finishBundleLock(before: LockFile, bundles: readonly LockedBundle[], requests: readonly BundleRequestChange[] = []): (lock: LockFile) => LockFile {
  return (lock) => {
    const installs = lock.installs.map((entry) => {
      const previous = before.installs.find((e) => e.id === entry.id && e.agent === entry.agent);
      const changes = requests.filter((r) => r.id === entry.id && r.agent === entry.agent);
      const removed = new Set(changes.flatMap((c) => c.remove ?? []));
      const next = [...(previous === undefined ? [] : requestersOf(previous)).filter((r) => !removed.has(r)), ...changes.flatMap((c) => c.add ?? [])];
      return withRequesters(entry, next.length === 0 ? [USER_REQUEST] : next);
    });
    const { bundles: _old, ...rest } = lock;
    return bundles.length === 0 ? { ...rest, installs } : { ...rest, installs, bundles: [...bundles] };
  };
}

/** A change of who asks for the install of loadout `id` for `agent`. */
export interface BundleRequestChange {
  id: string;
  agent: Agent;
  add?: readonly string[];
  remove?: readonly string[];
}

/** The lock's bundles (none in a lock written before bundles). */
export const bundlesOf = (lock: LockFile): LockedBundle[] => lock.bundles ?? [];

export { bundleRequest, USER_REQUEST };
