/**
 * The capability list of a published version (issue 54; DESIGN.md "Capabilities"): what a
 * loadout lets the agent run and reach, derived by the build from the files' content
 * (`layout/capabilities.ts`), never from the manifest's claims. Published in each record
 * (`capabilities`) and in `api/loadouts/<id>/versions.json` per version, so that a signed
 * catalogue's snapshot covers it (docs/signing.md). Types, and the reading of the list from an
 * untrusted document. The JSON Schema of the published form is `schema/capabilities.schema.json`.
 *
 * Every list is sorted by its items' keys, and the `digest` is the hex sha256 of the lists'
 * canonical JSON, so the same content gives the same bytes whatever the order of its files.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { showValue as show } from '../catalogue/show-value.js';

/** Where an MCP server's program comes from: a package registry, or a program of the user's machine. */
export type PackageRegistry = 'npm' | 'pypi' | 'oci' | 'local';

/** What a local (stdio) MCP server starts. */
export interface McpPackage {
  registry: PackageRegistry;
  /** npm: the package name (`@scope/name`); PyPI: the name as written; OCI: the image without tag or digest; local: the program or path. */
  name: string;
  /** The version, range, tag or digest as written; null when none is given (the newest is fetched at each start). */
  version: string | null;
  /** True when `version` names one release exactly: an exact version for npm (`1.2.3`) and PyPI (`==1.2.3`, `@1.2.3`), a digest for OCI (`@sha256:…`). A local program is never pinned. */
  pinned: boolean;
  /** What starts it: `npx`, `bunx`, `pnpm dlx`, `uvx`, `pipx run`, `docker run`, …; null for a program run directly. */
  launcher: string | null;
  /** Its Package URL (github.com/package-url/purl-spec: `pkg:npm/…`, `pkg:pypi/…`, `pkg:oci/…`); absent for a local program. */
  purl?: string;
}

/** An environment variable a loadout's content reads from the user's environment. */
export interface EnvCapability {
  name: string;
  /** True when its name says it holds a secret or a connection string (`layout/mcp-variables.ts` `isSecretVariable`). */
  secret: boolean;
  /** What reads it: `mcp:<server>` or a file path. Sorted. */
  used_by: string[];
}

/** One MCP server a loadout adds to the agent's configuration. */
export interface McpServerCapability {
  name: string;
  /** The loadout file that declares it. */
  file: string;
  /** The agents whose install brings it. */
  agents: Agent[];
  transport: 'stdio' | 'http' | 'sse' | 'streamable-http';
  /** Local servers: the command as written. */
  command?: string;
  /** Local servers: its arguments as written. */
  args?: string[];
  /** Local servers: what the command runs and where it comes from. */
  package?: McpPackage;
  /** Remote servers: the address as written. */
  url?: string;
  /** Remote servers: the host it is reached at (lower case, with the port when given); a variable when the address is one. */
  host?: string;
  /** Variables of the user's it reads (in `env`, `args`, `url`, `headers`), sorted by name. */
  env: { name: string; secret: boolean }[];
}

/** A command an agent runs on one of its events (Claude Code hooks in skills' and subagents' front matter). */
export interface HookCapability {
  /** The loadout file whose front matter declares it. */
  file: string;
  /** The agents that run it. */
  agents: Agent[];
  /** The event: `PreToolUse`, `PostToolUse`, `SessionStart`, `Stop`, … as written. */
  event: string;
  /** The tools it applies to (`Bash`, `Edit|Write`), or null for every one. */
  matcher: string | null;
  /** `command` (a shell command), `prompt`, or another type as written. */
  type: string;
  /** The shell command, or the prompt, as written. */
  command: string;
  /** Why it needs the user's consent (`capabilities/consent.ts`): every hook does. */
  consent: string;
}

/** A grant of tools or approval: what the agent may do, and whether it asks first. */
export interface PermissionCapability {
  /**
   * `tool-grant`: a skill's `allowed-tools` (used without asking while the skill is active);
   * `tools`: the tools a subagent may use (it still asks as the session's permission mode says);
   * `permission-mode`: a subagent's `permissionMode`; `auto-approval`: an MCP server key that
   * runs its tools without asking (`trust`, `autoApprove`, `alwaysAllow`, Codex's approval modes).
   */
  kind: 'tool-grant' | 'tools' | 'permission-mode' | 'auto-approval';
  file: string;
  /** The skill, subagent or MCP server it belongs to. */
  subject: string;
  /** The key as written: `allowed-tools`, `tools`, `permissionMode`, `trust`, `tools.<tool>.approval_mode`, … */
  key: string;
  /** The value, one item per tool or a single item, as written. */
  value: string[];
  agents: Agent[];
  /** Why it needs the user's consent, or null when it does not (`capabilities/consent.ts`). */
  consent: string | null;
}

