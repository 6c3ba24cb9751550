/**
 * A loadout's `requires` on the user's machine, for the installer (issue 56, point 4): the
 * preflight of `install` (before anything is written: what is missing, and with `--strict` a
 * refusal) and `loadout doctor` (everything installed). The checks themselves are
 * `requirements/check-requirements.ts`; this module finds what they are checked against: the
 * version's `requires` as the catalogue publishes it (its versions entry, else the record of the
 * latest version, for catalogues built before requirements were published per version), and
 * the MCP servers each agent will have (those the install brings, and those already in the
 * agent's MCP file, read through the project's handle).
 */
import { parseConfig } from './compose/mcp-servers.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { decodeUtf8 } from '../catalogue/source.js';
import { allMet, checkRequirements, type AgentServers, type RequirementResult, type RequiresLists } from '../requirements/check-requirements.js';
import type { CatalogueReader } from './catalogue/catalogue-reader.js';
import type { VersionEntry } from '../tree-format/versions.js';
import type { CheckedInstall } from './prepare.js';
import type { ProjectRoot } from './project/project-root.js';
import type { InstallScope } from './project/scope.js';
import { ConsumerError } from './errors.js';

/** The environment the checks read (`PATH`, the variables), as `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where a server the install brings is said to be. */
export const BROUGHT = 'brought by this install';

/** The most bytes of a record read for its `requires` (a record holds its files' text: 128 KB at most, plus its fields). */
const RECORD_MAX_BYTES = 2 * 1024 * 1024;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * The `requires` of `entry` (a version of loadout `id`): its own, else (a catalogue built before
 * they were published per version) the record's when the record is of that version; null when
 * neither says. A record that cannot be read or has another shape says nothing.
 */
export async function publishedRequires(catalogue: CatalogueReader, id: string, entry: VersionEntry): Promise<RequiresLists | null> {
  if (entry.requires !== undefined) return entry.requires;
  try {
    const record = JSON.parse(Buffer.from(await catalogue.readDocument(`api/loadouts/${id}.json`, RECORD_MAX_BYTES)).toString('utf8')) as { version?: unknown; requires?: Record<string, unknown> };
    const requires = record.requires;
    if (record.version !== entry.version || requires === undefined || requires === null || typeof requires !== 'object') return null;
    const { tools = [], env = [], mcp = [] } = requires;
    return isStrings(tools) && isStrings(env) && isStrings(mcp) ? { tools, env, mcp } : null;
  } catch {
    return null;
  }
}

/** Where `agent` reads MCP servers in `scope` (its MCP file), or undefined when it has none there. */
function mcpFileOf(scope: InstallScope, agent: Agent): string | undefined {
  return scope.resolveTarget({ path: 'mcp.json', role: 'mcp', description: 'MCP servers' }, agent).target ?? undefined;
}

/** The names of the servers in the MCP configuration `text` of `target` (none when it does not parse). */
function serverNames(text: string | undefined, target: string): string[] {
  const parsed = parseConfig(text, target);
  return parsed.ok ? Object.keys(parsed.parts).filter((part) => !part.startsWith('input:')) : [];
}

/**
 * The servers `agent` has in the project now (its MCP file), name → the file.
 * @throws the project handle's errors (a file that is not a regular file, a link…)
 */
export async function projectServers(project: ProjectRoot, scope: InstallScope, agent: Agent): Promise<Map<string, string>> {
  const target = mcpFileOf(scope, agent);
  const servers = new Map<string, string>();
  if (target === undefined) return servers;
  const bytes = await project.read(target).catch(() => undefined);
  for (const name of serverNames(bytes === undefined ? undefined : decodeUtf8(bytes), target)) servers.set(name, target);
  return servers;
}

/** The servers one agent's install brings: those its MCP files hold, as installed for it. */
function broughtServers(check: CheckedInstall): string[] {
  return check.files.filter((f) => f.role === 'mcp').flatMap((f) => {
    const bytes = check.bytes(f.path);
    return bytes === undefined ? [] : serverNames(decodeUtf8(bytes), f.target);
  });
}

/** One agent's install for {@link preflightRequirements}: the agent's checked files and the version's `requires` (null: not published). */
export interface PreflightInstall {
  check: CheckedInstall;
  requires: RequiresLists | null;
}

/**
 * The preflight of an install: per agent, its version's requirements checked, the MCP servers
 * against those the run brings for the agent (`run`: every agent's install of the run, a
 * bundle's other members included; by default `installs`' own) and those already in its MCP
 * file. An agent whose version publishes no `requires` gets null. Tools and variables of one
 * `requires` are checked once. Reads only.
 */
export async function preflightRequirements(project: ProjectRoot, scope: InstallScope, installs: readonly PreflightInstall[], environment?: Environment, run: readonly CheckedInstall[] = installs.map((i) => i.check)): Promise<Map<Agent, RequirementResult[] | null>> {
  const byAgent = new Map<Agent, RequirementResult[] | null>();
  const machine = new Map<string, Promise<RequirementResult[]>>();
  for (const { check, requires } of installs) {
    if (requires === null) {
      byAgent.set(check.agent, null);
      continue;
    }
    const key = JSON.stringify([requires.tools ?? [], requires.env ?? []]);
    let common = machine.get(key);
    if (common === undefined) {
      common = checkRequirements({ tools: requires.tools ?? [], env: requires.env ?? [] }, environment === undefined ? {} : { environment });
      machine.set(key, common);
    }
    const servers = await projectServers(project, scope, check.agent);
    for (const other of run) if (other.agent === check.agent) for (const name of broughtServers(other)) servers.set(name, BROUGHT);
    const agentServers: AgentServers = { agent: check.agent, servers };
    byAgent.set(check.agent, [...(await common), ...(await checkRequirements({ mcp: requires.mcp ?? [] }, { mcp: [agentServers] }))]);
  }
  return byAgent;
}

/** One line per missing requirement: `tool python (>=3.11): found 3.9.18`. */
export function describeMissing(results: readonly RequirementResult[]): string[] {
  return results.filter((r) => !r.ok).map((r) => `${r.kind === 'env' ? 'variable' : r.kind === 'mcp' ? 'MCP server' : 'tool'} ${r.name}${r.kind === 'tool' ? ` (${r.wanted})` : r.kind === 'mcp' ? ` for ${r.agent ?? ''}` : ''}: ${r.found === null ? 'missing' : r.found === 'version unknown' ? 'version unknown' : r.kind === 'env' ? r.found : `found ${r.found}`}`);
}

/**
 * `--strict`: refuses the install before anything is written when a requirement is not met.
 * @throws ConsumerError `RequirementsMissing` naming each missing requirement
 */
export function refuseMissing(what: string, results: readonly RequirementResult[]): void {
  if (allMet(results)) return;
  const missing = [...new Set(describeMissing(results))];
  throw new ConsumerError('RequirementsMissing', `${what}: ${missing.join('; ')}; nothing was written (--strict)`);
}
