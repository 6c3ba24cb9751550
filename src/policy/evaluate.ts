/**
 * The one judge of a policy (issue 55, point 2; STYLE.md habit 5b): what of an install, an
 * update, an installed loadout or a catalogue's loadout a policy refuses, as violations that
 * name the rule, the loadout, the agent and the capability. `install`, `update`, `outdated` and
 * `status` (install/policy-gate.ts) and `verify --policy` (verify/policy-findings.ts) all ask it,
 * over the capability list (`tree-format/capabilities.ts`) each has; the consent rule decides
 * which permissions bypass the user (`capabilities/consent.ts`, through each item's `consent`).
 * `min_release_age` is judged on versions, in `release-age.ts`. Pure.
 */
import { AGENT_NAMES, type Agent } from '../catalogue/vocabulary.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import type { McpServerCapability, PermissionCapability } from '../tree-format/capabilities.js';
import { allowsHost, allowsPackage, matchesGlob, namesPackage, REGISTRY_NAMES } from './packages.js';
import type { DenyKind, Policy, PolicyRule, PolicyViolation } from './policy.js';

/** What is judged. A field left out is not judged (a catalogue's loadout has no catalogue of its own, nor a signature). */
export interface PolicySubject {
  loadout: string;
  /** The agent installed for; null judges the items of every agent (a catalogue's loadout). */
  agent: Agent | null;
  /** The catalogue it comes from: an http(s) base URL, or a folder (never one the policy lists). */
  catalogue?: string;
  /** The verified signing of that catalogue: the key ids whose signature verified, or null when it is not signed. */
  signing?: { keyids: readonly string[] } | null;
  /** What it lets the agent run and reach (for an install: that agent's part). */
  capabilities?: CapabilityLists;
  /** The agents the loadout supports, judged against `agents` when `agent` is null (a catalogue's loadout). */
  supports?: readonly Agent[];
}

/** A base URL as compared: WHATWG URL's serialisation (scheme and host in lower case, default port dropped), without trailing slashes; undefined for no URL. */
function baseOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    // Trailing slashes dropped, as the installer's base URLs are (catalogue-reader.ts `catalogueBaseUrl`); a loop, where a regular expression would rescan.
    let href = parsed.href;
    while (href.endsWith('/')) href = href.slice(0, -1);
    return href;
  } catch {
    return undefined;
  }
}

/** The items of `items` carried to one of `judged` (every item when null). */
const carried = <T extends { agents: Agent[] }>(items: readonly T[], judged: readonly Agent[] | null): T[] => (judged === null ? [...items] : items.filter((i) => i.agents.some((a) => judged.includes(a))));

/** ` for Claude Code, Cursor`: the agents of `agents` that are judged. */
const forAgents = (judged: readonly Agent[] | null, agents: readonly Agent[]): string => {
  const named = judged === null ? agents : agents.filter((a) => judged.includes(a));
  return named.length === 0 ? '' : ` for ${named.map((a) => AGENT_NAMES[a]).join(', ')}`;
};

/** The capability key of a server: `npm:@scope/name`, `pypi:postgres-mcp`, `local:node ./x.js`, `host:api.example.com`. */
export function serverKey(server: McpServerCapability): string {
  if (server.package !== undefined) return `${server.package.registry}:${server.package.name}`;
  return `host:${server.host ?? server.url ?? server.command ?? server.name}`;
}

/** `postgres-mcp from PyPI`, `kit-docs@1 from npm`, `the local program node ./server.js`. */
function describePackage(server: McpServerCapability): string {
  const pkg = server.package;
  if (pkg === undefined) return `the MCP server ${JSON.stringify(server.name)}`;
  if (pkg.registry === 'local') return `the local program ${JSON.stringify(pkg.name)} (MCP server ${JSON.stringify(server.name)})`;
  const version = pkg.version === null ? '' : pkg.registry === 'pypi' && /^[=<>!~@]/u.test(pkg.version) ? pkg.version : `@${pkg.version}`;
  return `${pkg.name}${version} from ${REGISTRY_NAMES[pkg.registry]}`;
}

