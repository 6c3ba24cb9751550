/**
 * The one plan of `install`, `update` and `uninstall`: from the lock before, the installs
 * wanted after (each with its version's bytes) and the installs removed, to the lock after and
 * the file changes. Every target is handled by its format (`shared-file.ts`): a whole file has
 * one owner's bytes (or several owners' equal bytes); MCP servers and Markdown blocks are parts
 * of a file the user and other installs share. Bytes of another install or of the user are a
 * part beside ours or a conflict, never replaced silently (DESIGN.md section 8: "a file the user
 * edited is never overwritten without --force").
 *
 * Nothing the user wrote is lost: a file whose bytes no install wrote is copied under the
 * backup folder before it is overwritten or its parts dropped (`backups`); a user's own file an
 * install replaces whole, or whose parts it replaces (with `force`), is recorded in the lock's
 * `originals` and put back when the last install of it goes. Merging into a configuration file
 * or a Markdown file changes nothing of the user's (parts are added and taken out in place), so
 * it needs no copy; what such a file's containers were before the installs is kept in the lock's
 * `containers` (`lock-memos.ts`). Files and folders installs create are recorded in the lock's
 * `created`; the last install needing one removes it (a folder only when empty: `prune`). Pure:
 * the current bytes come in `current`.
 */
import { Buffer } from 'node:buffer';
import { LoadoutError } from '../../catalogue/errors.js';
import type { Agent, Role } from '../../catalogue/vocabulary.js';
import type { FileChange } from '../project/transaction.js';
import type { FileKind, LockEntry, LockFile, LockedFile } from '../project/lock.js';
import { findBlock, parseBlocks } from './markdown-blocks.js';
import { digestOf, formatOf, isEmptyConfig, kindOf, sameConfig, type Contribution } from './shared-file.js';
import { CONTAINERS_FIELD, readContainerMemos, withContainerMemos } from './lock-memos.js';
import { unifiedDiff } from '../unified-diff.js';

/** An install wanted after the plan: a new one, or one replacing the lock's entry of the same (id, agent). */
export interface WantedInstall {
  id: string;
  agent: Agent;
  version: string;
  source: string;
  /** Its files, in the version's order, each with a target. */
  files: { target: string; path: string; role: Role }[];
  /** The version's bytes of a loadout file as installed (at `target`, for a file planned at several: `layout/installed-files.ts`). */
  bytes(path: string, target?: string): Uint8Array | undefined;
  /** The digest of the version's capability list for the agent (`tree-format/capabilities.ts`), recorded in the lock with what the installed files hold (`run-plan.ts`). */
  capabilityDigest?: string;
}

/** Which command plans: `install` stops on bytes of others at a target; `update` keeps a whole file or servers the user changed (with a note); all stop on a changed block. */
export type Operation = 'install' | 'update' | 'uninstall';

/** What the plan needs. */
export interface PlanInput {
  operation: Operation;
  before: LockFile;
  wanted: readonly WantedInstall[];
  removed: readonly { id: string; agent: Agent }[];
  /** The current bytes of every path of {@link pathsToRead} (undefined: no file). */
  current: ReadonlyMap<string, Uint8Array | undefined>;
  force: boolean;
  /** The folder backups go to in this run, relative to the root (e.g. `.loadout/backup/2026-11-25T18-46-44.123Z`). */
  backupDir: string;
}

/** How one loadout's block changes. */
export interface BlockChange {
  id: string;
  version: string;
  change: 'add' | 'replace' | 'remove' | 'keep';
}

/** What happens to one target. */
export interface TargetPlan {
  target: string;
  kind: FileKind;
  /** `write`, `remove`, `none` (already as wanted, or left as it is), `keep` (changed by the user: kept, see `note`). */
  action: 'write' | 'remove' | 'none' | 'keep';
  /** Bytes now and after (shared files; for the dry run and diffs). */
  before?: Uint8Array;
  after?: Uint8Array;
  blocks?: BlockChange[];
  note?: string;
  /** Where the user's bytes were copied before the change. */
  backup?: string;
  /** The backup of the user's own file put back. */
  restored?: string;
}

/** A part that stops the command unless `force`: the user's bytes (or another install's) where the install would write or remove. */
export interface Conflict {
  /** The target's kind: `parts` are servers, a block's loadout id, or the file. */
  kind: FileKind;
  /** True when another install holds the target (not the user). */
  owned?: boolean;
  id: string;
  agent: Agent;
  target: string;
  path: string;
  /** What is in the way: servers by name, a block by loadout id, or the file. */
  parts: string[];
  reason: string;
  /** For a block: the unified diff of the change `force` would make. */
  diff?: string;
}

/** The plan. */
export interface ChangePlan {
  lock: LockFile;
  changes: FileChange[];
  targets: TargetPlan[];
  conflicts: Conflict[];
  /** Folders (and created files) to remove when left empty, after the changes. */
  prune: string[];
}

