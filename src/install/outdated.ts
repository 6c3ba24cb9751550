/**
 * `loadout outdated` (DESIGN.md section 8): for each install in the lock, the installed version,
 * the latest version its catalogue publishes, and whether any installed file was changed
 * locally (or is missing). Each catalogue's `versions.json` is read once per loadout, through
 * the same checked reader as install (`catalogue-reader.ts`). Reads only.
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent } from '../catalogue/vocabulary.js';
import type { VersionsDocument } from '../tree-format/index.js';
import { catalogueOpener } from './run-catalogues.js';
import { readLock } from './project/lock.js';
import { isSigningRefusal, type SigningPolicy } from './catalogue/signed-catalogue.js';
import { openScope, type InstallScope } from './project/scope.js';
import { readEntryStatus } from './status.js';
import { compareVersions } from './changelog.js';
import { compareCapabilities, type CapabilityChange } from '../capabilities/compare.js';
import { listsFor } from '../capabilities/digest.js';
import type { PolicyInForce, PolicyViolation } from '../policy/policy.js';
import { defaultVersion, signedBy, violationsOf, type HeldVersion } from './policy-gate.js';
import { lockSource } from './install.js';
import { bundlesOf, rangesFor, readCatalogueBundle, withinRanges } from './bundles.js';
import type { Agent as AgentId } from '../catalogue/vocabulary.js';

/** An installed bundle and the catalogue's version of it (issue 56): `update <bundle>` moves it there, its members within the new ranges. */
export interface OutdatedBundleRow {
  id: string;
  installed: string;
  /** The catalogue's version; null when it could not be read (see `error`). */
  latest: string | null;
  outdated: boolean;
  agents: AgentId[];
  source: string;
  error?: string;
}

/**
 * The installed bundles of the lock and the versions their catalogues publish now. A catalogue
 * that cannot be read is reported on its row; one whose signing is refused stops the listing.
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable), `io`
 */
export async function listOutdatedBundles(options: OutdatedOptions): Promise<OutdatedBundleRow[]> {
  const { scope } = options;
  const project = await openScope(scope);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const catalogueOf = catalogueOpener(lock, options.signing);
  const rows: OutdatedBundleRow[] = [];
  for (const b of bundlesOf(lock)) {
    const source = options.from ?? b.source;
    const row = { id: b.id, installed: b.version, agents: b.agents, source };
    try {
      const record = await readCatalogueBundle(catalogueOf(source), b.id);
      rows.push({ ...row, latest: record.version, outdated: compareVersions(record.version, b.version) > 0 });
    } catch (error) {
      if (!(error instanceof LoadoutError) || isSigningRefusal(error)) throw error;
      rows.push({ ...row, latest: null, outdated: false, error: error.message });
    }
  }
  return rows;
}

/** One install and how it stands. */
export interface OutdatedRow {
  id: string;
  agent: Agent;
  installed: string;
  /** The catalogue's latest version; null when the catalogue could not be read (see `error`). */
  latest: string | null;
  /** The version `update` moves to (npm outdated's "wanted"): `latest`, or under the policy's `min_release_age` the newest version old enough; `installed` when there is none newer; null when the catalogue could not be read. */
  wanted: string | null;
  /** The installed bundles that have this loadout for this agent (issue 56; absent when none has): `wanted` is then the newest version all their ranges allow. */
  bundles?: { id: string; range: string }[];
  /** True when `wanted` is newer than `installed`. */
  outdated: boolean;
  /** The latest version when the policy's `min_release_age` holds it back, and when it becomes eligible (ISO 8601 UTC, or `never` for a version without a date). */
  held: HeldVersion | null;
  /** What the policy refuses of this install and of its update to `wanted` (`policy/evaluate.ts`): its catalogue, loadout, agent, signing, and what `wanted` can run as its catalogue publishes it. `update` refuses these; the command exits 1. */
  policy: PolicyViolation[];
  /** Targets changed locally or missing since the install. */
  changed: string[];
  source: string;
  /**
   * What moving to `latest` changes in what the loadout can run for this agent, from the
   * capability lists the catalogue publishes for both versions (`capabilities/compare.ts`); null
   * when it is current, or when the catalogue publishes no list for one of them.
   */
  capabilities: CapabilityChange | null;
  /** True when that change adds to or widens what it can run: `update` will ask first. */
  adds_capabilities: boolean;
  /** Why the catalogue could not be read. */
  error?: string;
}

