/**
 * `loadout update` (issue 12 point 2; DESIGN.md section 8: "moves to latest and shows what
 * changes"): moves installs in the lock to the latest version of their catalogue (or `to`).
 * For each it gives, before anything is written, the changelog between the two versions
 * (`changelog.ts`), a unified diff per file with the files added and removed
 * (`unified-diff.ts`), and the change in context cost. A file the user changed since the
 * install is kept, with a note, unless `force`; `dryRun` writes nothing; the files and the
 * lock are written together (`transaction.ts`). Both versions are read through the checked
 * catalogue reader, and every target, planned or recorded in the lock, passes the rules of
 * `target-rules.ts` (`prepare.ts`).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { openCatalogue } from './catalogue/catalogue-reader.js';
import { changelogBetween, type Changelog } from './changelog.js';
import { measureContext, type ContextCost } from '../layout/context-cost.js';
import { fetchVersion } from './catalogue/fetch-version.js';
import { lockSource, withCreatedFolders } from './install.js';
import type { ManualStep } from '../layout/layout.js';
import { readLock, withEntries, withTrust, type LockEntry } from './project/lock.js';
import type { SigningPolicy } from './catalogue/signed-catalogue.js';
import { currentBytesReader, prepareInstall } from './prepare.js';
import type { InstallScope } from './project/scope.js';
import { applyChanges, foldersToCreate, type FileChange } from './project/transaction.js';
import { unifiedDiff } from './unified-diff.js';

/** Options of {@link updateLoadouts}. */
export interface UpdateOptions {
  scope: InstallScope;
  /** Loadout ids to update; empty: every install in the lock. */
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
}

/** What {@link updateLoadouts} did (or, with `dryRun`, would do). */
export interface UpdateOutcome {
  updates: LoadoutUpdate[];
  /** Installs already at the wanted version. */
  current: { id: string; agent: Agent; version: string }[];
  /** True when files and the lock were written. */
  written: boolean;
  /** One-line notices about the catalogues' signing (unsigned, or a key rotation followed). */
  notices: string[];
}

const encoder = new TextEncoder();

/**
 * Plans and (unless `dryRun`) applies the updates.
 * @throws LoadoutError `usage` (a bad `to`, an id not in the lock), `not_found` (a version
 *   not published), `invalid_content` (the catalogue, the lock or a target not acceptable),
 *   `io`
 */
