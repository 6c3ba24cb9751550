/**
 * The capability list in words (issue 54, points 2 and 4): one line per item, grouped by list,
 * as `install`, `verify`, the plugin README, the pull-request bot and the pages show it, so
 * that every place says the same thing the same way. Lines are plain text; a caller that
 * prints them to a terminal makes control characters visible (`cli/terminal-text.ts`), a page
 * escapes them. Pure.
 */
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import type { CapabilityList, EnvCapability, HookCapability, McpPackage, McpServerCapability, NetworkCapability, PermissionCapability, ScriptCapability } from '../tree-format/capabilities.js';
import { agentNames } from './consent.js';
import { listsFor, runsOf, type CapabilityLists } from './digest.js';

/** The heading of each list. */
export const LIST_TITLES: Record<CapabilityList, string> = {
  mcp_servers: 'MCP servers it starts or connects to',
  hooks: 'Hooks the agent runs on its events',
  permissions: 'Tools and approvals it grants',
  scripts: 'Scripts it brings',
  network: 'Hosts its instructions reach',
  env: 'Environment variables it reads',
};

const REGISTRY_NAMES: Record<McpPackage['registry'], string> = { npm: 'npm', pypi: 'PyPI', oci: 'an OCI registry', local: 'your machine' };

/** `postgres-mcp from PyPI, version not pinned` */
export function describePackage(pkg: McpPackage): string {
  if (pkg.registry === 'local') return `${pkg.name} (a program on your machine)`;
  const version = pkg.version === null ? 'version not pinned: the newest at each start' : pkg.pinned ? `pinned at ${pkg.version}` : `${pkg.version}, not pinned exactly`;
  return `${pkg.name} from ${REGISTRY_NAMES[pkg.registry]} through ${pkg.launcher ?? 'its command'}, ${version}`;
}

/** `POSTGRES_URL (secret), TEAM` */
function variables(env: readonly { name: string; secret: boolean }[]): string {
  return env.map((v) => (v.secret ? `${v.name} (secret)` : v.name)).join(', ');
}

/** One server: `postgres: runs postgres-mcp from PyPI through uvx, version not pinned; reads POSTGRES_URL (secret)`. */
export function describeServerLine(server: Omit<McpServerCapability, 'agents' | 'file'>): string {
  const what = server.transport === 'stdio' ? `runs ${server.package === undefined ? (server.command ?? '') : describePackage(server.package)}` : `connects to ${server.host ?? server.url ?? ''} (${server.transport})`;
  return `"${server.name}": ${what}${server.env.length === 0 ? '' : `; reads ${variables(server.env)}`}`;
}

function hookLine(hook: HookCapability): string {
  return `${hook.event}${hook.matcher === null ? '' : ` (${hook.matcher})`} in ${hook.file}: ${hook.type === 'command' ? 'runs' : `${hook.type}:`} ${JSON.stringify(hook.command)}`;
}

function permissionLine(p: PermissionCapability): string {
  const value = p.value.join(', ');
  switch (p.kind) {
    case 'tool-grant':
      return `skill "${p.subject}" lets the agent use ${value} without asking`;
    case 'tools':
      return `subagent "${p.subject}" may use ${value} (the agent still asks as its permission mode says)`;
    case 'permission-mode':
      return `subagent "${p.subject}" runs in permission mode ${value}`;
    case 'auto-approval':
      return `MCP server "${p.subject}" asks for ${p.key}: ${value}`;
  }
}

function scriptLine(s: ScriptCapability): string {
  const runner = s.interpreter === null ? '' : ` (${s.interpreter})`;
  return `${s.path}${runner}${s.referenced_by.length === 0 ? '' : `, named in ${s.referenced_by.join(', ')}`}`;
}

function networkLine(n: NetworkCapability): string {
  return `${n.host ?? 'a host it names at run time'}: ${n.what} (${n.files.join(', ')})`;
}

function envLine(e: EnvCapability): string {
  return `${e.name}${e.secret ? ' (secret)' : ''}, read by ${e.used_by.map((by) => (by.startsWith('mcp:') ? `MCP server "${by.slice(4)}"` : by)).join(', ')}`;
}

/** The agents an item is for, when that is fewer than `all`: ` [Claude Code, Cursor]`. */
function forAgents(item: { agents: Agent[] }, all: readonly Agent[]): string {
  const own = item.agents.filter((a) => all.includes(a));
  return own.length === all.length ? '' : ` [${agentNames(own)}]`;
}

/** One section of {@link describeCapabilities}: a list's title and its lines; `consent` marks lines that need the user's yes. */
export interface CapabilitySection {
  list: CapabilityList;
  title: string;
  lines: { text: string; consent: string | null }[];
}

/**
 * The lists of `capabilities` that the installs of `agents` (default every agent) bring, as
 * sections of lines; empty lists are left out. An item carried by only some of `agents` says
 * which. Pure.
 */
export function describeCapabilities(capabilities: CapabilityLists, agents?: readonly Agent[]): CapabilitySection[] {
  const all = agents ?? PUBLISHED_AGENTS;
  const lists = agents === undefined ? capabilities : listsFor(capabilities, agents);
  const sections: CapabilitySection[] = [
    { list: 'mcp_servers', title: LIST_TITLES.mcp_servers, lines: lists.mcp_servers.map((s) => ({ text: `${describeServerLine(s)}${forAgents(s, all)}`, consent: null })) },
    { list: 'hooks', title: LIST_TITLES.hooks, lines: lists.hooks.map((h) => ({ text: `${hookLine(h)}${forAgents(h, all)}`, consent: h.consent })) },
    { list: 'permissions', title: LIST_TITLES.permissions, lines: lists.permissions.map((p) => ({ text: `${permissionLine(p)}${forAgents(p, all)}`, consent: p.consent })) },
    { list: 'scripts', title: LIST_TITLES.scripts, lines: lists.scripts.map((s) => ({ text: `${scriptLine(s)}${forAgents(s, all)}`, consent: null })) },
    { list: 'network', title: LIST_TITLES.network, lines: lists.network.map((n) => ({ text: `${networkLine(n)}${forAgents(n, all)}`, consent: null })) },
    { list: 'env', title: LIST_TITLES.env, lines: lists.env.map((e) => ({ text: envLine(e), consent: null })) },
  ];
  return sections.filter((s) => s.lines.length > 0);
}

/** The one-line summary: `runs nothing (no MCP server, hook, script or grant)` or `runs 1 MCP server; reads 1 secret`. */
export function summarizeCapabilities(capabilities: CapabilityLists, agents?: readonly Agent[]): string {
  const lists = agents === undefined ? capabilities : listsFor(capabilities, agents);
  const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
  const parts: string[] = [];
  if (lists.mcp_servers.length > 0) parts.push(`starts or connects to ${count(lists.mcp_servers.length, 'MCP server')}`);
  if (lists.hooks.length > 0) parts.push(`brings ${count(lists.hooks.length, 'hook')}`);
  if (lists.scripts.length > 0) parts.push(`brings ${count(lists.scripts.length, 'script')}`);
  const grants = lists.permissions.filter((p) => p.kind !== 'tools');
  if (grants.length > 0) parts.push(`grants ${count(grants.length, 'permission')}`);
  const secrets = lists.env.filter((e) => e.secret).length;
  if (secrets > 0) parts.push(`reads ${count(secrets, 'secret')}`);
  const runs = runsOf(lists) === 'nothing' ? 'runs nothing (no MCP server, hook, script or grant)' : parts.join(', ');
  return lists.network.length === 0 ? runs : `${runs}; its instructions reach ${count(lists.network.length, 'host')}`;
}