const keyOf = (e: { id: string; agent: string }): string => `${e.id}\u0000${e.agent}`;
const same = (a: Uint8Array | undefined, b: Uint8Array | undefined): boolean => (a === undefined || b === undefined ? a === b : Buffer.compare(a, b) === 0);
const decoder = new TextDecoder();

/** Every path the plan reads: the targets of the wanted installs and of the lock entries replaced or removed, and the backups of `originals`. */
export function pathsToRead(before: LockFile, wanted: readonly WantedInstall[], removed: readonly { id: string; agent: string }[]): string[] {
  const touched = new Set([...wanted, ...removed].map(keyOf));
  const targets = new Set([...wanted.flatMap((w) => w.files.map((f) => f.target)), ...before.installs.filter((e) => touched.has(keyOf(e))).flatMap((e) => e.files.map((f) => f.target))]);
  for (const [target, backup] of Object.entries(before.originals ?? {})) if (targets.has(target)) targets.add(backup);
  return [...targets];
}

/**
 * Plans the change from `input.before` to the lock with `wanted` in and `removed` out.
 * @throws LoadoutError `invalid_content` when one target would be of two kinds, when the installs
 *   of this run put different whole files at one target, or a loadout file cannot be composed
 *   (a marker line in Markdown, MCP configuration without `mcpServers`), or the lock's
 *   `containers` would write anything but an empty container (`lock-memos.ts`)
 */
