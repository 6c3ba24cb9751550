/**
 * What an install holds in the project, as a capability list (`tree-format/capabilities.ts`):
 * read from the installed bytes, as `capabilities.ts` `installedCapabilityKeys` reads them for
 * the lock, with the same readers of the layout and consent rule (`layout/capabilities.ts`
 * `describeServer`, `readHooks`; `capabilities/consent.ts`), so that `status` judges a policy on
 * what the agent will read now, hand edits included (issue 55, point 2: "status fails on
 * installed content that breaks the policy"). Every item is the install's agent's. Never throws:
 * what does not parse brings nothing. Pure apart from `read`.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { findAutoApprovals } from '../capabilities/consent.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { isScript, scriptInterpreter } from '../capabilities/scripts.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import { describeServer, readFrontMatterCapabilities } from '../layout/capabilities.js';
import type { HookCapability, McpServerCapability, PermissionCapability, ScriptCapability } from '../tree-format/capabilities.js';
import { readParts } from './compose/mcp-servers.js';
import type { LockEntry } from './project/lock.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The capability list of what `entry` holds, read through `read` (a target's bytes, undefined
 * when it is missing): its MCP servers (and their auto-approval keys) from the merged
 * configuration files, the hooks, tool grants and permission modes of its skills' and
 * subagents' front matter, and the whole files that are scripts. Network uses and variables of
 * scripts are not read (the policy judges neither).
 */
export function installedCapabilities(entry: LockEntry, read: (target: string) => Uint8Array | undefined): CapabilityLists {
  const agents: Agent[] = [entry.agent];
  const mcp_servers: McpServerCapability[] = [];
  const hooks: HookCapability[] = [];
  const permissions: PermissionCapability[] = [];
  const scripts: ScriptCapability[] = [];
  const decoder = new TextDecoder();
  for (const file of entry.files) {
    const bytes = read(file.target);
    if (bytes === undefined) continue;
    const text = decoder.decode(bytes);
    if (file.kind === 'servers') {
      const parts = readParts(text, file.target) ?? {};
      for (const name of Object.keys(file.servers)) {
        const server = parts[name];
        if (!isObject(server)) continue;
        mcp_servers.push({ ...describeServer(name, file.path, server), agents });
        for (const approval of findAutoApprovals(server)) permissions.push({ kind: 'auto-approval', file: file.path, subject: name, key: approval.key, value: [approval.value], agents, consent: approval.effect });
      }
      continue;
    }
    if (file.kind !== 'file') continue;
    if (isScript(file.target, text)) scripts.push({ path: file.path, interpreter: scriptInterpreter(file.path, text), referenced_by: [], agents });
    if (file.role !== 'skill' && file.role !== 'subagent') continue;
    const { data } = readFrontMatterForInstall(text);
    const found = readFrontMatterCapabilities(file.role, file.path, typeof data['name'] === 'string' ? data['name'] : file.path, data, agents);
    hooks.push(...found.hooks);
    permissions.push(...found.permissions);
  }
  return { mcp_servers, hooks, permissions, scripts, network: [], env: [] };
}

/**
 * The keys of what the install `entry` holds, read through `read` as {@link installedCapabilities}
 * reads it: one line per MCP server (transport, package or host, variables read), auto-approval
 * key, hook, tool grant, permission mode and script. Recorded in the lock at install time
 * (`project/lock.ts` `capabilities.installed`) and read again by `status`, which reports a key
 * the lock does not hold: a hand edit that adds a server, a hook or a grant. Sorted, without
 * duplicates. Never throws. Pure apart from `read`.
 */
export function installedCapabilityKeys(entry: LockEntry, read: (target: string) => Uint8Array | undefined): string[] {
  const lists = installedCapabilities(entry, read);
  const keys = new Set<string>();
  for (const server of lists.mcp_servers) {
    const what = server.transport === 'stdio' ? `${server.package?.registry ?? 'local'}:${server.package?.name ?? server.command ?? ''}@${server.package?.version ?? '*'}` : `host:${server.host ?? ''}`;
    keys.add(`mcp ${server.name} ${server.transport} ${what} env=${server.env.map((e) => e.name).join(',')}`);
  }
  for (const permission of lists.permissions) {
    if (permission.kind === 'auto-approval') keys.add(`approval ${permission.subject} ${permission.key}=${permission.value.join(',')}`);
    else if (permission.kind === 'permission-mode') keys.add(`mode ${permission.file} ${permission.value.join(',')}`);
    else for (const grant of permission.value) keys.add(`grant ${permission.file} ${permission.key} ${grant}`);
  }
  for (const hook of lists.hooks) keys.add(`hook ${hook.file} ${hook.event} ${hook.matcher ?? '*'} ${hook.command}`);
  for (const script of lists.scripts) keys.add(`script ${script.path}`);
  return [...keys].sort();
}
