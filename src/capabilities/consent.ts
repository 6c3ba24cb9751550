/**
 * The one rule of what needs the user's consent before it is installed (issue 53, point 3;
 * DESIGN.md "Capabilities"; SECURITY.md "What needs your consent"). Content that makes an agent
 * act without asking, or run commands on its own events, is never installed, carried by a
 * plugin or published as verified without the user's explicit yes:
 *
 * - `hook`: a command (or prompt) an agent runs on its events, from a skill's or subagent's
 *   front matter (`hooks`, Claude Code: code.claude.com/docs/en/hooks, "Hooks in skills and
 *   agents"); a `SessionStart` hook runs as every session starts;
 * - `permission-mode`: a subagent's `permissionMode` other than `default` and `plan`
 *   (`acceptEdits`, `dontAsk`, `bypassPermissions`, `auto`; code.claude.com/docs/en/sub-agents);
 * - `auto-approval`: an MCP server key that runs its tools without asking: Gemini CLI `trust`
 *   ("bypasses all tool call confirmations", geminicli.com/docs/tools/mcp-server), Codex
 *   `default_tools_approval_mode` and `tools.<tool>.approval_mode` other than `prompt`
 *   (developers.openai.com/codex/config-reference), `autoApprove` and `alwaysAllow` (Cline, Roo
 *   Code, Kilo Code: docs.cline.bot/mcp; carried in `.mcp.json` files copied between clients);
 * - `wildcard-grant`: a skill's `allowed-tools` that lets the agent run any command or any tool
 *   without asking: `*`, a tool pattern with `*` in its name (`mcp__*`), or a tool that runs
 *   commands (`Bash`, `PowerShell`, Gemini's `run_shell_command`, Copilot's `shell`) without a
 *   specifier or with one that is only a wildcard (`Bash(*)`, `Bash(:*)`); Claude Code's
 *   permission rule syntax, code.claude.com/docs/en/iam#tool-specific-permission-rules. A narrow
 *   grant (`Read`, `Bash(git status:*)`) is listed among the capabilities without needing consent.
 *
 * `verify` reports each as a blocking finding of `safety` (front matter) or `mcp` (servers),
 * the installer refuses them without `--accept-capabilities` (or `--force`), the plugin writer
 * leaves them out, and the pages and the plugin README say so: all of them ask this module.
 * The same kinds are the capability kinds a policy may deny (issue 55). Pure.
 */
import { AGENT_NAMES, type Agent } from '../catalogue/vocabulary.js';
import type { Capabilities, HookCapability, PermissionCapability } from '../tree-format/capabilities.js';

/** The kinds of content that need the user's consent (see the module comment). */
export const CONSENT_KINDS = ['hook', 'permission-mode', 'auto-approval', 'wildcard-grant'] as const;

/** One of {@link CONSENT_KINDS}. */
export type ConsentKind = (typeof CONSENT_KINDS)[number];

/**
 * The kinds of a comma-separated list (`hook,auto-approval`), each once, for a catalogue's
 * `--allow-consent`; undefined for an empty or absent list. `where` names the option or variable.
 * @throws Error naming `where`, the value and the kinds expected, for an unknown kind
 */
