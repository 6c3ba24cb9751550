/**
 * A bundle's combined capability list (issue 56, point 2: "the combined … capability list"):
 * the union of its members' lists at their resolved versions, each as its member brings it.
 * An item's files are named below the member's id (`nextjs-app-router/skills/x/SKILL.md`), so
 * that two members' files never merge and every line the pages print says whose it is; a member
 * that is only for some agents brings only the items of those agents. The result has the shape
 * of one version's list (`tree-format/capabilities.ts`): sorted as derive.ts sorts, with its
 * digest and each agent's part (capabilities/digest.ts), so the one consent rule reads it as it
 * reads a loadout's.
 */
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { finishCapabilities, sortCapabilityLists, type CapabilityLists } from '../capabilities/digest.js';
import type { Capabilities, EnvCapability, NetworkCapability } from '../tree-format/capabilities.js';

/** One member's part: its id, the agents it is for (null: every agent) and its list. */
export interface MemberCapabilities {
  id: string;
  agents: readonly Agent[] | null;
  capabilities: CapabilityLists;
}

/** The union of `members`' lists (see the module comment). Pure. */
export function combineCapabilities(members: readonly MemberCapabilities[]): Capabilities {
  const lists: CapabilityLists = { mcp_servers: [], hooks: [], permissions: [], scripts: [], network: [], env: [] };
  const network = new Map<string, NetworkCapability>();
  const env = new Map<string, EnvCapability>();
  for (const { id, agents, capabilities: c } of members) {
    const under = (path: string): string => `${id}/${path}`;
    const own = (list: readonly Agent[]): Agent[] => (agents === null ? [...list] : list.filter((a) => agents.includes(a)));
    const kept = <T extends { agents: Agent[] }>(items: readonly T[], move: (item: T) => T): T[] => items.flatMap((item) => (own(item.agents).length === 0 ? [] : [{ ...move(item), agents: own(item.agents) }]));
    const servers = kept(c.mcp_servers, (s) => ({ ...s, file: under(s.file) }));
    const scripts = kept(c.scripts, (s) => ({ ...s, path: under(s.path), referenced_by: s.referenced_by.map(under) }));
    lists.mcp_servers.push(...servers);
    lists.hooks.push(...kept(c.hooks, (h) => ({ ...h, file: under(h.file) })));
    lists.permissions.push(...kept(c.permissions, (p) => ({ ...p, file: under(p.file) })));
    lists.scripts.push(...scripts);
    // One host reached for one reason is one item, whichever members name it.
    for (const n of kept(c.network, (n) => ({ ...n, files: n.files.map(under) }))) {
      const key = `${n.host ?? ''}\n${n.what}`;
      const seen = network.get(key);
      if (seen === undefined) network.set(key, n);
      else network.set(key, { ...seen, files: [...new Set([...seen.files, ...n.files])].sort(), agents: union(seen.agents, n.agents) });
    }
    // A variable is read by the servers and files of the members that are kept.
    // A server's or a script's reading goes with it; any other file's stays (its agents are not known here).
    const dropped = new Set([...c.mcp_servers.map((s) => `mcp:${s.name}`), ...c.scripts.map((s) => under(s.path))]);
    for (const k of [...servers.map((s) => `mcp:${s.name}`), ...scripts.map((s) => s.path)]) dropped.delete(k);
    for (const e of c.env) {
      const usedBy = e.used_by.map((by) => (by.startsWith('mcp:') ? by : under(by))).filter((by) => !dropped.has(by));
      if (usedBy.length === 0) continue;
      const seen = env.get(e.name);
      env.set(e.name, seen === undefined ? { ...e, used_by: usedBy } : { ...seen, secret: seen.secret || e.secret, used_by: [...new Set([...seen.used_by, ...usedBy])] });
    }
  }
  lists.network.push(...network.values());
  lists.env.push(...env.values());
  return finishCapabilities(sortCapabilityLists(lists));
}

/** The agents of `a` or `b`, in the vocabulary's order. */
function union(a: readonly Agent[], b: readonly Agent[]): Agent[] {
  return PUBLISHED_AGENTS.filter((agent) => a.includes(agent) || b.includes(agent));
}