export async function updateLoadouts(options: UpdateOptions): Promise<UpdateOutcome> {
  const { scope } = options;
  if (options.to !== undefined && !VERSION_PATTERN.test(options.to)) throw new LoadoutError('usage', `--to is ${JSON.stringify(options.to)} (expected MAJOR.MINOR.PATCH, such as 1.2.0)`);
  const force = options.force === true;
  const lock = await readLock(scope.root, scope.lockPath);
  const selected = lock.installs.filter((e) => (options.ids.length === 0 || options.ids.includes(e.id)) && (options.agent === undefined || e.agent === options.agent));
  const missing = options.ids.filter((id) => !selected.some((e) => e.id === id));
  if (missing.length > 0) throw new LoadoutError('usage', `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed${options.agent === undefined ? '' : ` for ${options.agent}`} (expected ids in ${scope.lockPath}: ${[...new Set(lock.installs.map((e) => e.id))].join(', ') || 'none'})`);

  const pending = new Map<string, Uint8Array | null>();
  const current = currentBytesReader(scope.root, pending);
  const outcome: UpdateOutcome = { updates: [], current: [], written: false, notices: [] };
  let trusted = lock;
  const changes = new Map<string, FileChange>();
  const entries: LockEntry[] = [];
  for (const entry of selected) {
    const source = options.from ?? entry.source;
    const key = lockSource(source);
    const catalogue = openCatalogue(source, { ...options.signing, ...(lock.trust?.[key] === undefined ? {} : { pinned: lock.trust[key] }) });
    const doc = await catalogue.readVersions(entry.id);
    const signing = await catalogue.signing();
    trusted = withTrust(trusted, key, signing.trust);
    if (signing.notice !== undefined && !outcome.notices.includes(signing.notice)) outcome.notices.push(signing.notice);
    const to = options.to ?? doc.latest;
    if (to === entry.version) {
      outcome.current.push({ id: entry.id, agent: entry.agent, version: to });
      continue;
    }
    const next = await fetchVersion(catalogue, doc, to);
    // The installed version's files, for the diffs and the context before; it may be gone from the catalogue.
    const previousVersion = await fetchVersion(catalogue, doc, entry.version).catch((error: unknown) => {
      if (error instanceof LoadoutError && error.code === 'not_found') return undefined;
      throw error;
    });
    const prepared = await prepareInstall({ scope, fetched: next, agent: entry.agent, lock, previous: entry, force, current });
    const oldText = (path: string): string | undefined => (previousVersion === undefined ? undefined : previousVersion.text(path));
    const diffOf = (name: string, before: string | undefined, after: string | undefined): { diff?: string } =>
      before === undefined || after === undefined ? {} : { diff: unifiedDiff(name, before, after, `${entry.id} ${entry.version}`, `${entry.id} ${to}`) };

    const files: FileUpdate[] = [];
    for (const file of prepared.files) {
      const recorded = entry.files.find((f) => f.target === file.target);
      const change: FileUpdate['change'] = recorded === undefined ? 'added' : recorded.sha256 === file.locked.sha256 ? 'unchanged' : 'modified';
      const kept = file.state === 'changed' && !force;
      const action: FileUpdate['action'] = kept ? 'keep' : file.state === 'same' ? 'none' : 'write';
      const note = kept ? (file.conflictingServers === undefined ? 'changed since it was installed: kept (--force overwrites)' : `servers changed since they were installed: ${file.conflictingServers.join(', ')}: kept (--force overwrites)`) : undefined;
      const before = change === 'added' ? '' : oldText(recorded?.path ?? file.path);
      files.push({ target: file.target, path: file.path, change, action, ...(change === 'unchanged' ? {} : diffOf(file.target, before, next.text(file.path))), ...(note === undefined ? {} : { note }) });
      if (action === 'write') {
        pending.set(file.target, file.bytes);
        changes.set(file.target, { target: file.target, bytes: file.bytes });
      }
    }
    for (const removal of prepared.removals) {
      const action: FileUpdate['action'] = removal.state === 'remove' ? 'remove' : removal.state === 'changed' ? (removal.revert === undefined ? 'keep' : 'write') : 'none';
      const note = removal.state === 'changed' ? 'changed since it was installed: kept, and no longer in the lock' : removal.state === 'shared' ? 'another install owns it too: kept' : removal.state === 'missing' ? 'already gone' : undefined;
      files.push({ target: removal.target, path: removal.path, change: 'removed', action, ...diffOf(removal.target, oldText(removal.path), ''), ...(note === undefined ? {} : { note }) });
      if (action === 'remove' || action === 'write') {
        const text = removal.revert?.text;
        const change: FileChange = removal.revert !== undefined && text !== undefined ? { target: removal.target, bytes: encoder.encode(text) } : { target: removal.target, remove: true };
        pending.set(removal.target, 'bytes' in change ? change.bytes : null);
        changes.set(removal.target, change);
      }
    }
    entries.push({ id: entry.id, agent: entry.agent, version: to, source: entry.source, files: prepared.files.map((f) => f.locked), ...(entry.folders === undefined ? {} : { folders: entry.folders }) });
    outcome.updates.push({
      id: entry.id,
      agent: entry.agent,
      source,
      from: entry.version,
      to,
      changelog: changelogBetween(doc, entry.version, to),
      files,
      manual_steps: prepared.manual_steps,
      warnings: prepared.warnings,
      context: { before: previousVersion === undefined ? null : measureContext(previousVersion.files, entry.agent, previousVersion.text, scope.resolveTarget), after: prepared.context },
      ...(previousVersion === undefined ? { diff_unavailable: `${entry.id} ${entry.version} is no longer published, so changed files cannot be compared` } : {}),
    });
  }
  if (options.dryRun === true || outcome.updates.length === 0) return outcome;

  const created = await foldersToCreate(scope.root, [...changes.values()].filter((c) => 'bytes' in c).map((c) => c.target));
  const finalEntries = entries.map((e) => withCreatedFolders(e, created));
  await applyChanges(scope.root, [...changes.values()], withEntries(trusted, finalEntries), scope.lockPath);
  return { ...outcome, written: true };
}
