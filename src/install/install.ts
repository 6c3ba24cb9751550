/**
 * `loadout install`: puts one version of a loadout into a project (or, with the user scope,
 * the home folder) for one or several agents, from a catalogue URL or a built tree. Every file
 * is checked against the sha256 its version publishes before anything is written; nothing is
 * written when a target holds bytes the user changed (unless `force`); MCP configuration is
 * merged into the agent's configuration file, keeping what is there; the install is recorded
 * in the lock, written together with the files (`transaction.ts`) (DESIGN.md sections 2 and
 * 8, issue 12). The catalogue is not trusted: its documents are checked as they are read
 * (`catalogue-reader.ts`), and every install target is checked against the rules of
 * `target-rules.ts` before anything is written (`prepare.ts`).
 */
import { join, resolve } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { SLUG_PATTERN, VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { openCatalogue } from './catalogue/catalogue-reader.js';
import type { ContextCost } from '../layout/context-cost.js';
import { fetchVersion, type FetchedVersion } from './catalogue/fetch-version.js';
import type { ManualStep } from '../layout/layout.js';
import { readLock, withEntries, type LockEntry } from './project/lock.js';
import { currentBytesReader, prepareInstall, type PreparedInstall } from './prepare.js';
import { projectScope, type InstallScope } from './project/scope.js';
import { applyChanges, foldersToCreate, type FileChange } from './project/transaction.js';

/** Options of {@link installLoadouts}. */
export interface InstallOptions {
  /** Catalogue base URL (`https://…`) or built tree folder. */
  from: string;
  id: string;
  /** Agents to install for (at least one). */
  agents: readonly Agent[];
  /** Project folder (ignored when `scope` is given). */
  dir: string;
  /** Project or user scope; default the project at `dir`. */
  scope?: InstallScope;
  /** Version to install; default the latest (or the locked one with `frozen`). */
  version?: string;
  /** Install exactly the version in the lock, per agent. */
  frozen?: boolean;
  /** Plan only; write nothing. */
  dryRun?: boolean;
  /** Overwrite targets the user changed, and write targets outside the agent's own locations (with a warning). */
  force?: boolean;
}

/** What an install did (or, with `dryRun` or conflicts, would do) for one agent. */
export interface InstallOutcome {
  id: string;
  agent: Agent;
  version: string;
  source: string;
  scope: InstallScope['kind'];
  files: { path: string; target: string }[];
  manual_steps: ManualStep[];
  /** Targets that hold bytes neither this version nor the lock knows (for merged configuration: servers of the same name): nothing was written. */
  conflicts: { target: string; path: string; servers?: string[] }[];
  /** Targets outside the agent's own locations, written only because of `force`; `message` says where and what was expected. */
  warnings: { target: string; path: string; message: string }[];
  written: string[];
  unchanged: string[];
  /** Context cost of this version for this agent (`context-cost.ts`). */
  context: ContextCost;
  /** True when files were written and the lock updated. */
  installed: boolean;
}

/** The source recorded in the lock: a URL as given, a folder made absolute (so later commands work from anywhere). */
export function lockSource(from: string): string {
  return /^https?:\/\//u.test(from) ? from.replace(/(?<!\/)\/+$/u, '') : resolve(from);
}

/**
 * Installs for every agent of `options.agents`: all are planned first, and when any has a
 * conflict (and no `force`) nothing is written for any of them.
 * @throws LoadoutError `not_found` (loadout, version or file missing), `usage` (an id or
 *   version of the wrong form, no agent, `frozen` with no lock entry), `invalid_content` (a
 *   file fails its sha256, the catalogue's documents, addresses or the lock are not
 *   acceptable, an install target breaks a rule of `target-rules.ts`, two agents' files go to
 *   one target with different bytes), `io`
 */
export async function installLoadouts(options: InstallOptions): Promise<InstallOutcome[]> {
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id, a lowercase slug such as nextjs-app-router)`);
  if (options.version !== undefined && !VERSION_PATTERN.test(options.version)) throw new LoadoutError('usage', `--version is ${JSON.stringify(options.version)} (expected MAJOR.MINOR.PATCH, such as 1.2.0)`);
  if (options.agents.length === 0) throw new LoadoutError('usage', '--agent names no agent (expected one or more agent ids, or detected)');
  const scope = options.scope ?? projectScope(options.dir);
  const catalogue = openCatalogue(options.from);
  const lock = await readLock(scope.root, scope.lockPath);
  const force = options.force === true;
  const versions = await catalogue.readVersions(options.id);
  const fetched = new Map<string, Promise<FetchedVersion>>();
  const fetchOnce = (version: string): Promise<FetchedVersion> => {
    let promise = fetched.get(version);
    if (promise === undefined) {
      promise = fetchVersion(catalogue, versions, version);
      fetched.set(version, promise);
    }
    return promise;
  };

  const pending = new Map<string, Uint8Array | null>();
  const current = currentBytesReader(scope.root, pending);
  const planned: { version: FetchedVersion; prepared: PreparedInstall; previous: LockEntry | undefined }[] = [];
  for (const agent of options.agents) {
    const previous = lock.installs.find((e) => e.id === options.id && e.agent === agent);
    const version = await fetchOnce(wantedVersion(options, agent, previous, versions.latest, join(scope.root, scope.lockPath)));
    const prepared = await prepareInstall({ scope, fetched: version, agent, lock, ...(previous === undefined ? {} : { previous }), force, current });
    for (const file of prepared.files) {
      const other = pending.get(file.target);
      if (other !== undefined && other !== null && Buffer.compare(other, file.bytes) !== 0 && !file.locked.servers) {
        throw new LoadoutError('invalid_content', `${options.id} ${version.version} puts different files at ${file.target} for ${planned.map((p) => p.prepared.agent).join(', ')} and ${agent}; nothing was written`, { hint: 'Install for those agents one at a time, into different projects.' });
      }
      if (file.state !== 'changed' || force) pending.set(file.target, file.bytes);
    }
    planned.push({ version, prepared, previous });
  }

  const outcomes = planned.map(({ version, prepared }): InstallOutcome => ({
    id: options.id,
    agent: prepared.agent,
    version: version.version,
    source: lockSource(catalogue.location),
    scope: scope.kind,
    files: prepared.files.map((f) => ({ path: f.path, target: f.target })),
    manual_steps: prepared.manual_steps,
    conflicts: force ? [] : prepared.files.filter((f) => f.state === 'changed').map((f) => ({ target: f.target, path: f.path, ...(f.conflictingServers === undefined ? {} : { servers: f.conflictingServers }) })),
    warnings: prepared.warnings,
    written: [],
    unchanged: prepared.files.filter((f) => f.state === 'same').map((f) => f.target),
    context: prepared.context,
    installed: false,
  }));
  if (outcomes.some((o) => o.conflicts.length > 0) || options.dryRun === true) return outcomes;

  const changes = new Map<string, FileChange>();
  for (const { prepared } of planned) {
    for (const file of prepared.files) if (file.state !== 'same') changes.set(file.target, { target: file.target, bytes: pending.get(file.target) ?? file.bytes });
    // Reinstalling another version: what the old one had and this one has not goes, when unchanged.
    for (const removal of prepared.removals) {
      if (removal.state !== 'remove' || changes.has(removal.target)) continue;
      changes.set(removal.target, removal.revert?.text === undefined ? { target: removal.target, remove: true } : { target: removal.target, bytes: new TextEncoder().encode(removal.revert.text) });
    }
  }
  const created = await foldersToCreate(scope.root, [...changes.values()].filter((c) => 'bytes' in c).map((c) => c.target));
  const entries = planned.map(({ version, prepared, previous }): LockEntry =>
    withCreatedFolders(
      {
        id: options.id,
        agent: prepared.agent,
        version: version.version,
        source: lockSource(catalogue.location),
        files: prepared.files.map((f) => f.locked),
        ...(previous?.folders === undefined ? {} : { folders: previous.folders }),
      },
      created,
    ),
  );
  await applyChanges(scope.root, [...changes.values()], withEntries(lock, entries), scope.lockPath);
  return outcomes.map((o) => ({ ...o, written: o.files.map((f) => f.target).filter((t) => changes.has(t)), installed: true }));
}

/** {@link installLoadouts} for one agent. */
export async function installLoadout(options: Omit<InstallOptions, 'agents'> & { agent: Agent }): Promise<InstallOutcome> {
  const [outcome] = await installLoadouts({ ...options, agents: [options.agent] });
  if (outcome === undefined) throw new LoadoutError('internal', 'internal error: an install for one agent returned no outcome');
  return outcome;
}

/** `entry` with the folders created for its targets (see `foldersToCreate`) added to `folders`, sorted. */
export function withCreatedFolders(entry: LockEntry, created: ReadonlyMap<string, string[]>): LockEntry {
  const added = entry.files.flatMap((f) => created.get(f.target) ?? []);
  if (added.length === 0) return entry;
  return { ...entry, folders: [...new Set([...(entry.folders ?? []), ...added])].sort() };
}

function wantedVersion(options: InstallOptions, agent: Agent, locked: LockEntry | undefined, latest: string, lockPath: string): string {
  if (options.frozen !== true) return options.version ?? latest;
  if (locked === undefined) throw new LoadoutError('usage', `--frozen: ${lockPath} has no install of ${options.id} for ${agent}`, { hint: 'Install it once without --frozen.' });
  return locked.version;
}

