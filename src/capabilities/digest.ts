/**
 * The digest, `runs` and per-agent parts of a capability list (issue 54, point 1: "sorted and
 * stable, with a digest"). The digest is the hex sha256 of the canonical JSON
 * (`catalogue/canonical-json.ts`) of the six lists, so two lists with the same items have the
 * same digest whatever the order their files were read in. Pure.
 */
import { canonicalJson } from '../catalogue/canonical-json.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { sha256 } from '../tree-format/digest.js';
import type { AgentCapabilities, Capabilities } from '../tree-format/capabilities.js';

/** The six lists of a capability list. */
export type CapabilityLists = Pick<Capabilities, 'mcp_servers' | 'hooks' | 'permissions' | 'scripts' | 'network' | 'env'>;

/** `nothing` when the lists start no server, bring no hook or script and grant nothing (a subagent's `tools` grants nothing). */
export function runsOf(lists: CapabilityLists): 'nothing' | 'something' {
  const grants = lists.permissions.some((p) => p.kind !== 'tools');
  return lists.mcp_servers.length > 0 || lists.hooks.length > 0 || lists.scripts.length > 0 || grants ? 'something' : 'nothing';
}

/** The hex sha256 of the lists' canonical JSON. */
export function digestOf(lists: CapabilityLists): string {
  return sha256(canonicalJson({ mcp_servers: lists.mcp_servers, hooks: lists.hooks, permissions: lists.permissions, scripts: lists.scripts, network: lists.network, env: lists.env }));
}

/**
 * The part of `lists` the installs of `agents` bring: the items any of them carries, and the
 * variables those items read. Items keep all their agents. Pure.
 */
export function listsFor(lists: CapabilityLists, agents: readonly Agent[]): CapabilityLists {
  const carried = <T extends { agents: Agent[] }>(items: readonly T[]): T[] => items.filter((item) => item.agents.some((a) => agents.includes(a)));
  const mcp_servers = carried(lists.mcp_servers);
  const scripts = carried(lists.scripts);
  const readers = new Set([...mcp_servers.map((s) => `mcp:${s.name}`), ...scripts.map((s) => s.path)]);
  const env = lists.env.filter((e) => e.used_by.some((by) => readers.has(by)));
  return { mcp_servers, hooks: carried(lists.hooks), permissions: carried(lists.permissions), scripts, network: carried(lists.network), env };
}

/** The whole capability list of `lists` (sorted by the caller): `runs`, digest and every agent's part. */
export function finishCapabilities(lists: CapabilityLists): Capabilities {
  const agents = Object.fromEntries(
    PUBLISHED_AGENTS.map((agent): [Agent, AgentCapabilities] => {
      const part = listsFor(lists, [agent]);
      return [agent, { runs: runsOf(part), digest: digestOf(part) }];
    }),
  ) as Record<Agent, AgentCapabilities>;
  return { runs: runsOf(lists), digest: digestOf(lists), ...lists, agents };
}

const byKey = <T>(key: (item: T) => string) => (a: T, b: T): number => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * The six lists sorted by their items' keys (the module comment: the same content gives the same
 * bytes whatever the order of its files), each variable's readers sorted too. Sorts in place and
 * returns the lists; a bundle's union of its members' lists (`bundles/capabilities.ts`) is sorted
 * so as well.
 */
export function sortCapabilityLists(lists: CapabilityLists): CapabilityLists {
  return {
    mcp_servers: lists.mcp_servers.sort(byKey((s) => `${s.name}\n${s.file}`)),
    hooks: lists.hooks.sort(byKey((h) => `${h.file}\n${h.event}\n${h.matcher ?? ''}\n${h.type}\n${h.command}`)),
    permissions: lists.permissions.sort(byKey((p) => `${p.file}\n${p.subject}\n${p.key}`)),
    scripts: lists.scripts.sort(byKey((s) => s.path)),
    network: lists.network.sort(byKey((n) => `${n.host ?? ''}\n${n.what}`)),
    env: lists.env.map((e) => ({ ...e, used_by: e.used_by.sort() })).sort(byKey((e) => e.name)),
  };
}
