/**
 * `loadout install`: puts one version of a loadout into a project (or, with the user scope,
 * the home folder) for one or several agents, from a catalogue URL or a built tree. Every file
 * is checked against the sha256 its version publishes before anything is written. Files are
 * planned by `compose/plan.ts`: instructions and adapters go into a marked block of the shared
 * Markdown file, beside the user's text and other loadouts' blocks; MCP configuration is merged
 * into the agent's configuration file; nothing is written when a target holds bytes of the
 * user's or of another install (unless `force`, which first copies the user's bytes to the
 * backup folder); the install is recorded in the lock, written together with the files
 * (`transaction.ts`) (DESIGN.md sections 2 and 8). The catalogue is not trusted: its documents are checked as they are read
 * (`catalogue-reader.ts`), and every install target is checked against the rules of
 * `target-rules.ts` before anything is written (`prepare.ts`).
 */
import { join, resolve } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { SLUG_PATTERN, VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { catalogueBaseUrl, openCatalogue, type CatalogueReader } from './catalogue/catalogue-reader.js';
import type { ContextCost } from '../layout/context-cost.js';
import { fetchVersion, type FetchedVersion } from './catalogue/fetch-version.js';
import type { ManualStep } from '../layout/layout.js';
import type { WantedInstall } from './compose/plan.js';
import type { CapWarning } from '../layout/context-caps.js';
import { readLock, withTrust, type LockEntry, type LockFile } from './project/lock.js';
import type { SigningPolicy } from './catalogue/signed-catalogue.js';
import { checkInstall, type CheckedInstall } from './prepare.js';
import { openScope, projectScope, type InstallScope } from './project/scope.js';
import { runPlan, summarizeComposed, type ComposedFile } from './run-plan.js';
import { recoverInterrupted } from './project/journal.js';
import { agentCapabilities, versionCapabilities } from './capabilities.js';
import { consentRequests, type ConsentRequest } from '../capabilities/consent.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { PolicyInForce } from '../policy/policy.js';
import { PolicyRefusal } from './errors.js';
import { contentViolations, defaultVersion, refuseCatalogue, refuseSource, refuseVersion, refuseViolations, signedBy, type HeldVersion } from './policy-gate.js';
import { bundleRequest, bundlesOf, finishBundleLock, lockedBundle, rangesFor, refuseOutOfRange, replaceBundle, resolveInstallId, USER_REQUEST, withinRanges } from './bundles.js';
import type { VersionsDocument } from '../tree-format/index.js';
import { preflightRequirements, publishedRequires, refuseMissing, type Environment } from './requirements.js';
import type { RequirementResult } from '../requirements/check-requirements.js';

/** Options of {@link installLoadouts}. */
export interface InstallOptions {
  /** Catalogue base URL (`https://…`) or built tree folder. */
  from: string;
  /** A loadout id, or a bundle id of the catalogue's `api/bundles.json` (every member is installed; `bundles.ts`). */
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
  /** How signatures are treated (`--require-signed`, `--trust-key`; catalogue/signed-catalogue.ts). */
  signing?: SigningPolicy;
  /** The user's yes to what needs consent (`capabilities/consent.ts`: hooks, permission modes, auto-approval, wildcard grants): `--accept-capabilities`. `force` gives it too. */
  acceptCapabilities?: boolean;
  /**
   * Called once everything is fetched and checked, before anything is written (not on a dry
   * run): what each agent's install can run and what of it needs consent, and whether that consent
   * is still to be given. The CLI shows the list here and asks; the answer (true: go on) gives
   * the consent that is missing. Without it, missing consent stops the install.
   */
  confirm?: (preview: InstallPreview) => Promise<boolean>;
  /**
   * The policy the install holds to (issue 55; `policy-gate.ts`): its catalogues, loadouts and
   * agents are judged before the catalogue is read, its signing and `min_release_age` as the
   * version is chosen, what the version can run before anything is written. A refusal throws.
   */
  policy?: PolicyInForce;
  /** `--strict`: refuse the install, before anything is written, when a requirement of the version (`requires`) is not met (`requirements.ts`). */
  strict?: boolean;
  /** The environment the requirements are checked in (`PATH`, the variables); default `process.env`. */
  environment?: Environment;
}

/** What {@link InstallOptions.confirm} is shown: per agent, what its install can run and what of it needs consent. */
export interface InstallPreview {
  /** The loadout, or the bundle (`bundle` true) whose members the run installs. */
  id: string;
  /** The loadout's version, or the bundle's. */
  version: string;
  /** One per agent of each loadout installed; `loadout` names the member when `id` is a bundle. */
  agents: { agent: Agent; loadout?: string; capabilities: CapabilityLists; consent: ConsentRequest[] }[];
  /** True when `id` is a bundle (issue 56): `agents` holds each member's installs. */
  bundle?: boolean;
  /** True when something needs consent that neither `acceptCapabilities` nor `force` gave. */
  needsConsent: boolean;
}

/** A target the install stops at (nothing is written): the user's bytes or another install's, unless `force`. */
export interface InstallConflict {
  target: string;
  path: string;
  /** For merged configuration: the servers of the user's under the loadout's names. */
  servers?: string[];
  /** For a shared Markdown file: the loadout whose block holds edits of the user's, and the diff `force` would make. */
  block?: string;
  diff?: string;
  /** Why, when it is not the user's changes to the file (another install holds it). */
  reason?: string;
}

/** What an install did (or, with `dryRun` or conflicts, would do) for one agent. */
export interface InstallOutcome {
  id: string;
  /** The bundle this install is a member of, when the run installed a bundle (`install <bundle>`; issue 56). */
  bundle?: { id: string; version: string };
  agent: Agent;
  version: string;
  source: string;
  scope: InstallScope['kind'];
  files: { path: string; target: string }[];
  manual_steps: ManualStep[];
  /** Targets in the way (see {@link InstallConflict}): nothing was written. */
  conflicts: InstallConflict[];
  /** Targets outside the agent's own locations, written only because of `force`; `message` says where and what was expected. */
  warnings: { target: string; path: string; message: string }[];
  written: string[];
  unchanged: string[];
  /** Context cost of this version for this agent (`context-cost.ts`). */
  context: ContextCost;
  /** The shared files of the run (blocks and servers) and what happens to them, the context cost of everything installed for this agent after the run, and the agents' documented context caps the installed files pass (`layout/context-caps.ts`). */
  composed: { files: ComposedFile[]; context: ContextCost | undefined; size_warnings: CapWarning[] };
  /** Where the user's bytes were copied before being overwritten (relative to the root), if any were. */
  backup?: string;
  /** The targets whose bytes were copied there (the user's files the install replaced). */
  backed_up?: string[];
  /** The catalogue's verified signature (key ids and the snapshot's `generated_at`), or null when it is unsigned. */
  signed: { keyids: string[]; generated_at: string } | null;
  /** A one-line notice about the catalogue's signing (unsigned, or a key rotation followed). */
  notice?: string;
  /** What this version lets the agent run and reach, for this agent (`capabilities/`), shown before anything is written. */
  capabilities: CapabilityLists & { runs: 'nothing' | 'something'; digest: string };
  /** What of it needs the user's consent (`capabilities/consent.ts`); when not given, nothing was written. */
  consent: ConsentRequest[];
  /** True when something needs consent that was not given (`acceptCapabilities`, `force`): nothing was written. */
  needs_consent: boolean;
  /** True when files were written and the lock updated. */
  installed: boolean;
  /**
   * The version's requirements checked on this machine before anything was written (tools on
   * PATH and their versions, variables, MCP servers for this agent: `requirements.ts`); null when
   * the catalogue publishes none for the version.
   */
  requirements: RequirementResult[] | null;
  /** The newer version the policy's `min_release_age` held back (the latest), when the version was not named: installed is the newest old enough. */
  held?: HeldVersion;
}

/**
 * The source recorded in the lock: a base URL as `catalogueBaseUrl` reads it (scheme in lower
 * case, no trailing slash), a folder made absolute (so later commands work from anywhere).
 * @throws ConsumerError `BadSource` (see `catalogueBaseUrl`)
 */
export function lockSource(from: string): string {
  return catalogueBaseUrl(from) ?? resolve(from);
}

/**
 * Installs for every agent of `options.agents`: all are planned first, and when any has a
 * conflict (and no `force`) nothing is written for any of them. When `options.id` is a bundle
 * (issue 56; `bundles.ts`), every member is installed, for the agents of `options.agents` it is
 * for, at the newest published version every installed bundle's range allows (a member already
 * installed in range stays at its version), in one transaction and one lock write that records
 * the bundle; one outcome per member and agent.
 * @throws LoadoutError `not_found` (loadout, version or file missing), `usage` (an id or
 *   version of the wrong form, no agent, `frozen` with no lock entry), `invalid_content` (a
 *   file fails its sha256, the catalogue's documents, addresses or the lock are not
 *   acceptable, an install target breaks a rule of `target-rules.ts`, two agents' files go to
 *   one target with different bytes), `io`; ConsumerError `BundleConflict` (a member
 *   installed out of a bundle's range, ranges that do not meet), `AmbiguousId`
 */
export async function installLoadouts(options: InstallOptions): Promise<InstallOutcome[]> {
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id, a lowercase slug such as nextjs-app-router)`);
  if (options.version !== undefined && !VERSION_PATTERN.test(options.version)) throw new LoadoutError('usage', `--version is ${JSON.stringify(options.version)} (expected MAJOR.MINOR.PATCH, such as 1.2.0)`);
  if (options.agents.length === 0) throw new LoadoutError('usage', '--agent names no agent (expected one or more agent ids, or detected)');
  const scope = options.scope ?? projectScope(options.dir);
  // A change a killed process left is rolled back (or finished) first (project/journal.ts); a dry run changes nothing.
  const project = await openScope(scope);
  if (options.dryRun !== true) await recoverInterrupted(project, scope.lockPath);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const pinned = lock.trust?.[lockSource(options.from)];
  // The policy's catalogues, loadouts and agents are judged before the catalogue is read (a bundle's members once it is read: judgeId).
  const judged = judgeId(options.policy, options.id, lockSource(options.from), options.agents);
  const catalogue = openCatalogue(options.from, { ...options.signing, ...(pinned === undefined ? {} : { pinned }) });
  const force = options.force === true;
  const source = lockSource(catalogue.location);
  // `install <bundle>`: every member, at the newest version in range, in this one run (bundles.ts).
  const resolved = await resolveInstallId(catalogue, options.id).catch((error: unknown) => {
    throw judged ?? error;
  });
  if (resolved.bundle === undefined && judged !== undefined) throw judged;
  const bundle = resolved.bundle;
  if (bundle !== undefined && options.version !== undefined) throw new LoadoutError('usage', `--version is given and ${options.id} is a bundle (expected no --version: each member is installed at the newest version its range allows)`);
  const units = await installUnits(options, lock, catalogue, source, resolved);
  // Verified before any hash of the versions document was used; the lock keeps the keys and the snapshot's time.
  const signing = await catalogue.signing();
  const checked: { unit: InstallUnit; version: FetchedVersion; check: CheckedInstall; capabilities: Capabilities }[] = [];
  for (const unit of units) {
    const fetched = new Map<string, Promise<FetchedVersion>>();
    const fetchOnce = (version: string): Promise<FetchedVersion> => {
      let promise = fetched.get(version);
      if (promise === undefined) {
        promise = fetchVersion(catalogue, unit.versions, version);
        fetched.set(version, promise);
      }
      return promise;
    };
    // The agents holding this loadout after the run: the files they share are written once for all of them.
    const sharing = [...new Set([...lock.installs.filter((e) => e.id === unit.id).map((e) => e.agent), ...unit.agents])];
    for (const agent of unit.agents) {
      const previous = lock.installs.find((e) => e.id === unit.id && e.agent === agent);
      const named = unit.named(agent, previous);
      // A bundle's member installed already stays at its version: not named, so the policy's age does not ask for an exception.
      const version = await fetchOnce(named !== undefined || unit.kept === undefined ? refuseVersion(options.policy, unit.versions, named ?? unit.byDefault.version, named !== undefined, agent) : unit.kept);
      if (bundle === undefined) refuseOutOfRange({ ...lock, installs: [{ id: unit.id, agent, version: version.version, source, files: [] }] }, bundlesOf(lock), [{ id: unit.id, agents: [agent] }]);
      checked.push({ unit, version, check: await checkInstall({ scope, project, fetched: version, agent, sharing, ...(previous === undefined ? {} : { previous }), force }), capabilities: versionCapabilities(version) });
    }
  }
  // What the policy refuses of what each agent's install brings, before anything is asked or written.
  const policyViolations = checked.flatMap(({ unit, check, capabilities }) => contentViolations(options.policy, { loadout: unit.id, agent: check.agent, catalogue: source, signing: signedBy(signing), capabilities: agentCapabilities(capabilities, check.agent) }));
  if (options.policy !== undefined) refuseViolations(options.policy, bundle === undefined ? `${options.id} ${checked[0]?.version.version ?? ''} for ${options.agents.join(', ')}` : `bundle ${bundle.id} ${bundle.version} for ${options.agents.join(', ')}`, policyViolations);
  // The preflight: what each version requires of the machine, checked before anything is written (per loadout of the run); --strict refuses what is missing.
  const requirementsOf = new Map<InstallUnit, Map<Agent, RequirementResult[] | null>>();
  for (const unit of units) {
    const installs = await Promise.all(checked.filter((c) => c.unit === unit).map(async ({ version, check }) => ({ check, requires: await publishedRequires(catalogue, unit.id, version.entry) })));
    requirementsOf.set(unit, await preflightRequirements(project, scope, installs, options.environment, checked.map((c) => c.check)));
  }
  if (options.strict === true) refuseMissing(`${bundle === undefined ? `${options.id} ${checked[0]?.version.version ?? ''}` : `bundle ${bundle.id} ${bundle.version}`} for ${options.agents.join(', ')} requires what is missing`, [...requirementsOf.values()].flatMap((m) => [...m.values()].flatMap((r) => r ?? [])));
  // What needs the user's yes is asked before anything is written (capabilities/consent.ts); --force gives it too.
  const consentOf = (agent: Agent, capabilities: Capabilities): ConsentRequest[] => consentRequests(capabilities, [agent]);
  const needsConsent = checked.some(({ check, capabilities }) => consentOf(check.agent, capabilities).length > 0) && options.acceptCapabilities !== true && !force;
  let unanswered = needsConsent;
  if (options.dryRun !== true && options.confirm !== undefined) {
    const first = checked[0]?.version;
    const agents = checked.map(({ unit, check, capabilities }) => ({ agent: check.agent, ...(bundle === undefined ? {} : { loadout: unit.id }), capabilities: agentCapabilities(capabilities, check.agent), consent: consentOf(check.agent, capabilities) }));
    const yes = await options.confirm({ id: options.id, version: bundle?.version ?? first?.version ?? '', agents, needsConsent, ...(bundle === undefined ? {} : { bundle: true }) });
    if (yes) unanswered = false;
    else if (!needsConsent) throw new LoadoutError('usage', 'the install was not confirmed; nothing was written');
  }
  const wanted: WantedInstall[] = checked.map(({ unit, version, check, capabilities }) => ({ id: unit.id, agent: check.agent, version: version.version, source, files: check.files, bytes: check.bytes, capabilityDigest: capabilities.agents[check.agent].digest }));
  // Who asked for each install, and the bundle, go into the same lock write (bundles.ts).
  const requester = bundle === undefined ? USER_REQUEST : bundleRequest(bundle.id);
  const bundles = bundle === undefined ? bundlesOf(lock) : replaceBundle(bundlesOf(lock), lockedBundle(bundle, [...new Set([...options.agents, ...(bundlesOf(lock).find((b) => b.id === bundle.id)?.agents ?? [])])], source));
  const finishLock = finishBundleLock(lock, bundles, wanted.map((w) => ({ id: w.id, agent: w.agent, add: [requester] })));
  const run = await runPlan({ scope, project, operation: 'install', before: withTrust(lock, source, signing.trust), wanted, removed: [], force, dryRun: options.dryRun === true || unanswered, finishLock });
  const summary = await summarizeComposed(project, run.plan, options.agents);
  const actionOf = new Map(run.plan.targets.map((t) => [t.target, t.action]));
  return checked.map(({ unit, version, check, capabilities }): InstallOutcome => ({
    id: unit.id,
    ...(bundle === undefined ? {} : { bundle: { id: bundle.id, version: bundle.version } }),
    agent: check.agent,
    version: version.version,
    source,
    scope: scope.kind,
    files: check.files.map((f) => ({ path: f.path, target: f.target })),
    manual_steps: check.manual_steps,
    conflicts: run.plan.conflicts.filter((c) => c.agent === check.agent).map((c) => ({
      target: c.target,
      path: c.path,
      ...(c.kind === 'servers' ? { servers: c.parts } : {}),
      ...(c.kind === 'block' ? { block: c.parts[0] ?? c.id, ...(c.diff === undefined ? {} : { diff: c.diff }) } : {}),
      ...(c.owned === true ? { reason: c.reason } : {}),
    })),
    warnings: check.warnings,
    written: run.written ? check.files.map((f) => f.target).filter((t) => actionOf.get(t) === 'write') : [],
    unchanged: check.files.map((f) => f.target).filter((t) => actionOf.get(t) === 'none'),
    context: check.context,
    signed: signing.snapshot === undefined ? null : { keyids: signing.trust?.keyids ?? [], generated_at: signing.snapshot.generated_at },
    ...(signing.notice === undefined ? {} : { notice: signing.notice }),
    composed: { files: summary.files.filter((f) => check.files.some((c) => c.target === f.target)), context: summary.context[check.agent], size_warnings: summary.size_warnings.filter((w) => w.agent === check.agent) },
    ...(run.backupDir === undefined ? {} : { backup: run.backupDir, backed_up: run.plan.targets.filter((t) => t.backup !== undefined).map((t) => t.target) }),
    capabilities: { ...agentCapabilities(capabilities, check.agent), runs: capabilities.agents[check.agent].runs, digest: capabilities.agents[check.agent].digest },
    consent: consentOf(check.agent, capabilities),
    needs_consent: unanswered && consentOf(check.agent, capabilities).length > 0,
    installed: run.written,
    requirements: requirementsOf.get(unit)?.get(check.agent) ?? null,
    ...(unit.byDefault.held === undefined || version.version === unit.byDefault.held.version ? {} : { held: unit.byDefault.held }),
  }));
}

/** {@link installLoadouts} for one agent. */
export async function installLoadout(options: Omit<InstallOptions, 'agents'> & { agent: Agent }): Promise<InstallOutcome> {
  const [outcome] = await installLoadouts({ ...options, agents: [options.agent] });
  if (outcome === undefined) throw new LoadoutError('internal', 'internal error: an install for one agent returned no outcome');
  return outcome;
}

/**
 * The policy's judgement of `install <id>` before the catalogue is read (`policy-gate.ts`): its
 * catalogues and agents refuse at once (thrown); a refusal by its `loadouts` rules is returned,
 * to be thrown once the catalogue says `id` is a loadout (a bundle's members are judged each).
 */
function judgeId(policy: PolicyInForce | undefined, id: string, catalogue: string, agents: readonly Agent[]): PolicyRefusal | undefined {
  refuseCatalogue(policy, id, catalogue, agents);
  try {
    refuseSource(policy, id, catalogue, agents);
    return undefined;
  } catch (error) {
    if (error instanceof PolicyRefusal) return error;
    throw error;
  }
}

/** One loadout of a run: its id, the agents it is installed for, its versions document (within the installed bundles' ranges), the default version, and the version named for an agent (undefined: the default). */
interface InstallUnit {
  id: string;
  agents: Agent[];
  versions: VersionsDocument;
  byDefault: ReturnType<typeof defaultVersion>;
  named: (agent: Agent, previous: LockEntry | undefined) => string | undefined;
  /** A bundle's member installed already, within the ranges: the version it stays at. */
  kept?: string;
}

/**
 * The loadouts of `install <id>`: the loadout alone, or each member of `bundle` for the agents
 * it is for (`bundles.ts`). A member's versions are those every installed bundle's range and the
 * bundle's own allow; one installed already, in range, stays at its version; one installed out
 * of range, or ranges that do not meet, are refused here, before anything is written.
 */
async function installUnits(options: InstallOptions, lock: LockFile, catalogue: CatalogueReader, source: string, resolved: Awaited<ReturnType<typeof resolveInstallId>>): Promise<InstallUnit[]> {
  const lockPath = join((options.scope ?? projectScope(options.dir)).root, (options.scope ?? projectScope(options.dir)).lockPath);
  const { bundle } = resolved;
  if (bundle === undefined) {
    const { versions } = resolved;
    // A member of an installed bundle is installed within its ranges (one agent's ranges: those of the first agent asked for that has any).
    const ranges = options.agents.map((agent) => rangesFor(bundlesOf(lock), options.id, agent)).find((r) => r.length > 0) ?? [];
    const within = options.version === undefined && options.frozen !== true ? withinRanges(versions, ranges) : versions;
    return [{ id: options.id, agents: [...options.agents], versions: within, byDefault: defaultVersion(options.policy, within), named: (agent, previous) => wantedVersion(options, options.id, agent, previous, lockPath) }];
  }
  const installed = bundlesOf(lock).find((b) => b.id === bundle.id);
  if (installed !== undefined && installed.version !== bundle.version && options.frozen !== true) throw new LoadoutError('usage', `bundle ${bundle.id} ${installed.version} is installed and the catalogue has ${bundle.version} (expected \`loadout update ${bundle.id}\`, which moves it and its members)`);
  const others = bundlesOf(lock).filter((b) => b.id !== bundle.id);
  const mine = lockedBundle(bundle, options.agents, source);
  const members = mine.members.filter((m) => m.agents.length > 0);
  for (const m of members) refuseSource(options.policy, m.id, source, m.agents);
  const docs = await Promise.all(members.map((m) => catalogue.readVersions(m.id)));
  // Every refusal is made before any file is fetched: ranges that do not meet first, then installs out of range.
  const withins = members.map((m, i) => withinRanges(docs[i] as VersionsDocument, m.agents.flatMap((agent) => rangesFor(others, m.id, agent)).filter((r, j, all) => all.findIndex((x) => x.by === r.by) === j), [{ id: m.id, range: m.range, by: `bundle ${bundle.id} ${bundle.version}` }]));
  refuseOutOfRange(lock, [...others, mine], members);
  return members.map((m, i) => {
    const within = withins[i] as VersionsDocument;
    // A member installed already (in range) stays at its version, for the agents it gains too.
    const kept = lock.installs.find((e) => e.id === m.id && within.versions.some((v) => v.version === e.version))?.version;
    return { id: m.id, agents: m.agents, versions: within, byDefault: defaultVersion(options.policy, within), named: (agent, previous) => (options.frozen === true ? wantedVersion(options, m.id, agent, previous, lockPath) : undefined), ...(kept === undefined ? {} : { kept }) };
  });
}

/** The version named for `agent`: `--version`, or the lock's with `--frozen`; undefined when none is (the default is taken). */
function wantedVersion(options: InstallOptions, id: string, agent: Agent, locked: LockEntry | undefined, lockPath: string): string | undefined {
  if (options.frozen !== true) return options.version;
  if (locked === undefined) throw new LoadoutError('usage', `--frozen: ${lockPath} has no install of ${id} for ${agent}`, { hint: 'Install it once without --frozen.' });
  return locked.version;
}
