/**
 * The capability list of one version of a loadout, derived from what its files say (issue 54,
 * point 1; DESIGN.md "Capabilities"): never from the manifest's claims (`security.network`,
 * `security.scripts`, `requires`), which the checks compare with the content instead.
 *
 * - `mcp_servers`: each server of each role-`mcp` file: transport, command and package
 *   (`launchers.ts`) or host, and the variables it reads; carried by the agents whose layout
 *   writes it (`layout/mcp-formats.ts` leaves some out for Codex and Antigravity).
 * - `hooks`: `hooks` of a skill's or subagent's front matter (Claude Code's format).
 * - `permissions`: a skill's `allowed-tools`, a subagent's `tools` and `permissionMode`, and the
 *   auto-approval keys of MCP servers as each agent's file carries them; `consent.ts` says which
 *   need the user's yes.
 * - `scripts`: the loadout's programs (`scripts.ts`) and the files that name them.
 * - `network`: the hosts the `safety` check's network scan found (given by the caller: the scan
 *   belongs to the checks, which the consumer CLI does not carry).
 * - `env`: the variables the servers and scripts read, secrets marked by their names.
 *
 * An item's `agents` are those whose install carries its file (`layout/layout.ts`); a subagent's
 * front matter is not carried to Codex (written as TOML with three keys, `layout/codex-agent.ts`).
 * Pure; never throws for bad content (a file that does not parse brings nothing).
 */
import type { FileEntry } from '../catalogue/manifest.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import { resolveInstallTarget } from './layout.js';
import { convertMcpServers, readMcpServers, type McpServerConfig } from './mcp-formats.js';
import { isSecretVariable } from './mcp-variables.js';
import type { Capabilities, EnvCapability, HookCapability, McpServerCapability, NetworkCapability, PermissionCapability, ScriptCapability } from '../tree-format/capabilities.js';
import { findAutoApprovals, hookConsent, permissionModeConsent, splitToolGrants, toolGrantConsent } from '../capabilities/consent.js';
import { describeLaunch } from '../capabilities/launchers.js';
import { isScript, namesScript, scriptEnvReads, scriptInterpreter } from '../capabilities/scripts.js';
import { finishCapabilities, sortCapabilityLists } from '../capabilities/digest.js';

/** One network use the `safety` check's scan found (`verify/safety/network.ts` `listNetworkUses`). */
export interface NetworkUse {
  file: string;
  host: string | null;
  what: string;
}

/** What {@link deriveCapabilities} reads. */
export interface CapabilityInput {
  /** The version's file entries (the manifest's `files`, or a versions document's). */
  files: readonly FileEntry[];
  /** A file's text, or undefined when it is missing or not UTF-8. */
  text(path: string): string | undefined;
  /** The network uses found in the files; omitted: `network` is empty. */
  network?: readonly NetworkUse[];
  /** Where a file goes for an agent; default the project layout (`layout/layout.ts`). */
  resolve?: typeof resolveInstallTarget;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `${NAME}`, `${NAME:-x}`, `${env:NAME}`, `${input:NAME}`, `$NAME`: the variables a string reads. */
const VARIABLE = /\$\{(?:env:|input:)?([A-Za-z_]\w{0,127})(?::-[^}]{0,200})?\}|\$([A-Za-z_]\w{0,127})/gu;

/** The variable names `value` refers to, in any agent's syntax. */
export function variablesIn(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((m) => m[1] ?? m[2] ?? '').filter((n) => n !== '');
}

/** The strings of a server entry that may hold variables: command, args, url, env values, header values. */
function serverStrings(server: Record<string, unknown>): string[] {
  const strings: string[] = [];
  for (const key of ['command', 'url', 'serverUrl', 'cwd']) if (typeof server[key] === 'string') strings.push(server[key] as string);
  if (Array.isArray(server['args'])) for (const a of server['args']) if (typeof a === 'string') strings.push(a);
  for (const key of ['env', 'headers', 'http_headers']) if (isObject(server[key])) for (const v of Object.values(server[key] as object)) if (typeof v === 'string') strings.push(v);
  return strings;
}