/** The change between the published capability lists of `from` and `to` for `agent`, or null when one has none. */
function publishedChange(doc: VersionsDocument, from: string, to: string, agent: Agent): CapabilityChange | null {
  const before = doc.versions.find((v) => v.version === from)?.capabilities;
  const after = doc.versions.find((v) => v.version === to)?.capabilities;
  if (before === undefined || after === undefined) return null;
  return compareCapabilities(listsFor(before, [agent]), listsFor(after, [agent]));
}

/** Options of {@link listOutdated}. */
export interface OutdatedOptions {
  scope: InstallScope;
  /** Read every catalogue from here instead of each lock entry's source. */
  from?: string;
  /** How signatures are treated (`--require-signed`, `--trust-key`; catalogue/signed-catalogue.ts). */
  signing?: SigningPolicy;
  /** The policy `update` would hold to: updates held back by its age are listed in `held`, what it refuses in `policy` (issue 55, point 2). */
  policy?: PolicyInForce;
}

/** The published capability list of `version` for `agent`, or undefined when the catalogue publishes none. */
function publishedLists(doc: VersionsDocument, version: string, agent: Agent): ReturnType<typeof listsFor> | undefined {
  const capabilities = doc.versions.find((v) => v.version === version)?.capabilities;
  return capabilities === undefined ? undefined : listsFor(capabilities, [agent]);
}

/**
 * Lists every install of the lock. A catalogue that cannot be read is reported on its rows
 * (`error`), not thrown, so one unreachable catalogue does not hide the others; one whose
 * signing is refused (catalogue/signed-catalogue.ts) stops the listing.
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable), `io` (the project)
 */
export async function listOutdated(options: OutdatedOptions): Promise<OutdatedRow[]> {
  const { scope } = options;
  const project = await openScope(scope);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const documents = new Map<string, Promise<VersionsDocument>>();
  // One reader per catalogue for the whole run: one signed snapshot per catalogue (run-catalogues.ts).
  const catalogueOf = catalogueOpener(lock, options.signing);
  const rows: OutdatedRow[] = [];
  for (const entry of lock.installs) {
    const source = options.from ?? entry.source;
    const key = `${source}\n${entry.id}`;
    let doc = documents.get(key);
    if (doc === undefined) {
      doc = Promise.resolve().then(() => catalogueOf(source).readVersions(entry.id));
      // Handled below, per row; a rejection must not go unhandled while other rows are read.
      doc.catch(() => undefined);
      documents.set(key, doc);
    }
    const changed = (await readEntryStatus(project, entry)).filter((f) => f.state !== 'ok').map((f) => f.target);
    const ranges = rangesFor(bundlesOf(lock), entry.id, entry.agent);
    const row = { id: entry.id, agent: entry.agent, installed: entry.version, changed, source, ...(ranges.length === 0 ? {} : { bundles: ranges.map((r) => ({ id: r.by.split(' ')[1] ?? r.by, range: r.range })) }) };
    try {
      // A bundle's member moves within its bundles' ranges (bundles.ts); `latest` stays the catalogue's.
      const all = await doc;
      const versions = { ...withinRanges(all, ranges), latest: all.latest };
      const inRange = withinRanges(all, ranges);
      const latest = versions.latest;
      // Under the policy's min_release_age, update moves to the newest version old enough (policy-gate.ts).
      const target = defaultVersion(options.policy, inRange);
      const outdated = target.version !== undefined && compareVersions(target.version, entry.version) > 0;
      const wanted = outdated ? (target.version ?? latest) : entry.version;
      const capabilities = outdated ? publishedChange(versions, entry.version, wanted, entry.agent) : null;
      const signing = options.policy === undefined ? undefined : signedBy(await catalogueOf(source).signing());
      const lists = outdated ? publishedLists(versions, wanted, entry.agent) : undefined;
      const policy = violationsOf(options.policy, { loadout: entry.id, agent: entry.agent, catalogue: lockSource(source), ...(signing === undefined ? {} : { signing }), ...(lists === undefined ? {} : { capabilities: lists }) });
      rows.push({ ...row, latest, wanted, outdated, held: target.held ?? null, policy, capabilities, adds_capabilities: capabilities?.widens === true });
    } catch (error) {
      // A catalogue that fails its signature stops the command: its versions are not to be believed.
      if (!(error instanceof LoadoutError) || isSigningRefusal(error)) throw error;
      rows.push({ ...row, latest: null, wanted: null, outdated: false, held: null, policy: [], capabilities: null, adds_capabilities: false, error: error.message });
    }
  }
  return rows;
}