/** A file of the loadout that is a program (a script), and the files that tell the agent to run it. */
export interface ScriptCapability {
  path: string;
  /** The interpreter its shebang or extension names (`bash`, `python`, `node`, …), or null. */
  interpreter: string | null;
  /** Files of the loadout that name it, sorted. */
  referenced_by: string[];
  agents: Agent[];
}

/** A host that the loadout's instructions tell the agent to fetch from or send to (the `safety` check's network scan). */
export interface NetworkCapability {
  /** Lower-case host, or null when the use names none (a package install, a git remote in a variable). */
  host: string | null;
  /** What the content does there: "downloads from a remote URL", "installs packages from a registry", … */
  what: string;
  /** The files that say so, sorted. */
  files: string[];
  agents: Agent[];
}

/** What one agent's install brings: `runs` and the digest of its part of every list. */
export interface AgentCapabilities {
  runs: 'nothing' | 'something';
  digest: string;
}

/** The capability list of one version. */
export interface Capabilities {
  /** `nothing` when it starts no MCP server, brings no hook or script and grants no tool, mode or approval; else `something`. Hosts in instructions and subagents' tool lists do not count. */
  runs: 'nothing' | 'something';
  /** Hex sha256 of the canonical JSON of the six lists (`capabilities/digest.ts`). */
  digest: string;
  mcp_servers: McpServerCapability[];
  hooks: HookCapability[];
  permissions: PermissionCapability[];
  scripts: ScriptCapability[];
  network: NetworkCapability[];
  env: EnvCapability[];
  /** Per agent of the six: what its install brings. */
  agents: Record<Agent, AgentCapabilities>;
}

/**
 * What a loadout's list entry and search result say of its capability list (issue 54, point 1:
 * "search filters on it"): `runs`, and how many hooks and scripts it brings, which the search's
 * `runs`, `has=hooks` and `has=scripts` filter on (`has=mcp` reads the record's `counts.mcp`).
 */
export interface CapabilitySummary {
  runs: 'nothing' | 'something';
  hooks: number;
  scripts: number;
}

/** The summary of `capabilities`. Pure. */
export function capabilitySummaryOf(capabilities: Pick<Capabilities, 'runs' | 'hooks' | 'scripts'>): CapabilitySummary {
  return { runs: capabilities.runs, hooks: capabilities.hooks.length, scripts: capabilities.scripts.length };
}

/** The six lists of a {@link Capabilities}, in their published order. */
export const CAPABILITY_LISTS = ['mcp_servers', 'hooks', 'permissions', 'scripts', 'network', 'env'] as const;

/** One of {@link CAPABILITY_LISTS}. */
export type CapabilityList = (typeof CAPABILITY_LISTS)[number];

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const HEX64 = /^[0-9a-f]{64}$/u;

/**
 * Why `value` is not a capability list as the build publishes it, or undefined: the top-level
 * fields, each list an array of objects, and the digests. The items' fields are read by the
 * functions that show and compare them, which treat every string as untrusted text (shown
 * through `cli/terminal-text.ts` and escaped in pages). Pure.
 */
export function describeCapabilitiesProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `is ${show(value)} (expected an object)`;
  if (value['runs'] !== 'nothing' && value['runs'] !== 'something') return `runs is ${show(value['runs'])} (expected "nothing" or "something")`;
  if (!(typeof value['digest'] === 'string' && HEX64.test(value['digest']))) return `digest is ${show(value['digest'])} (expected 64 lowercase hex digits)`;
  for (const list of CAPABILITY_LISTS) {
    const items = value[list];
    if (!Array.isArray(items) || !items.every(isObject)) return `${list} is ${show(items)} (expected an array of objects)`;
  }
  const agents = value['agents'];
  if (!isObject(agents)) return `agents is ${show(agents)} (expected an object of agent: {runs, digest})`;
  for (const [agent, entry] of Object.entries(agents)) {
    if (!isObject(entry) || (entry['runs'] !== 'nothing' && entry['runs'] !== 'something') || !(typeof entry['digest'] === 'string' && HEX64.test(entry['digest']))) return `agents.${agent} is ${show(entry)} (expected {runs: "nothing" | "something", digest: 64 hex digits})`;
  }
  return undefined;
}