/** The variables of the user's environment that a server entry reads: references in its strings, and Codex's pass-through keys. */
export function serverVariables(server: Record<string, unknown>): string[] {
  const names = new Set(serverStrings(server).flatMap(variablesIn));
  if (Array.isArray(server['env_vars'])) for (const n of server['env_vars']) if (typeof n === 'string') names.add(n);
  for (const key of ['bearer_token_env_var']) if (typeof server[key] === 'string') names.add(server[key] as string);
  if (isObject(server['env_http_headers'])) for (const n of Object.values(server['env_http_headers'])) if (typeof n === 'string') names.add(n);
  return [...names].sort();
}

/** The host of a remote server's address (lower case, with its port), or the variable it is given by. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    const variable = variablesIn(url)[0];
    return variable === undefined ? url.replace(/^[a-z][a-z0-9+.-]*:\/\//iu, '').split(/[/?#]/u)[0]?.toLowerCase() ?? url : `$${variable}`;
  }
}

/** One server's capability (without `agents`) from its entry as written or as an agent's file holds it. */
export function describeServer(name: string, file: string, server: Record<string, unknown>): Omit<McpServerCapability, 'agents'> {
  const env = serverVariables(server).map((n) => ({ name: n, secret: isSecretVariable(n) }));
  const url = typeof server['url'] === 'string' ? server['url'] : typeof server['serverUrl'] === 'string' ? server['serverUrl'] : undefined;
  if (url !== undefined) {
    const type = server['type'];
    const transport = type === 'sse' ? 'sse' : type === 'http' ? 'http' : 'streamable-http';
    return { name, file, transport, url, host: hostOf(url), env };
  }
  const command = typeof server['command'] === 'string' ? server['command'] : '';
  const args = Array.isArray(server['args']) ? server['args'].filter((a): a is string => typeof a === 'string') : [];
  return { name, file, transport: 'stdio', command, args, package: describeLaunch(command, args), env };
}

/** The agents whose install carries `entry`: its target for the agent is a file, or it is composed into one. */
function carriers(entry: FileEntry, resolve: typeof resolveInstallTarget): Agent[] {
  return PUBLISHED_AGENTS.filter((agent) => {
    const target = resolve(entry, agent);
    return target.target !== null || target.composed !== undefined;
  });
}

/** Skill and subagent front matter: hooks and permissions. */
function frontMatterCapabilities(entry: FileEntry, text: string, agents: readonly Agent[]): { hooks: HookCapability[]; permissions: PermissionCapability[] } {
  if (entry.role !== 'skill' && entry.role !== 'subagent') return { hooks: [], permissions: [] };
  const { data } = readFrontMatterForInstall(text);
  // Codex's subagent is TOML with name, description and instructions only (layout/codex-agent.ts): its front matter is not carried.
  const carried = entry.role === 'subagent' ? agents.filter((a) => a !== 'codex') : [...agents];
  if (carried.length === 0) return { hooks: [], permissions: [] };
  const subject = entry.role === 'skill' ? (entry.skill ?? (typeof data['name'] === 'string' ? data['name'] : entry.path)) : typeof data['name'] === 'string' ? data['name'] : entry.path;
  return readFrontMatterCapabilities(entry.role, entry.path, subject, data, carried);
}

/**
 * The hooks and permissions a skill's or subagent's parsed front matter `data` declares: a
 * skill's `allowed-tools`, a subagent's `tools` and `permissionMode` (code.claude.com/docs/en/skills,
 * /sub-agents), and either's `hooks` ({@link readHooks}); each judged by the one consent rule
 * (`capabilities/consent.ts`). `file` is the loadout path, `subject` the skill's or subagent's
 * name, `agents` those that read it. The build (from the author's files) and the installer (from
 * the installed bytes, `install/installed-capabilities.ts`) both read front matter here. Pure.
 */
