/**
 * `loadout update` (DESIGN.md section 8: "moves to latest and shows what
 * changes"): moves installs in the lock to the latest version of their catalogue (or `to`).
 * For each it gives, before anything is written, the changelog between the two versions
 * (`changelog.ts`), a unified diff per file with the files added and removed
 * (`unified-diff.ts`), and the change in context cost. Files are planned by
 * `compose/plan.ts`: each loadout's block of a shared Markdown file is replaced in place; a
 * whole file or servers the user changed since the install are kept, with a note, unless
 * `force`; a block the user edited stops the update, with its diff, unless `force` (which
 * copies the file to the backup folder first); `dryRun` writes nothing; the files and the lock
 * are written together (`transaction.ts`). Both versions are read through the checked
 * catalogue reader, and every target, planned or recorded in the lock, passes the rules of
 * `target-rules.ts` (`prepare.ts`).
 *
 * Bundles (issue 56; `bundles.ts`): a member moves to the newest version every installed
 * bundle's range allows; an installed bundle named in `ids` (or every one, with no ids) moves
 * to its catalogue's version, and in the same transaction its members move within its new
 * ranges, the members it adds are installed and those it drops (that nobody else asked for)
 * are removed. Ranges that do not meet, or a `to` outside them, are refused before anything is
 * written (`BundleConflict`). With `agent`, no bundle moves.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { createHash } from 'node:crypto';
import { changelogBetween, compareVersions, type Changelog } from './changelog.js';
import { measureContext, type ContextCost } from '../layout/context-cost.js';
import { fetchVersion, type FetchedVersion } from './catalogue/fetch-version.js';
import type { ManualStep } from '../layout/layout.js';
import type { Conflict, WantedInstall } from './compose/plan.js';
import type { SigningPolicy } from './catalogue/signed-catalogue.js';
import { lockSource } from './install.js';
import { bundleRequest, readLock, requestersOf, withTrust, type LockedBundle, type LockEntry } from './project/lock.js';
import { bundleConflict, bundlesOf, finishBundleLock, lockedBundle, rangesFor, readCatalogueBundle, replaceBundle, withinRanges, type BundleRequestChange } from './bundles.js';
import { satisfiesRange } from '../catalogue/version-ranges.js';
import { checkInstall, type CheckedInstall } from './prepare.js';
import { openScope, type InstallScope } from './project/scope.js';
import { runPlan, summarizeComposed, type ComposedSummary } from './run-plan.js';
import { catalogueOpener } from './run-catalogues.js';
import { unifiedDiff } from './unified-diff.js';
import { decodeText, installedBytesOf, layoutInstall } from '../layout/installed-files.js';
import { recoverInterrupted } from './project/journal.js';
import { agentCapabilities, versionCapabilities } from './capabilities.js';
import { compareCapabilities, type CapabilityChange } from '../capabilities/compare.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { PolicyInForce } from '../policy/policy.js';
import { contentViolations, defaultVersion, refuseSource, refuseVersion, refuseViolations, signedBy, type HeldVersion } from './policy-gate.js';

/** Options of {@link updateLoadouts}. */
export interface UpdateOptions {
  scope: InstallScope;
  /** Loadout or installed bundle ids to update; empty: every install and every bundle in the lock. */
  ids: readonly string[];
  /** Only the installs for this agent. */
  agent?: Agent;
  /** Version to move to; default each catalogue's latest. */
  to?: string;
  /** Read every catalogue from here instead of each lock entry's source. */
  from?: string;
  dryRun?: boolean;
  /** Overwrite files the user changed, and act on targets outside the agent's own locations (with a warning). */
  force?: boolean;
  /** How signatures are treated (`--require-signed`, `--trust-key`; catalogue/signed-catalogue.ts). */
  signing?: SigningPolicy;
  /** The user's yes to updates that add to or widen what a loadout can run (`--accept-capabilities`). `force` does not give it. */
  acceptCapabilities?: boolean;
  /**
   * Called once every update is planned, before anything is written (not on a dry run): each
   * update's capability change, and whether one adds or widens anything without the user's yes
   * yet. The CLI shows the changes and asks; true gives the yes. Without it, such an update stops.
   */
  confirm?: (preview: UpdatePreview) => Promise<boolean>;
  /**
   * The policy the updates hold to (issue 55; `policy-gate.ts`): without `to`, each install moves
   * to the newest version `min_release_age` allows (those held back are listed in `held`); a
   * `to` it holds back must be excepted; an update the policy refuses stops them all.
   */
  policy?: PolicyInForce;
}