/** What a deny kind is, in a sentence's words. */
const DENIED: Readonly<Record<DenyKind, string>> = {
  hooks: 'hooks',
  scripts: 'scripts',
  'permission-bypass': 'permission modes and auto-approval that bypass the user',
  'wildcard-grants': 'wildcard tool grants',
  'unpinned-packages': 'packages not pinned to one release',
};

/** True for a permission that lets the agent act without asking (`capabilities/consent.ts`: its `consent` is set). */
const bypasses = (p: PermissionCapability): boolean => (p.kind === 'permission-mode' || p.kind === 'auto-approval') && p.consent !== null;
const isWildcard = (p: PermissionCapability): boolean => p.kind === 'tool-grant' && p.consent !== null;

/**
 * The violations of `policy` by `subject`, in the order of the rules (catalogue, loadout, agent,
 * signing, then each capability). Empty when it allows everything judged.
 */
export function evaluatePolicy(policy: Policy, subject: PolicySubject): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  const { loadout, agent } = subject;
  const add: Add = (rule, capability, message, at = {}) => {
    found.push({ rule, loadout, agent, capability, message: `${rule}: ${message}`, ...at });
  };
  const on = agent === null ? '' : ` for ${AGENT_NAMES[agent]}`;

  if (policy.catalogues !== undefined && subject.catalogue !== undefined) {
    const base = baseOf(subject.catalogue);
    const allowed = policy.catalogues.map(baseOf);
    if (base === undefined || !allowed.includes(base)) add('catalogues', null, `${loadout} comes from ${base ?? `the folder ${subject.catalogue}`}, which is not a catalogue the policy allows (${policy.catalogues.join(', ') || 'none'})`);
  }
  const denied = policy.loadouts?.deny?.find((glob) => matchesGlob(glob, loadout));
  if (denied !== undefined) add('loadouts.deny', null, `${loadout} is denied (it matches ${JSON.stringify(denied)})`);
  const allow = policy.loadouts?.allow;
  if (allow !== undefined && !allow.some((glob) => matchesGlob(glob, loadout))) add('loadouts.allow', null, `${loadout} is not allowed (the policy allows ${allow.join(', ') || 'no loadout'})`);
  if (policy.agents !== undefined) {
    if (agent !== null && !policy.agents.includes(agent)) add('agents', null, `${loadout}${on}: ${agent} is not an agent the policy allows (${policy.agents.join(', ') || 'none'})`);
    if (agent === null && subject.supports !== undefined && !subject.supports.some((a) => policy.agents?.includes(a))) add('agents', null, `${loadout} supports ${subject.supports.join(', ') || 'no agent'}, none of them an agent the policy allows (${policy.agents.join(', ') || 'none'})`);
  }
  if (policy.signing?.require === true && subject.signing !== undefined) {
    const where = subject.catalogue ?? 'its catalogue';
    if (subject.signing === null) add('signing.require', null, `${loadout} comes from ${where}, which is not signed; the policy requires signed catalogues (docs/signing.md)`);
    else if (policy.signing.keys !== undefined && !subject.signing.keyids.some((k) => policy.signing?.keys?.includes(k))) {
      add('signing.keys', null, `${where} is signed by ${subject.signing.keyids.join(', ') || 'no key'}, not by a key the policy pins (${policy.signing.keys.join(', ')})`);
    }
  }
  // The agents whose items are judged: the one installed for, or on a catalogue those the policy allows (every one when it names none).
  const judged = agent !== null ? [agent] : (policy.agents ?? null);
  if (subject.capabilities !== undefined) judgeCapabilities(policy, subject.capabilities, judged, loadout, add);
  return found;
}

/** The capability rules: MCP packages, hosts and pins, then each kind denied. */
/** Records a violation of `rule` about `capability`, with the file (and MCP server) that brings it. */
type Add = (rule: PolicyRule, capability: string | null, message: string, at?: { file?: string; server?: string }) => void;