export function readFrontMatterCapabilities(role: 'skill' | 'subagent', file: string, subject: string, data: Record<string, unknown>, agents: readonly Agent[]): { hooks: HookCapability[]; permissions: PermissionCapability[] } {
  const permissions: PermissionCapability[] = [];
  const carried = [...agents];
  if (role === 'skill' && data['allowed-tools'] !== undefined && data['allowed-tools'] !== null) {
    const grants = splitToolGrants(data['allowed-tools']);
    if (grants.length > 0) permissions.push({ kind: 'tool-grant', file, subject, key: 'allowed-tools', value: grants, agents: carried, consent: toolGrantConsent(grants) });
  }
  if (role === 'subagent') {
    const tools = splitToolGrants(data['tools']);
    if (tools.length > 0) permissions.push({ kind: 'tools', file, subject, key: 'tools', value: tools, agents: carried, consent: null });
    const mode = data['permissionMode'];
    if (mode !== undefined && mode !== null && mode !== '') {
      const shown = typeof mode === 'string' ? mode : JSON.stringify(mode);
      permissions.push({ kind: 'permission-mode', file, subject, key: 'permissionMode', value: [shown], agents: carried, consent: permissionModeConsent(shown) });
    }
  }
  return { hooks: readHooks(data['hooks'], file, carried), permissions };
}

/**
 * The hooks of a front matter `hooks` value in Claude Code's shape (`{<event>: [{matcher?,
 * hooks: [{type, command | prompt}]}]}`, code.claude.com/docs/en/hooks). A value of another
 * shape is still a hook the agent may run: it is listed with its text as the command.
 */
export function readHooks(value: unknown, file: string, agents: readonly Agent[]): HookCapability[] {
  if (value === undefined || value === null || value === false) return [];
  const hooks: HookCapability[] = [];
  const add = (event: string, matcher: string | null, type: string, command: string): void => {
    hooks.push({ file, agents: [...agents], event, matcher, type, command, consent: hookConsent(event, type) });
  };
  if (!isObject(value)) {
    add('(unknown)', null, 'command', JSON.stringify(value));
    return hooks;
  }
  for (const [event, groups] of Object.entries(value)) {
    const list = Array.isArray(groups) ? groups : [groups];
    for (const group of list) {
      const matcher = isObject(group) && typeof group['matcher'] === 'string' && group['matcher'] !== '' ? group['matcher'] : null;
      const inner = isObject(group) && Array.isArray(group['hooks']) ? group['hooks'] : [group];
      for (const hook of inner) {
        if (isObject(hook) && (typeof hook['command'] === 'string' || typeof hook['prompt'] === 'string')) {
          const type = typeof hook['type'] === 'string' ? hook['type'] : typeof hook['command'] === 'string' ? 'command' : 'prompt';
          add(event, matcher, type, (typeof hook['command'] === 'string' ? hook['command'] : hook['prompt']) as string);
        } else add(event, matcher, 'command', JSON.stringify(hook) ?? String(hook));
      }
    }
  }
  return hooks;
}

/** MCP servers and their auto-approval keys, as each agent's file carries them. */
function mcpCapabilities(entry: FileEntry, text: string, agents: readonly Agent[]): { servers: McpServerCapability[]; permissions: PermissionCapability[] } {
  let servers: Record<string, McpServerConfig> | undefined;
  try {
    servers = readMcpServers(JSON.parse(text));
  } catch {
    servers = undefined;
  }
  if (servers === undefined) return { servers: [], permissions: [] };
  const converted = new Map(agents.map((agent) => [agent, convertMcpServers(servers as Record<string, McpServerConfig>, agent).servers] as const));
  const found: McpServerCapability[] = [];
  const approvals = new Map<string, PermissionCapability>();
  for (const [name, server] of Object.entries(servers)) {
    const carriedBy = agents.filter((a) => converted.get(a)?.[name] !== undefined);
    found.push({ ...describeServer(name, entry.path, server), agents: carriedBy });
    for (const agent of carriedBy) {
      for (const approval of findAutoApprovals(converted.get(agent)?.[name] ?? {})) {
        const key = `${name}\n${approval.key}`;
        const known = approvals.get(key);
        if (known !== undefined) known.agents.push(agent);
        else approvals.set(key, { kind: 'auto-approval', file: entry.path, subject: name, key: approval.key, value: [approval.value], agents: [agent], consent: approval.effect });
      }
    }
    // A key no agent's file carries (Codex keeps only its own keys) still asks for it: listed, for every agent the file goes to.
    for (const approval of findAutoApprovals(server)) {
      const key = `${name}\n${approval.key}`;
      if (!approvals.has(key)) approvals.set(key, { kind: 'auto-approval', file: entry.path, subject: name, key: approval.key, value: [approval.value], agents: [...carriedBy], consent: approval.effect });
    }
  }
  return { servers: found, permissions: [...approvals.values()] };
}