/** What {@link UpdateOptions.confirm} is shown. */
export interface UpdatePreview {
  updates: { id: string; agent: Agent; from: string; to: string; capabilities: CapabilityChange }[];
  /** True when an update adds or widens a capability and `acceptCapabilities` was not given. */
  needsConsent: boolean;
}

/**
 * One file of an update. `change` compares the two versions; `action` says what happens to
 * the file in the project: `write`, `keep` (the user changed it: kept, see `note`), `remove`,
 * or `none` (already as wanted, or gone).
 */
export interface FileUpdate {
  target: string;
  path: string;
  change: 'added' | 'removed' | 'modified' | 'unchanged';
  action: 'write' | 'keep' | 'remove' | 'none';
  /** The unified diff between the versions' files (absent for unchanged files). */
  diff?: string;
  note?: string;
}

/** The update of one install. */
export interface LoadoutUpdate {
  id: string;
  agent: Agent;
  source: string;
  from: string;
  to: string;
  changelog: Changelog;
  files: FileUpdate[];
  manual_steps: ManualStep[];
  warnings: { target: string; path: string; message: string }[];
  /** Context cost before and after; `before` is null when the installed version is no longer published. */
  context: { before: ContextCost | null; after: ContextCost };
  /** Why diffs are missing, when they are. */
  diff_unavailable?: string;
  /** What the update changes in what the loadout can run for this agent (`capabilities/compare.ts`); `widens` when it adds or widens anything. */
  capabilities: CapabilityChange;
}

/** What {@link updateLoadouts} did (or, with `dryRun` or conflicts, would do). */
export interface UpdateOutcome {
  updates: LoadoutUpdate[];
  /** Installs already at the wanted version. */
  current: { id: string; agent: Agent; version: string }[];
  /** Members a bundle's new version adds, installed at the newest version in range (issue 56). */
  added: { id: string; agent: Agent; version: string; capabilities: CapabilityChange }[];
  /** Members a bundle's new version no longer has, removed (nobody else asked for them). */
  removed: { id: string; agent: Agent; version: string }[];
  /** The installed bundles that move to a new version (their members move within the new ranges). */
  bundles: { id: string; from: string; to: string }[];
  /** Blocks of shared Markdown files the user edited, which the update would replace: nothing was written (`force` replaces them, after a backup). */
  conflicts: Conflict[];
  /** The shared files, the composed context cost per agent, the vendors' size limits passed (`run-plan.ts`). */
  composed: ComposedSummary;
  /** Where the user's bytes were copied before being overwritten, if any were. */
  backup?: string;
  /** The targets whose bytes were copied there. */
  backed_up?: string[];
  /** True when files and the lock were written. */
  written: boolean;
  /** One-line notices about the catalogues' signing (unsigned, or a key rotation followed). */
  notices: string[];
  /** True when an update adds to or widens what a loadout can run and the user's yes was not given: nothing was written. */
  needs_consent: boolean;
  /** Newer versions the policy's `min_release_age` held back, each with when it becomes eligible (the install moved to an older one, or stayed). */
  held: (HeldVersion & { id: string; agent: Agent })[];
}

/**
 * What moving `entry` to the version whose list is `next` changes in what it can run for its
 * agent: compared with the installed version's list (derived from its files); when that version
 * is no longer published, nothing changed if the lock's digest is the new one, else every item is new.
 */
function capabilityChange(entry: LockEntry, previous: FetchedVersion | undefined, next: Capabilities): CapabilityChange {
  const after = agentCapabilities(next, entry.agent);
  if (previous !== undefined) return compareCapabilities(agentCapabilities(versionCapabilities(previous), entry.agent), after);
  return entry.capabilities?.digest === next.agents[entry.agent].digest ? { widens: false, items: [] } : compareCapabilities(undefined, after);
}

const digest = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : createHash('sha256').update(bytes).digest('hex'));

/**
 * Plans and (unless `dryRun`) applies the updates.
 * @throws ConsumerError `BundleConflict` (ranges that do not meet, `to` outside them);
 *   LoadoutError `usage` (a bad `to`, `to` with a bundle id, an id not in the lock), `not_found` (a version
 *   not published), `invalid_content` (the catalogue, the lock or a target not acceptable),
 *   `io`
 */