export function planChanges(input: PlanInput): ChangePlan {
  const { before, wanted, removed, current, force, operation } = input;
  const touched = new Set([...wanted, ...removed].map(keyOf));
  const after: LockEntry[] = [...before.installs.filter((e) => !touched.has(keyOf(e))).map((e) => ({ ...e, files: [...e.files] })), ...wanted.map((w): LockEntry => ({ id: w.id, agent: w.agent, version: w.version, source: w.source, files: [] }))];
  const entryOf = (key: string): LockEntry | undefined => after.find((e) => keyOf(e) === key);
  const created = new Set(before.created ?? []);
  const originals: Record<string, string> = { ...(before.originals ?? {}) };
  const plan: ChangePlan = { lock: before, changes: [], targets: [], conflicts: [], prune: [] };
  const targets = [...new Set([...before.installs.filter((e) => touched.has(keyOf(e))).flatMap((e) => e.files.map((f) => f.target)), ...wanted.flatMap((w) => w.files.map((f) => f.target))])];
  const memos = readContainerMemos(before, targets);

  for (const target of targets) {
    const records = before.installs.flatMap((entry) => entry.files.filter((f) => f.target === target).map((record) => ({ entry, record })));
    const leaving = records.filter((r) => touched.has(keyOf(r.entry)));
    const staying = records.filter((r) => !touched.has(keyOf(r.entry)));
    const arriving = wanted.flatMap((w) => w.files.filter((f) => f.target === target).map((file) => ({ wanted: w, file })));
    const kinds = new Set([...records.map((r) => r.record.kind), ...arriving.map((a) => kindOf(a.file.role, target))]);
    if (kinds.size > 1) throw new LoadoutError('invalid_content', `${target} would be held as ${[...kinds].join(' and ')} by different installs; nothing was written`, { hint: 'Install the loadouts into different projects.' });
    const kind = [...kinds][0] ?? 'file';
    const format = formatOf(kind);
    const adapter = [...records.map((r) => r.record.role), ...arriving.map((a) => a.file.role)].includes('adapter');
    const now = current.get(target);
    let doc = format.parse(now, adapter, memos[target]);
    const result: TargetPlan = { target, kind, action: 'none' };
    const notes: string[] = [];
    let lost = false;
    const stop = (c: Omit<Conflict, 'target' | 'kind'>): void => void plan.conflicts.push({ ...c, kind, target });
    const blockText = (id: string): string => findBlock(parseBlocks(decoder.decode(now ?? new Uint8Array()), adapter), id)?.body ?? '';

    // 1. Parts of installs that go (not replaced by the same install, not held by another install of the same bytes or block).
    for (const { entry, record } of leaving) {
      if (arriving.some((a) => keyOf(a.wanted) === keyOf(entry))) continue;
      const heldElsewhere = kind === 'file' ? staying.length > 0 || arriving.length > 0 : kind === 'block' ? [...staying.map((s) => s.entry.id), ...arriving.map((a) => a.wanted.id)].includes(entry.id) : false;
      if (heldElsewhere) {
        notes.push('another install owns it too');
        continue;
      }
      const changed = format.state(doc, record, entry.id).state === 'changed';
      const removedPart = format.remove(doc, record, entry.id, force);
      if (removedPart.kept.length > 0) {
        if (kind === 'block') stop({ id: entry.id, agent: entry.agent, path: record.path, parts: removedPart.kept, reason: `your edits inside the ${entry.id} block would be removed with it`, diff: unifiedDiff(target, blockText(entry.id), '', 'yours', `without ${entry.id}`) });
        else notes.push(kind === 'file' ? 'changed since it was installed' : `servers changed since they were installed were kept: ${removedPart.kept.join(', ')}`);
      } else if (changed && force) lost = true;
      doc = removedPart.doc;
    }

    // 2. Parts of the installs wanted.
    const blockRecords = new Map<string, LockedFile>();
    for (const { wanted: w, file } of arriving) {
      const entry = entryOf(keyOf(w));
      if (entry === undefined) continue;
      const bytes = w.bytes(file.path, file.target);
      if (bytes === undefined) throw new LoadoutError('invalid_content', `${w.id} ${w.version} has no file ${file.path}; nothing was written`);
      const known = kind === 'block' ? blockRecords.get(w.id) : undefined;
      if (known !== undefined) {
        entry.files.push({ ...known, path: file.path, role: file.role });
        continue;
      }
      const previous = leaving.find((l) => keyOf(l.entry) === keyOf(w))?.record ?? (kind === 'block' ? records.find((r) => r.entry.id === w.id)?.record : undefined);
      const part: Contribution = { id: w.id, version: w.version, target, path: file.path, role: file.role, bytes, label: `${w.id} ${w.version} ${file.path}` };
      if (kind === 'file') {
        const other = arriving.find((a) => !same(a.wanted.bytes(a.file.path, a.file.target), bytes));
        if (other !== undefined) throw new LoadoutError('invalid_content', `${w.id} ${w.version} and ${other.wanted.id} ${other.wanted.version} put different files at ${target} (for ${w.agent} and ${other.wanted.agent}); nothing was written`, { hint: 'Install or update them one at a time (with --force the last one holds the file), or into different projects.' });
        // Another agent's install of the same loadout holds the loadout's file: it follows (as a block does).
        const owners = staying.filter((s) => s.record.sha256 !== digestOf(bytes) && s.entry.id !== w.id);
        for (const s of staying.filter((o) => o.entry.id === w.id)) {
          const other = entryOf(keyOf(s.entry));
          if (other !== undefined) other.files = other.files.map((f) => (f.target === target ? { ...f, sha256: digestOf(bytes) } : f));
        }
        if (owners.length > 0 && !force) {
          stop({ id: w.id, agent: w.agent, path: file.path, parts: [target], owned: true, reason: `holds the file of ${owners.map((o) => `${o.entry.id} for ${o.entry.agent}`).join(', ')}` });
          continue;
        }
        // With force the file changes hands: the other installs no longer hold it.
        for (const o of owners) {
          const other = entryOf(keyOf(o.entry));
          if (other !== undefined) other.files = other.files.filter((f) => f.target !== target);
        }
      }
      let added = format.add(doc, part, previous, false);
      if (added.conflicts.length > 0 && operation === 'update' && previous !== undefined && kind !== 'block' && !force) {
        entry.files.push(added.record);
        notes.push(kind === 'file' ? 'changed since it was installed: kept (--force overwrites)' : `servers changed since they were installed: ${added.conflicts.join(', ')}: kept (--force overwrites)`);
        continue;
      }
      if (added.conflicts.length > 0 && !force) {
        const foreign = kind === 'file' && now !== undefined && !records.some((r) => r.record.sha256 === digestOf(now));
        stop({
          id: w.id,
          agent: w.agent,
          path: file.path,
          parts: added.conflicts,
          reason: kind === 'servers' ? 'has servers of yours under the loadout\'s names' : kind === 'block' ? `your edits inside the ${w.id} block would be replaced` : foreign ? 'exists with changes of yours' : 'changed since it was installed',
          ...(kind === 'block' ? { diff: unifiedDiff(target, blockText(w.id), decoder.decode(bytes), 'yours', `${w.id} ${w.version}`) } : {}),
        });
        continue;
      }
      if (added.conflicts.length > 0) {
        lost = true;
        added = format.add(doc, part, previous, true);
      }
      doc = added.doc;
      entry.files.push(added.record);
      if (kind === 'block') {
        blockRecords.set(w.id, added.record);
        // The block is the loadout's, whichever agent's install wrote it: every install of it records the same block.
        for (const e of after) if (e.id === w.id) e.files = e.files.map((f) => (f.target === target && f.kind === 'block' ? { ...added.record, path: f.path, role: f.role } : f));
      }
    }
    if (plan.conflicts.some((c) => c.target === target)) continue;

    // 3. The file after.
    let next = format.render(doc);
    const ownedAfter = after.some((e) => e.files.some((f) => f.target === target));
    const memo = ownedAfter ? format.memo?.(doc) : undefined;
    if (memo === undefined) delete memos[target];
    else memos[target] = memo;
    const original = originals[target];
    const firstTouch = records.length === 0 && now !== undefined;
    // A configuration file an install created goes once it holds nothing (its installs' servers gone, nothing of the user's).
    const empty = kind === 'servers' && next !== undefined && isEmptyConfig(decoder.decode(next), target);
    if (empty && created.has(target)) next = undefined;
    if (!ownedAfter && original !== undefined) {
      const old = current.get(original);
      const restorable = kind === 'file' ? next === undefined : next === undefined || empty || sameConfig(decoder.decode(next), old === undefined ? undefined : decoder.decode(old), target);
      if (old !== undefined && restorable) {
        next = old;
        result.restored = original;
        plan.changes.push({ target: original, remove: true });
        plan.prune.push(...parentsOf(original));
      }
      else notes.push(`your own file from before the install is kept in ${original}`);
      delete originals[target];
    }
    if (next === undefined && now !== undefined && !created.has(target) && result.restored === undefined) {
      // Not created by an install: the file was there before (the user's, with the same bytes, or emptied of its blocks).
      next = kind === 'file' ? now : new Uint8Array();
      if (kind === 'file') notes.push('it was there before the install: left');
    }
    if (!same(now, next) && now !== undefined && (lost || (firstTouch && kind === 'file'))) {
      const backup = `${input.backupDir}/${target}`;
      plan.changes.push({ target: backup, bytes: now });
      result.backup = backup;
      if (firstTouch && kind !== 'block') originals[target] = backup;
    }
    if (kind !== 'file') {
      result.blocks = kind === 'block' ? blockChanges(now, next, adapter, after, target) : undefined;
      if (now !== undefined) result.before = now;
      if (next !== undefined) result.after = next;
    }
    if (same(now, next)) {
      if (notes.some((n) => n.startsWith('changed') || n.startsWith('servers'))) result.action = 'keep';
    } else if (next === undefined) {
      result.action = 'remove';
      plan.changes.push({ target, remove: true });
      created.delete(target);
    } else {
      result.action = 'write';
      plan.changes.push({ target, bytes: next });
      if (now === undefined) created.add(target);
    }
    if (notes.length > 0) result.note = [...new Set(notes)].join('; ');
    plan.targets.push(result);
  }

  // Created paths no install needs any more: files kept by the user are theirs now; folders go when empty.
  const needed = after.flatMap((e) => e.files.map((f) => f.target));
  for (const path of [...created]) {
    if (needed.some((t) => t === path || t.startsWith(`${path}/`))) continue;
    created.delete(path);
    if (!plan.changes.some((c) => c.target === path)) plan.prune.push(path);
  }
  for (const target of Object.keys(originals)) if (!needed.includes(target)) delete originals[target];
  const containers = withContainerMemos(before, targets, memos);
  const { created: _c, originals: _o, [CONTAINERS_FIELD]: _m, ...rest } = before;
  const sorted = after.sort((a, b) => (a.id === b.id ? (a.agent < b.agent ? -1 : 1) : a.id < b.id ? -1 : 1));
  plan.lock = { ...rest, lockfileVersion: 1, installs: sorted, created: [...created].sort(), ...(Object.keys(originals).length === 0 ? {} : { originals }), ...(containers === undefined ? {} : { [CONTAINERS_FIELD]: containers }) };
  return plan;
}

