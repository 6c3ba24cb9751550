/**
 * `loadout doctor` (issue 56, point 4): the install's preflight again, for everything the lock
 * says is installed. For each installed loadout (one version, one catalogue, one or more
 * agents), its version's `requires` as the catalogue publishes it (`requirements.ts`
 * `publishedRequires`), checked on this machine: tools on PATH in range, variables set, MCP
 * servers in each agent's MCP file. Each catalogue is read once, through the checked reader
 * with the keys the lock pinned (`run-catalogues.ts`). Reads only; writes nothing.
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { allMet, checkRequirements, type AgentServers, type RequirementResult } from '../requirements/check-requirements.js';
import { findVersion } from './catalogue/fetch-version.js';
import { isSigningRefusal, type SigningPolicy } from './catalogue/signed-catalogue.js';
import { readLock } from './project/lock.js';
import { openScope, type InstallScope } from './project/scope.js';
import { projectServers, publishedRequires, type Environment } from './requirements.js';
import { catalogueOpener } from './run-catalogues.js';

/** One installed loadout and how its requirements stand on this machine. */
export interface DoctorLoadout {
  id: string;
  version: string;
  /** The agents it is installed for. */
  agents: Agent[];
  source: string;
  /** Each requirement checked (MCP servers once per agent); null when they could not be read (`error`) or the catalogue publishes none (`error` absent). */
  requirements: RequirementResult[] | null;
  /** True when every requirement is met (false when they could not be read). */
  ok: boolean;
  /** Why the requirements could not be read (the catalogue unreachable, the version gone…). */
  error?: string;
}

/** What `loadout doctor` found. */
export interface DoctorReport {
  scope: InstallScope['kind'];
  /** The lock read, relative to the scope's root. */
  lock: string;
  loadouts: DoctorLoadout[];
  /** True when every installed loadout's requirements are met (and could be read). */
  ok: boolean;
}

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  scope: InstallScope;
  /** Read every catalogue from here instead of each install's source. */
  from?: string;
  /** How signatures are treated (catalogue/signed-catalogue.ts). */
  signing?: SigningPolicy;
  /** The environment the checks read (`PATH`, the variables); default `process.env`. */
  environment?: Environment;
}

/**
 * Checks the requirements of everything installed in the scope. A catalogue that cannot be read
 * is reported on its loadouts (`error`, not ok), not thrown, so one unreachable catalogue does
 * not hide the others; one whose signing is refused stops the command.
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable), `io` (the project);
 *   the signing refusals of `signed-catalogue.ts`
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { scope } = options;
  const project = await openScope(scope);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const catalogueOf = catalogueOpener(lock, options.signing);
  // One row per loadout, version and catalogue, with every agent it is installed for.
  const groups = new Map<string, { id: string; version: string; source: string; agents: Agent[] }>();
  for (const entry of lock.installs) {
    const source = options.from ?? entry.source;
    const key = JSON.stringify([entry.id, entry.version, source]);
    const group = groups.get(key) ?? { id: entry.id, version: entry.version, source, agents: [] };
    if (!group.agents.includes(entry.agent)) group.agents.push(entry.agent);
    groups.set(key, group);
  }
  const loadouts: DoctorLoadout[] = [];
  for (const { id, version, source, agents } of groups.values()) {
    const row = { id, version, agents, source };
    let requires;
    try {
      const catalogue = catalogueOf(source);
      requires = await publishedRequires(catalogue, id, findVersion(await catalogue.readVersions(id), version));
    } catch (error) {
      if (!(error instanceof LoadoutError) || isSigningRefusal(error)) throw error;
      loadouts.push({ ...row, requirements: null, ok: false, error: error.message });
      continue;
    }
    if (requires === null) {
      loadouts.push({ ...row, requirements: null, ok: true });
      continue;
    }
    const servers: AgentServers[] = await Promise.all(agents.map(async (agent) => ({ agent, servers: await projectServers(project, scope, agent) })));
    const requirements = await checkRequirements(requires, { mcp: servers, ...(options.environment === undefined ? {} : { environment: options.environment }) });
    loadouts.push({ ...row, requirements, ok: allMet(requirements) });
  }
  return { scope: scope.kind, lock: scope.lockPath, loadouts, ok: loadouts.every((l) => l.ok) };
}