/** Scripts, the files that name them, and what they read from the environment. */
function scriptCapabilities(input: CapabilityInput, agentsOf: (entry: FileEntry) => Agent[]): { scripts: ScriptCapability[]; reads: Map<string, string[]> } {
  const scripts: ScriptCapability[] = [];
  const reads = new Map<string, string[]>();
  for (const entry of input.files) {
    const text = input.text(entry.path);
    if (text === undefined || !isScript(entry.path, text)) continue;
    const referencedBy = input.files.filter((other) => other.path !== entry.path).filter((other) => {
      const otherText = input.text(other.path);
      return otherText !== undefined && namesScript(otherText, other.path, entry.path);
    });
    scripts.push({ path: entry.path, interpreter: scriptInterpreter(entry.path, text), referenced_by: referencedBy.map((f) => f.path).sort(), agents: agentsOf(entry) });
    const names = scriptEnvReads(text);
    if (names.length > 0) reads.set(entry.path, names);
  }
  return { scripts, reads };
}

/** The network uses grouped by host and what, with the files that say so. */
function networkCapabilities(uses: readonly NetworkUse[], agentsOfPath: (path: string) => Agent[]): NetworkCapability[] {
  const grouped = new Map<string, NetworkCapability>();
  for (const use of uses) {
    const key = `${use.host ?? ''}\n${use.what}`;
    const item = grouped.get(key) ?? { host: use.host, what: use.what, files: [], agents: [] };
    if (!item.files.includes(use.file)) item.files.push(use.file);
    for (const agent of agentsOfPath(use.file)) if (!item.agents.includes(agent)) item.agents.push(agent);
    grouped.set(key, item);
  }
  return [...grouped.values()].map((item) => ({ ...item, files: item.files.sort(), agents: PUBLISHED_AGENTS.filter((a) => item.agents.includes(a)) }));
}

/**
 * The capability list of the version whose files `input` gives (see the module comment):
 * sorted, with its digest and each agent's part. Pure; never throws.
 */
export function deriveCapabilities(input: CapabilityInput): Capabilities {
  const resolve = input.resolve ?? resolveInstallTarget;
  const agentsByPath = new Map(input.files.map((entry) => [entry.path, carriers(entry, resolve)] as const));
  const agentsOf = (entry: FileEntry): Agent[] => agentsByPath.get(entry.path) ?? [];
  const mcp_servers: McpServerCapability[] = [];
  const hooks: HookCapability[] = [];
  const permissions: PermissionCapability[] = [];
  for (const entry of input.files) {
    const text = input.text(entry.path);
    if (text === undefined) continue;
    if (entry.role === 'mcp') {
      const found = mcpCapabilities(entry, text, agentsOf(entry));
      mcp_servers.push(...found.servers);
      permissions.push(...found.permissions);
    } else {
      const found = frontMatterCapabilities(entry, text, agentsOf(entry));
      hooks.push(...found.hooks);
      permissions.push(...found.permissions);
    }
  }
  const { scripts, reads } = scriptCapabilities(input, agentsOf);
  const network = networkCapabilities(input.network ?? [], (path) => agentsByPath.get(path) ?? []);
  const env = new Map<string, EnvCapability>();
  const use = (name: string, by: string): void => {
    const item = env.get(name) ?? { name, secret: isSecretVariable(name), used_by: [] };
    if (!item.used_by.includes(by)) item.used_by.push(by);
    env.set(name, item);
  };
  for (const server of mcp_servers) for (const variable of server.env) use(variable.name, `mcp:${server.name}`);
  for (const [path, names] of reads) for (const name of names) use(name, path);
  return finishCapabilities(sortCapabilityLists({ mcp_servers, hooks, permissions, scripts, network, env: [...env.values()] }));
}

