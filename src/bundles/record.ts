/**
 * A bundle's published record, `api/bundles/<id>.json` (issue 56, point 2; shapes in
 * `tree-format/bundle.ts`), and its line of `api/bundles.json`, made from its manifest, its
 * history and what the catalogue publishes of its members: each member resolved to the newest
 * published version its range allows (`catalogue/version-ranges.ts`, the rule the installer
 * also applies), with that version's context cost and capability list; the bundle's context
 * cost is the members' added up per agent and its capability list their union
 * (capabilities.ts). Pure.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { chooseVersion, satisfiesRange } from '../catalogue/version-ranges.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { pageUrl, recordUrl, versionsUrl } from '../tree-format/addresses.js';
import { bundlePageUrl, bundleRecordUrl, type BundleListEntry, type BundleMember, type BundleMemberRange, type BundleRecord, type BundleVersion } from '../tree-format/bundle.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { ContextCost } from '../tree-format/record.js';
import { combineCapabilities } from './capabilities.js';
import type { BundleManifest, BundleMemberEntry } from './manifest.js';

/** What the catalogue publishes of one member loadout. */
export interface MemberFacts {
  /** Its published versions, oldest first. */
  versions: readonly string[];
  /** Its latest version. */
  latest: string;
  title: string;
  summary: string;
  /** The context cost and capability list of one of its published versions; undefined when not published. */
  at(version: string): { context: Record<Agent, ContextCost>; capabilities: Capabilities } | undefined;
}

/** What {@link composeBundleRecord} makes a record of. */
export interface BundleRecordInput {
  /** `{base_url}`. */
  base: string;
  manifest: BundleManifest;
  /** Its history (tree/history/bundle-history.ts): older versions, dates, the last commit. */
  history: { versions: readonly BundleVersion[]; published: string | undefined; updated: string | undefined; lastCommit: string | undefined; currentSince: string | undefined };
  /** The facts of a member loadout, or undefined for an id that is none. */
  member(id: string): MemberFacts | undefined;
}

/** The members of a manifest as a version lists them (`agents` null when absent). Pure. */
export function membersOf(loadouts: readonly BundleMemberEntry[]): BundleMemberRange[] {
  return loadouts.map((m) => ({ id: m.id, range: m.range, agents: m.agents === undefined ? null : [...m.agents] }));
}

/**
 * The record of the bundle (its `plugin` null: the build sets it once the plugin is written).
 * @throws LoadoutError `internal` for a member that is no loadout or whose range allows none of
 *   its published versions: the bundle's checks (check.ts) refuse such a bundle first.
 */
export function composeBundleRecord(input: BundleRecordInput): BundleRecord {
  const { base, manifest, history } = input;
  const loadouts = manifest.loadouts.map((entry) => resolveMember(base, manifest.id, entry, input.member(entry.id)));
  const parts = loadouts.map((m) => ({ id: m.id, agents: m.agents, capabilities: capabilityListsOf(input, m) }));
  const current: BundleVersion = { version: manifest.version, date: history.currentSince ?? null, commit: history.lastCommit ?? null, latest: true, loadouts: membersOf(manifest.loadouts) };
  return {
    id: manifest.id,
    type: 'bundle',
    title: manifest.title,
    summary: manifest.summary,
    description: manifest.description,
    version: manifest.version,
    license: manifest.license,
    author: { ...manifest.author },
    published: history.published ?? null,
    updated: history.updated ?? null,
    url: bundlePageUrl(base, manifest.id),
    api_url: bundleRecordUrl(base, manifest.id),
    loadouts,
    context: sumContext(loadouts),
    capabilities: combineCapabilities(parts),
    plugin: null,
    versions: [...history.versions.filter((v) => v.version !== manifest.version), current],
  };
}

/** The line of `api/bundles.json` of `record`. Pure. */
export function bundleListEntryOf(record: BundleRecord): BundleListEntry {
  return {
    id: record.id,
    title: record.title,
    summary: record.summary,
    description: record.description,
    version: record.version,
    license: record.license,
    author: record.author.url === undefined ? { name: record.author.name } : { name: record.author.name, url: record.author.url },
    updated: record.updated,
    url: record.url,
    api_url: record.api_url,
    loadouts: record.loadouts.map((m) => ({ id: m.id, range: m.range, agents: m.agents, resolved: m.resolved, title: m.title })),
  };
}

function resolveMember(base: string, bundle: string, entry: BundleMemberEntry, facts: MemberFacts | undefined): BundleMember {
  const resolved = facts === undefined ? undefined : chooseVersion(facts.versions, entry.range);
  const at = resolved === undefined ? undefined : facts?.at(resolved);
  if (facts === undefined || resolved === undefined || at === undefined) {
    throw new LoadoutError('internal', `bundle ${bundle}: loadout ${entry.id} has no published version in ${JSON.stringify(entry.range)} (the bundle's checks should have refused it)`);
  }
  const agents = entry.agents === undefined ? null : [...entry.agents];
  const forAgent = (agent: Agent): boolean => agents === null || agents.includes(agent);
  return {
    id: entry.id,
    range: entry.range,
    agents,
    resolved,
    latest: facts.latest,
    satisfying: facts.versions.filter((v) => satisfiesRange(v, entry.range)),
    title: facts.title,
    summary: facts.summary,
    url: pageUrl(base, entry.id),
    api_url: recordUrl(base, entry.id),
    versions_url: versionsUrl(base, entry.id),
    context: Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, forAgent(a) ? at.context[a] : zeroCost()])) as Record<Agent, ContextCost>,
    capabilities: { runs: at.capabilities.runs, digest: at.capabilities.digest },
  };
}

/** The resolved version's six lists of member `m`. */
function capabilityListsOf(input: BundleRecordInput, m: BundleMember): CapabilityLists {
  const c = input.member(m.id)?.at(m.resolved)?.capabilities as Capabilities;
  return { mcp_servers: c.mcp_servers, hooks: c.hooks, permissions: c.permissions, scripts: c.scripts, network: c.network, env: c.env };
}

const zeroCost = (): ContextCost => ({ always: { bytes: 0, tokens: 0 }, on_demand: { bytes: 0, tokens: 0 } });

/** The members' context costs added up per agent (each member's is zero for agents it is not for). */
function sumContext(members: readonly BundleMember[]): Record<Agent, ContextCost> {
  const total = Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, zeroCost()])) as Record<Agent, ContextCost>;
  for (const m of members) {
    for (const a of PUBLISHED_AGENTS) {
      const t = total[a];
      const c = m.context[a];
      t.always.bytes += c.always.bytes;
      t.always.tokens += c.always.tokens;
      t.on_demand.bytes += c.on_demand.bytes;
      t.on_demand.tokens += c.on_demand.tokens;
    }
  }
  return total;
}