export function parseConsentKinds(list: string | undefined, where: string): ConsentKind[] | undefined {
  if (list === undefined || list.trim() === '') return undefined;
  const kinds = [...new Set(list.split(',').map((k) => k.trim()).filter((k) => k !== ''))];
  const unknown = kinds.filter((k) => !(CONSENT_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`${where} names ${unknown.map((k) => JSON.stringify(k)).join(', ')} (expected a comma-separated list of ${CONSENT_KINDS.join(', ')})`);
  return kinds as ConsentKind[];
}

/** One thing of a loadout that needs the user's yes, as verify, the installer and the plugin writer name it. */
export interface ConsentRequest {
  kind: ConsentKind;
  /** The loadout file that carries it. */
  file: string;
  /** The skill, subagent or MCP server it belongs to. */
  subject: string;
  /** The key as written: `hooks.PostToolUse`, `permissionMode`, `trust`, `allowed-tools`, … */
  key: string;
  /** The value, shown as written (JSON for MCP keys). */
  value: string;
  /** The agents whose install carries it. */
  agents: Agent[];
  /** One sentence for the user: what it does and which agent does it. */
  message: string;
}

/** `Claude Code, Cursor` for a list of agents. */
export function agentNames(agents: readonly Agent[]): string {
  return agents.map((a) => AGENT_NAMES[a]).join(', ');
}

/** MCP server keys that run the server's tools without asking, and the client that documents each. */
export const AUTO_APPROVAL_KEYS: Readonly<Record<string, string>> = {
  trust: 'Gemini CLI runs every tool of the server without asking',
  default_tools_approval_mode: 'Codex runs the server\'s tools without asking',
  approval_mode: 'Codex runs the server\'s tools without asking',
  autoApprove: 'clients that read it (Cline, Roo Code, Kilo Code) run the listed tools without asking',
  alwaysAllow: 'clients that read it (Cline, Roo Code, Kilo Code) run the listed tools without asking',
};

/** True when a key's value asks for something: not false, null, an empty list or string, nor Codex's `prompt`. */
function asks(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 'prompt') return false;
  return !(Array.isArray(value) && value.length === 0);
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One auto-approval key of an MCP server entry: its path in the entry and its value as JSON. */
export interface AutoApproval {
  key: string;
  value: string;
  /** What it makes which client do. */
  effect: string;
}

/**
 * Every key of the MCP server entry `server` that asks for auto-approval or trust (see the
 * module comment), in key order. Pure; never throws.
 */
export function findAutoApprovals(server: Record<string, unknown>): AutoApproval[] {
  const found: AutoApproval[] = [];
  for (const [key, effect] of Object.entries(AUTO_APPROVAL_KEYS)) if (asks(server[key])) found.push({ key, value: JSON.stringify(server[key]), effect });
  const tools = server['tools'];
  if (isObject(tools)) {
    for (const [tool, settings] of Object.entries(tools)) {
      if (isObject(settings) && asks(settings['approval_mode'])) found.push({ key: `tools.${tool}.approval_mode`, value: JSON.stringify(settings['approval_mode']), effect: `Codex runs the tool "${tool}" without asking` });
    }
  }
  return found;
}

/** `entry` without the keys of {@link findAutoApprovals}: what a plugin carries of a server that asks for them. Pure. */
export function withoutAutoApprovals(server: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(server)) {
    if (Object.hasOwn(AUTO_APPROVAL_KEYS, key) && asks(value)) continue;
    if (key === 'tools' && isObject(value)) {
      const tools = Object.fromEntries(Object.entries(value).map(([tool, settings]) => [tool, isObject(settings) && asks(settings['approval_mode']) ? Object.fromEntries(Object.entries(settings).filter(([k]) => k !== 'approval_mode')) : settings]));
      kept[key] = tools;
      continue;
    }
    kept[key] = value;
  }
  return kept;
}

/** Permission modes that leave approval to the user (code.claude.com/docs/en/sub-agents, `permissionMode`). */
const ASKING_MODES = new Set(['default', 'plan']);

/** Why a subagent's `permissionMode` needs consent, or null. */
export function permissionModeConsent(mode: string): string | null {
  return ASKING_MODES.has(mode) ? null : `permissionMode "${mode}" lets the subagent act without the user's confirmation`;
}

/** Tools that run commands, in the agents' grant syntaxes. */
const COMMAND_TOOLS = /^(?:bash|shell|powershell|pwsh|run_shell_command|run_in_terminal|terminal|execute|exec|runcommand|command)$/iu;

/**
 * Splits a tool grant as Claude Code and the Agent Skills specification write it: a YAML list,
 * or one string of tools separated by commas or spaces, a specifier in parentheses kept whole
 * (`Bash(git status:*)`). Pure.
 */