function judgeCapabilities(policy: Policy, lists: CapabilityLists, judged: readonly Agent[] | null, loadout: string, add: Add): void {
  const deny = new Set(policy.deny ?? []);
  const denyRule = (kind: DenyKind): PolicyRule => `deny.${kind}`;
  const tail = (kind: DenyKind): string => `; the policy denies ${DENIED[kind]}`;
  for (const server of carried(lists.mcp_servers, judged)) {
    const where = forAgents(judged, server.agents);
    const key = serverKey(server);
    const at = { file: server.file, server: server.name };
    const pkg = server.package;
    if (pkg !== undefined) {
      const rules = policy.mcp?.packages?.allow;
      if (rules !== undefined && !rules.some((rule) => allowsPackage(rule, pkg))) {
        const near = rules.filter((rule) => namesPackage(rule, pkg) && rule.version !== undefined).map((rule) => `${rule.name} ${rule.version ?? ''}`);
        add('mcp.packages.allow', key, `${loadout} runs ${describePackage(server)}${where}, which is not allowed${near.length === 0 ? '' : ` (the policy allows ${near.join(', ')}, which only a pinned release in the range meets)`}`, at);
      }
      if (pkg.registry !== 'local' && !pkg.pinned) {
        const what = `${loadout} runs ${describePackage(server)}${where}, which names no single release (${pkg.version === null ? 'no version' : `${JSON.stringify(pkg.version)} is a range or tag`}: each start may fetch another)`;
        if (policy.mcp?.require_pinned === true) add('mcp.require_pinned', key, `${what}; the policy requires pinned packages`, at);
        if (deny.has('unpinned-packages')) add(denyRule('unpinned-packages'), key, `${what}${tail('unpinned-packages')}`, at);
      }
    } else if (server.host !== undefined) {
      const hosts = policy.mcp?.hosts?.allow;
      if (hosts !== undefined && !allowsHost(hosts, server.host)) add('mcp.hosts.allow', key, `${loadout} reaches ${server.host} (MCP server ${JSON.stringify(server.name)})${where}, which is not allowed (the policy allows ${hosts.join(', ') || 'no host'})`, at);
    }
  }
  if (deny.has('hooks')) {
    for (const hook of carried(lists.hooks, judged)) add(denyRule('hooks'), `hook ${hook.file} ${hook.event}`, `${loadout} has a ${hook.event} hook in ${hook.file}${forAgents(judged, hook.agents)} (${JSON.stringify(hook.command)})${tail('hooks')}`, { file: hook.file });
  }
  if (deny.has('scripts')) {
    for (const script of carried(lists.scripts, judged)) add(denyRule('scripts'), `script ${script.path}`, `${loadout} brings the script ${script.path}${forAgents(judged, script.agents)}${tail('scripts')}`, { file: script.path });
  }
  const permissions = carried(lists.permissions, judged);
  if (deny.has('permission-bypass')) {
    for (const p of permissions.filter(bypasses)) add(denyRule('permission-bypass'), `${p.key} ${p.file}`, `${loadout} sets ${p.key}: ${p.value.join(', ')} for ${p.kind === 'auto-approval' ? `MCP server ${JSON.stringify(p.subject)}` : p.subject} in ${p.file}${forAgents(judged, p.agents)} (${p.consent ?? ''})${tail('permission-bypass')}`, { file: p.file });
  }
  if (deny.has('wildcard-grants')) {
    for (const p of permissions.filter(isWildcard)) add(denyRule('wildcard-grants'), `${p.key} ${p.file}`, `${loadout} grants ${p.value.join(', ')} in ${p.file}${forAgents(judged, p.agents)} (${p.consent ?? ''})${tail('wildcard-grants')}`, { file: p.file });
  }
}

/**
 * The violations as one message for a refusal: `policy <where> refuses <what>:` and each
 * violation's sentence on a line of its own.
 */
export function describeViolations(where: string, what: string, violations: readonly PolicyViolation[]): string {
  return `the policy ${where} refuses ${what}:\n${violations.map((v) => `  ${v.message}`).join('\n')}`;
}