/** The folders holding `path`, innermost first (`a/b/c` → `a/b`, `a`). */
function parentsOf(path: string): string[] {
  const segments = path.split('/').slice(0, -1);
  return segments.map((_s, i) => segments.slice(0, segments.length - i).join('/'));
}

/** How each loadout's block changes from `now` to `next`. */
function blockChanges(now: Uint8Array | undefined, next: Uint8Array | undefined, adapter: boolean, after: readonly LockEntry[], target: string): BlockChange[] {
  const blocksOf = (bytes: Uint8Array | undefined): { id: string; version: string; body: string }[] => parseBlocks(decoder.decode(bytes ?? new Uint8Array()), adapter).parts.flatMap((p) => (p.kind === 'block' ? [p] : []));
  const before = blocksOf(now);
  const afterBlocks = blocksOf(next);
  const owned = new Set(after.filter((e) => e.files.some((f) => f.target === target)).map((e) => e.id));
  const changes: BlockChange[] = afterBlocks.map((b) => {
    const old = before.find((o) => o.id === b.id);
    return { id: b.id, version: b.version, change: old === undefined ? 'add' : old.body === b.body && old.version === b.version ? 'keep' : 'replace' };
  });
  for (const b of before) if (!afterBlocks.some((a) => a.id === b.id)) changes.push({ id: b.id, version: b.version, change: 'remove' });
  return changes.filter((c) => c.change !== 'keep' || owned.has(c.id));
}