export function splitToolGrants(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? splitToolGrants(v) : v === null || v === undefined ? [] : [JSON.stringify(v)]));
  if (typeof value !== 'string') return value === null || value === undefined || value === false ? [] : [JSON.stringify(value)];
  const grants: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of value) {
    if (c === '(') depth++;
    if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/u.test(c))) {
      if (current.trim() !== '') grants.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim() !== '') grants.push(current.trim());
  return grants;
}

/** True when one grant lets the agent run any command or any tool without asking (see the module comment). */
export function isWildcardGrant(grant: string): boolean {
  const open = grant.indexOf('(');
  const tool = (open < 0 ? grant : grant.slice(0, open)).trim();
  if (tool.includes('*')) return true;
  if (!COMMAND_TOOLS.test(tool)) return false;
  if (open < 0) return true;
  const specifier = grant.slice(open + 1, grant.endsWith(')') ? -1 : undefined).trim();
  return /^[*:\s]*$/u.test(specifier);
}

/** Why a skill's `allowed-tools` needs consent, or null: the wildcard grants among them. */
export function toolGrantConsent(grants: readonly string[]): string | null {
  const wild = grants.filter(isWildcardGrant);
  return wild.length === 0 ? null : `allowed-tools grants ${wild.map((g) => JSON.stringify(g)).join(', ')}: the agent may run any command or tool without the user's confirmation while the skill is active`;
}

/** Why a hook needs consent: every hook does; one on `SessionStart` runs as every session starts. */
export function hookConsent(event: string, type: string): string {
  const what = type === 'command' ? 'runs a shell command' : `runs a ${type} hook`;
  return event === 'SessionStart' ? `${what} as every session starts` : `${what} on the agent's ${event} event`;
}

/**
 * What of `capabilities` needs the user's consent for the installs of `agents` (default every
 * agent): every hook, and every permission whose `consent` is set, carried by at least one of
 * those agents. Sorted as the lists are. Pure.
 */
export function consentRequests(capabilities: Pick<Capabilities, 'hooks' | 'permissions'>, agents?: readonly Agent[]): ConsentRequest[] {
  const carried = (list: readonly Agent[]): Agent[] => (agents === undefined ? [...list] : list.filter((a) => agents.includes(a)));
  const requests: ConsentRequest[] = [];
  for (const hook of capabilities.hooks) {
    const on = carried(hook.agents);
    if (on.length > 0) requests.push(hookRequest(hook, on));
  }
  for (const permission of capabilities.permissions) {
    const on = carried(permission.agents);
    if (permission.consent !== null && on.length > 0) requests.push(permissionRequest(permission, on));
  }
  return requests;
}

function hookRequest(hook: HookCapability, agents: Agent[]): ConsentRequest {
  const matcher = hook.matcher === null ? '' : ` for ${hook.matcher}`;
  return { kind: 'hook', file: hook.file, subject: hook.file, key: `hooks.${hook.event}`, value: hook.command, agents, message: `${hook.file} has a ${hook.event} hook${matcher} (it ${hook.consent}, for ${agentNames(agents)}): ${JSON.stringify(hook.command)}` };
}

function permissionRequest(permission: PermissionCapability, agents: Agent[]): ConsentRequest {
  const kind: ConsentKind = permission.kind === 'auto-approval' ? 'auto-approval' : permission.kind === 'permission-mode' ? 'permission-mode' : 'wildcard-grant';
  const value = permission.value.join(', ');
  const subject = permission.kind === 'auto-approval' ? `MCP server "${permission.subject}"` : permission.subject;
  return { kind, file: permission.file, subject: permission.subject, key: permission.key, value, agents, message: `${subject} in ${permission.file} asks for ${permission.key}: ${value} (${permission.consent ?? ''}; for ${agentNames(agents)})` };
}

/**
 * The consent requests of `capabilities` as one sentence for a refusal or a page:
 * `needs your consent: <first message> (and N more)`, or undefined when there are none.
 */
export function describeConsent(requests: readonly ConsentRequest[]): string | undefined {
  const [first] = requests;
  if (first === undefined) return undefined;
  return `needs your consent: ${first.message}${requests.length > 1 ? ` (and ${requests.length - 1} more)` : ''}`;
}