export async function updateLoadouts(options: UpdateOptions): Promise<UpdateOutcome> {
  const { scope } = options;
  if (options.to !== undefined && !VERSION_PATTERN.test(options.to)) throw new LoadoutError('usage', `--to is ${JSON.stringify(options.to)} (expected MAJOR.MINOR.PATCH, such as 1.2.0)`);
  const force = options.force === true;
  // A change a killed process left is rolled back (or finished) first (project/journal.ts); a dry run changes nothing.
  const project = await openScope(scope);
  if (options.dryRun !== true) await recoverInterrupted(project, scope.lockPath);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  // Installed bundles named (or all, with no id): each moves to the catalogue's version and its members within the new ranges (issue 56; bundles.ts).
  const installedBundles = bundlesOf(lock);
  // With --agent, no bundle moves (its other agents' members would leave its ranges): its members for that agent move within the ranges.
  const selectedBundles = installedBundles.filter((b) => options.ids.length === 0 || options.ids.includes(b.id));
  const movingBundles = options.agent === undefined ? selectedBundles : [];
  if (options.to !== undefined && selectedBundles.some((b) => options.ids.includes(b.id))) throw new LoadoutError('usage', `--to is given with bundle ${selectedBundles.map((b) => b.id).join(', ')} (expected loadout ids only: a bundle's members move within its ranges)`);
  const memberOfSelected = (e: LockEntry): boolean => selectedBundles.some((b) => requestersOf(e).includes(bundleRequest(b.id)));
  let selected = lock.installs.filter((e) => (options.ids.length === 0 || options.ids.includes(e.id) || memberOfSelected(e)) && (options.agent === undefined || e.agent === options.agent));
  const missing = options.ids.filter((id) => !selected.some((e) => e.id === id) && !selectedBundles.some((b) => b.id === id));
  if (missing.length > 0) throw new LoadoutError('usage', `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed${options.agent === undefined ? '' : ` for ${options.agent}`} (expected ids in ${scope.lockPath}: ${[...new Set([...lock.installs.map((e) => e.id), ...installedBundles.map((b) => b.id)])].join(', ') || 'none'})`);
  const outcome: UpdateOutcome = { updates: [], current: [], added: [], removed: [], bundles: [], conflicts: [], composed: { context: {}, files: [], size_warnings: [] }, written: false, notices: [], needs_consent: false, held: [] };
  // The lock with what each signed catalogue verified now (keys and snapshot time), written with the update.
  let trusted = lock;
  const planned: { entry: LockEntry; next: FetchedVersion; previousVersion: FetchedVersion | undefined; check: CheckedInstall; source: string; changelog: Changelog; capabilities: Capabilities; change: CapabilityChange }[] = [];
  // One reader per catalogue for the whole run: one signed snapshot per catalogue (run-catalogues.ts).
  const catalogueOf = catalogueOpener(lock, options.signing);
  // The bundles after the update: each selected one at the catalogue's version, with its new ranges.
  let bundles: LockedBundle[] = installedBundles;
  for (const b of movingBundles) {
    const source = options.from ?? b.source;
    const record = await readCatalogueBundle(catalogueOf(source), b.id);
    if (record.version !== b.version) outcome.bundles.push({ id: b.id, from: b.version, to: record.version });
    bundles = replaceBundle(bundles, lockedBundle(record, b.agents, lockSource(source)));
  }
  // An install a moving bundle's new version has (the user's own, say) moves with it, within its new ranges.
  const movedMembers = bundles.filter((b) => movingBundles.some((m) => m.id === b.id)).flatMap((b) => b.members.flatMap((m) => m.agents.map((agent) => ({ id: m.id, agent }))));
  selected = [...selected, ...lock.installs.filter((e) => !selected.includes(e) && movedMembers.some((m) => m.id === e.id && m.agent === e.agent))];
  const requests: BundleRequestChange[] = [];
  const removed: LockEntry[] = [];
  // A member a bundle's new version no longer has for the agent loses the bundle; with nobody else asking for it, it goes.
  for (const entry of selected) {
    const dropped = requestersOf(entry).filter((r) => r.startsWith('bundle:') && movingBundles.some((b) => bundleRequest(b.id) === r) && !bundles.some((b) => bundleRequest(b.id) === r && b.members.some((m) => m.id === entry.id && m.agents.includes(entry.agent))));
    if (dropped.length === 0) continue;
    requests.push({ id: entry.id, agent: entry.agent, remove: dropped });
    if (requestersOf(entry).every((r) => dropped.includes(r))) removed.push(entry);
  }
  // A member a bundle's new version adds for one of its agents is installed, within the ranges.
  const added: LockEntry[] = [];
  for (const b of bundles.filter((x) => movingBundles.some((s) => s.id === x.id))) {
    for (const m of b.members) for (const agent of m.agents) {
      if (options.agent !== undefined && agent !== options.agent) continue;
      if (lock.installs.some((e) => e.id === m.id && e.agent === agent)) {
        requests.push({ id: m.id, agent, add: [bundleRequest(b.id)] });
        continue;
      }
      requests.push({ id: m.id, agent, add: [bundleRequest(b.id)] });
      if (!added.some((e) => e.id === m.id && e.agent === agent)) added.push({ id: m.id, agent, version: '', source: b.source, files: [] });
    }
  }
  const removedKeys = new Set(removed.map((e) => `${e.id}\n${e.agent}`));
  for (const entry of [...selected.filter((e) => !removedKeys.has(`${e.id}\n${e.agent}`)), ...added]) {
    const isNew = entry.version === '';
    const source = options.from ?? entry.source;
    const key = lockSource(source);
    refuseSource(options.policy, entry.id, key, [entry.agent]);
    const catalogue = catalogueOf(source);
    // Within every installed bundle's range for it (the new ranges of those that move); ranges that do not meet stop the update here.
    const ranges = rangesFor(bundles, entry.id, entry.agent);
    const published = await catalogue.readVersions(entry.id);
    const doc = withinRanges(published, ranges);
    if (options.to !== undefined) for (const r of ranges) if (!satisfiesRange(options.to, r.range)) throw bundleConflict([`loadout ${entry.id}: --to ${options.to} and ${r.by} asks for ${r.range}`]);
    const signing = await catalogue.signing();
    trusted = withTrust(trusted, key, signing.trust);
    if (signing.notice !== undefined && !outcome.notices.includes(signing.notice)) outcome.notices.push(signing.notice);
    // Under min_release_age the newest version old enough; a --to it holds back must be excepted.
    const byDefault = defaultVersion(options.policy, doc);
    if (options.to === undefined && byDefault.held !== undefined) outcome.held.push({ id: entry.id, agent: entry.agent, ...byDefault.held });
    if (!isNew && options.to === undefined && options.policy !== undefined && (byDefault.version === undefined || compareVersions(byDefault.version, entry.version) <= 0)) {
      outcome.current.push({ id: entry.id, agent: entry.agent, version: entry.version });
      continue;
    }
    const to = refuseVersion(options.policy, doc, options.to ?? byDefault.version, options.to !== undefined, entry.agent);
    if (to === entry.version) {
      outcome.current.push({ id: entry.id, agent: entry.agent, version: to });
      continue;
    }
    const next = await fetchVersion(catalogue, doc, to);
    // The installed version's files, for the diffs and the context before; it may be gone from the catalogue (or, out of the ranges now, left out of `doc`).
    const previousVersion = isNew ? undefined : await fetchVersion(catalogue, published, entry.version).catch((error: unknown) => {
      if (error instanceof LoadoutError && error.code === 'not_found') return undefined;
      throw error;
    });
    const check = await checkInstall({ scope, project, fetched: next, agent: entry.agent, ...(isNew ? {} : { previous: entry }), force, sharing: [...new Set([...lock.installs.filter((e) => e.id === entry.id).map((e) => e.agent), ...added.filter((e) => e.id === entry.id).map((e) => e.agent)])] });
    const capabilities = versionCapabilities(next);
    if (options.policy !== undefined) refuseViolations(options.policy, `the update of ${entry.id} for ${entry.agent} to ${to}`, contentViolations(options.policy, { loadout: entry.id, agent: entry.agent, catalogue: key, signing: signedBy(signing), capabilities: agentCapabilities(capabilities, entry.agent) }));
    planned.push({ entry, next, previousVersion, check, source, changelog: changelogBetween(doc, entry.version, to), capabilities, change: capabilityChange(entry, previousVersion, capabilities) });
  }
  outcome.removed = removed.map((e) => ({ id: e.id, agent: e.agent, version: e.version }));
  if (planned.length === 0 && removed.length === 0 && outcome.bundles.length === 0) return outcome;
  // An update that adds to or widens what a loadout can run waits for the user's yes (issue 54, point 3); --force does not give it.
  const needsConsent = planned.some((p) => p.change.widens) && options.acceptCapabilities !== true;
  let unanswered = needsConsent;
  if (options.dryRun !== true && options.confirm !== undefined) {
    const yes = await options.confirm({ updates: planned.map((p) => ({ id: p.entry.id, agent: p.entry.agent, from: p.entry.version === '' ? '(not installed)' : p.entry.version, to: p.next.version, capabilities: p.change })), needsConsent });
    if (yes) unanswered = false;
  }
  outcome.needs_consent = unanswered;
  const wanted: WantedInstall[] = planned.map(({ entry, next, check, capabilities }) => ({ id: entry.id, agent: entry.agent, version: next.version, source: entry.source, files: check.files, bytes: check.bytes, capabilityDigest: capabilities.agents[entry.agent].digest }));
  const run = await runPlan({ scope, project, operation: 'update', before: trusted, wanted, removed, force, dryRun: options.dryRun === true || unanswered, finishLock: finishBundleLock(trusted, bundles, requests) });
  const targetPlan = new Map(run.plan.targets.map((t) => [t.target, t]));
  for (const { entry, next, previousVersion, check, source, changelog, change } of planned) {
    const to = next.version;
    if (entry.version === '') {
      outcome.added.push({ id: entry.id, agent: entry.agent, version: to, capabilities: change });
      continue;
    }
    // The files as the agent reads them, before and after (rules translated and composed, links
    // rewritten: layout/installed-files.ts), so that a change the agent sees is never "unchanged"
    // (issue 57, point 7: a rule composed into Codex's AGENTS.md).
    const sharing = lock.installs.filter((e) => e.id === entry.id).map((e) => e.agent);
    const previousLayout = previousVersion === undefined ? undefined : layoutInstall(previousVersion, entry.agent, { resolve: scope.resolveTarget, sharing });
    const installedBefore = (path: string, target: string): Uint8Array | undefined => {
      const raw = previousVersion?.bytes.get(path);
      return raw === undefined || previousLayout === undefined ? undefined : installedBytesOf(previousLayout, path, raw, target);
    };
    const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : decodeText(bytes));
    const diffOf = (name: string, before: string | undefined, after: string | undefined): { diff?: string } =>
      before === undefined || after === undefined ? {} : { diff: unifiedDiff(name, before, after, `${entry.id} ${entry.version}`, `${entry.id} ${to}`) };
    const actionOf = (target: string): { action: FileUpdate['action']; note?: string } => {
      const t = targetPlan.get(target);
      return { action: t === undefined ? 'none' : t.action, ...(t?.note === undefined ? {} : { note: t.note }) };
    };
    const files: FileUpdate[] = [];
    for (const file of check.files) {
      const recorded = entry.files.find((f) => f.target === file.target);
      const after = check.bytes(file.path, file.target);
      const before = recorded === undefined ? undefined : installedBefore(recorded.path, recorded.target);
      // Without the installed version's files (no longer published), the lock's hash of what was written says whether it changes.
      const same = before !== undefined ? digest(before) === digest(after) : recorded !== undefined && recorded.kind !== 'servers' && recorded.sha256 === digest(after);
      const fileChange: FileUpdate['change'] = recorded === undefined ? 'added' : same ? 'unchanged' : 'modified';
      const shownBefore = fileChange === 'added' ? '' : text(before);
      files.push({ target: file.target, path: file.path, change: fileChange, ...actionOf(file.target), ...(fileChange === 'unchanged' ? {} : diffOf(file.target, shownBefore, text(after))) });
    }
    for (const file of entry.files) {
      if (check.files.some((f) => f.target === file.target)) continue;
      const { action, note } = actionOf(file.target);
      const why = action === 'keep' && note?.startsWith('changed since it was installed') === true ? 'changed since it was installed: kept, and no longer in the lock' : note === 'another install owns it too' ? 'another install owns it too: kept' : note;
      files.push({ target: file.target, path: file.path, change: 'removed', action, ...diffOf(file.target, text(installedBefore(file.path, file.target)), ''), ...(why === undefined ? {} : { note: why }) });
    }
    outcome.updates.push({
      id: entry.id,
      agent: entry.agent,
      source,
      from: entry.version,
      to,
      changelog,
      files,
      manual_steps: check.manual_steps,
      warnings: check.warnings,
      context: { before: previousVersion === undefined ? null : measureContext(previousVersion.files, entry.agent, previousVersion.text, scope.resolveTarget), after: check.context },
      ...(previousVersion === undefined ? { diff_unavailable: `${entry.id} ${entry.version} is no longer published, so changed files cannot be compared` } : {}),
      capabilities: change,
    });
  }
  outcome.conflicts = run.plan.conflicts;
  outcome.composed = await summarizeComposed(project, run.plan, [...new Set(planned.map((p) => p.entry.agent))]);
  return { ...outcome, written: run.written, ...(run.backupDir === undefined ? {} : { backup: run.backupDir, backed_up: run.plan.targets.filter((t) => t.backup !== undefined).map((t) => t.target) }) };
}
