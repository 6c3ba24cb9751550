/**
 * Checking a loadout's `requires` on the user's machine (issue 56, point 4; DESIGN.md
 * "Bundles"): each tool on `PATH`, in the range its entry asks for (`tool-requirement.ts`);
 * each environment variable set and not empty; each MCP server among those the agent will
 * have (the servers an install brings, or those already in the agent's MCP file). The
 * installer's preflight and `loadout doctor` both ask here, so they agree.
 *
 * Nothing is printed and nothing thrown: the result is a list, one entry per requirement (per
 * agent for MCP servers), each saying what was wanted, what was found, and how to get it when
 * it is missing. An environment variable's value is never read beyond "set, not empty".
 */
import { satisfiesRange } from '../catalogue/version-ranges.js';
import { howToGetTool, readVersionNumber, toolProbe } from './known-tools.js';
import { findOnPath, runVersionCommand, VERSION_TIMEOUT_MS } from './probe-tool.js';
import { readToolRequirement } from './tool-requirement.js';

/** A loadout's `requires` (spec "Loadout record (authoring form)"), each list possibly absent. */
export interface RequiresLists {
  tools?: readonly string[];
  env?: readonly string[];
  mcp?: readonly string[];
}

/** One requirement checked. */
export interface RequirementResult {
  kind: 'tool' | 'env' | 'mcp';
  /** The tool's name (the entry as written when it does not read), the variable's or the server's. */
  name: string;
  /**
   * What is wanted: a tool's range (`>=3.11`), or `any version`, or the entry as written when it
   * does not read; `set` for a variable; for a server, `in <agent>'s MCP servers`.
   */
  wanted: string;
  /**
   * What was found, or null when nothing was: a tool's version (`3.12.1`), `version unknown`
   * when it printed none, or `on PATH` when no range was asked (it is then not run); `set` or
   * `empty` for a variable; for a server, where it is (`brought by this install`, `.mcp.json`).
   */
  found: string | null;
  ok: boolean;
  /** Where to get what is missing (null when `ok`). */
  how_to_get: string | null;
  /** A tool: the file found on PATH. */
  path?: string;
  /** A server: the agent it is checked for. */
  agent?: string;
}

/** The servers one agent will have: name → where it is (`brought by this install`, a file such as `.mcp.json`). */
export interface AgentServers {
  agent: string;
  servers: ReadonlyMap<string, string>;
}

/** Options of {@link checkRequirements}. */
export interface CheckRequirementsOptions {
  /** The environment checked: `PATH` for the tools, the variables of `requires.env`; the tools run with it. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The agents whose MCP servers `requires.mcp` is checked against (none: no server is checked). */
  mcp?: readonly AgentServers[];
  /** The time limit of one version command, in milliseconds (default {@link VERSION_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/**
 * Checks `requires`. Tools are looked up (and, when a range is asked, run) concurrently; the
 * result keeps the order of `requires`: tools, then variables, then servers (by agent).
 */
export async function checkRequirements(requires: RequiresLists, options: CheckRequirementsOptions = {}): Promise<RequirementResult[]> {
  const environment = options.environment ?? process.env;
  const tools = await Promise.all((requires.tools ?? []).map((entry) => checkTool(entry, environment, options.timeoutMs ?? VERSION_TIMEOUT_MS)));
  const variables = (requires.env ?? []).map((name) => checkVariable(name, environment));
  const servers = (requires.mcp ?? []).flatMap((name) => (options.mcp ?? []).map((agent) => checkServer(name, agent)));
  return [...tools, ...variables, ...servers];
}

/** True when every result is ok. */
export const allMet = (results: readonly RequirementResult[]): boolean => results.every((r) => r.ok);

/** One tool entry: looked up on PATH, and run for its version when a range is asked. */
async function checkTool(entry: string, environment: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<RequirementResult> {
  const read = readToolRequirement(entry);
  if (!read.ok) return { kind: 'tool', name: entry, wanted: entry, found: null, ok: false, how_to_get: `the loadout's entry ${JSON.stringify(entry)} ${read.problem}; ask its authors to fix it` };
  const { name, range } = read.requirement;
  const probe = toolProbe(name);
  const wanted = range ?? 'any version';
  let path: string | undefined;
  for (const command of probe.commands) {
    path = await findOnPath(command, environment['PATH']);
    if (path !== undefined) break;
  }
  if (path === undefined) return { kind: 'tool', name, wanted, found: null, ok: false, how_to_get: howToGetTool(name, range) };
  if (range === undefined) return { kind: 'tool', name, wanted, found: 'on PATH', ok: true, how_to_get: null, path };
  const output = await runVersionCommand(path, probe.args, environment, timeoutMs);
  const version = readVersionNumber(`${output.stdout}\n${output.stderr}`, probe.pattern);
  if (version === undefined) {
    const why = output.timedOut ? `did not answer ${[name, ...probe.args].join(' ')} within ${timeoutMs / 1000} s` : `printed no version for ${[name, ...probe.args].join(' ')}`;
    return { kind: 'tool', name, wanted, found: 'version unknown', ok: false, how_to_get: `${path} ${why}; check that it is ${name} ${range}, or get it: ${howToGetTool(name, range)}`, path };
  }
  const ok = satisfiesRange(version, range);
  return { kind: 'tool', name, wanted, found: version, ok, how_to_get: ok ? null : `${path} is ${version}; ${howToGetTool(name, range)}`, path };
}

function checkVariable(name: string, environment: Readonly<Record<string, string | undefined>>): RequirementResult {
  const value = Object.hasOwn(environment, name) ? environment[name] : undefined;
  const found = value === undefined ? null : value === '' ? 'empty' : 'set';
  const ok = found === 'set';
  return { kind: 'env', name, wanted: 'set', found, ok, how_to_get: ok ? null : `set ${name} in your environment (e.g. export ${name}=… in your shell's profile, or in the agent's settings); the loadout reads it` };
}

function checkServer(name: string, { agent, servers }: AgentServers): RequirementResult {
  const where = servers.get(name);
  return {
    kind: 'mcp',
    name,
    wanted: `in ${agent}'s MCP servers`,
    found: where ?? null,
    ok: where !== undefined,
    how_to_get: where !== undefined ? null : `add an MCP server named "${name}" to ${agent}'s MCP configuration, or install a loadout that brings it`,
    agent,
  };
}
