/**
 * `loadout install`: puts one version of a loadout into a project for one agent, from a
 * catalogue URL or a built tree. Every file is checked against the sha256 its version
 * publishes before anything is written; nothing is written when a target holds bytes the
 * user changed (unless `force`); the install is recorded in `loadout.lock.json`
 * (DESIGN.md sections 2 and 8). The catalogue is not trusted: its documents are checked as
 * they are read (`catalogue-reader.ts`), and every install target is checked against the
 * rules of `target-rules.ts` before anything is written.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sha256 } from '../build/record.js';
import { LoadoutError } from '../catalogue/errors.js';
import type { FileEntry } from '../catalogue/manifest.js';
import { decodeUtf8 } from '../catalogue/source.js';
import { SLUG_PATTERN, VERSION_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { applyInstallPlan } from './apply.js';
import { openCatalogue } from './catalogue-reader.js';
import type { ManualStep } from './layout.js';
import { LOCK_FILE, lockedHash, readLock, writeLock, type LockEntry } from './lock.js';
import { resolveInstallPlan, type InstallPlan } from './plan.js';
import { describeAgentLocations, describeLandingProblem, describeTargetProblem, isAgentLocation, realProjectRoot } from './target-rules.js';

/** Options of {@link installLoadout}. */
export interface InstallOptions {
  /** Catalogue base URL (`https://…`) or built tree folder. */
  from: string;
  id: string;
  agent: Agent;
  /** Project folder. */
  dir: string;
  /** Version to install; default the latest (or the locked one with `frozen`). */
  version?: string;
  /** Install exactly the version in `loadout.lock.json`. */
  frozen?: boolean;
  /** Plan only; write nothing. */
  dryRun?: boolean;
  /** Overwrite targets the user changed, and write targets outside the agent's own locations (with a warning). */
  force?: boolean;
}

/** What an install did (or, with `dryRun` or conflicts, would do). */
export interface InstallOutcome {
  id: string;
  agent: Agent;
  version: string;
  source: string;
  files: { path: string; target: string }[];
  manual_steps: ManualStep[];
  /** Targets that hold bytes neither this version nor the lock knows: nothing was written. */
  conflicts: { target: string; path: string }[];
  /** Targets outside the agent's own locations, written only because of `force`; `message` says where and what was expected. */
  warnings: { target: string; path: string; message: string }[];
  written: string[];
  unchanged: string[];
  /** True when files were written and the lock updated. */
  installed: boolean;
}

/**
 * Installs. @throws LoadoutError `not_found` (loadout, version or file missing), `usage`
 * (an id or version of the wrong form, `frozen` with no lock entry), `invalid_content` (a
 * file fails its sha256, the catalogue's documents or addresses are not acceptable, an
 * install target breaks a rule of `target-rules.ts`, or the version cannot be installed),
 * `io`.
 */
export async function installLoadout(options: InstallOptions): Promise<InstallOutcome> {
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id, a lowercase slug such as nextjs-app-router)`);
  if (options.version !== undefined && !VERSION_PATTERN.test(options.version)) throw new LoadoutError('usage', `--version is ${JSON.stringify(options.version)} (expected MAJOR.MINOR.PATCH, such as 1.2.0)`);
  const catalogue = openCatalogue(options.from);
  const dir = resolve(options.dir);
  const lock = await readLock(dir);
  let wanted = options.version;
  if (options.frozen === true) {
    const locked = lock.installs.find((e) => e.id === options.id && e.agent === options.agent);
    if (locked === undefined) throw new LoadoutError('usage', `--frozen: loadout.lock.json has no install of ${options.id} for ${options.agent}`, { hint: 'Install it once without --frozen.' });
    if (typeof locked.version !== 'string' || !VERSION_PATTERN.test(locked.version)) {
      throw new LoadoutError('invalid_content', `${join(dir, LOCK_FILE)}: the install of ${options.id} for ${options.agent} has version ${JSON.stringify(locked.version)} (expected MAJOR.MINOR.PATCH)`, { hint: 'Fix or delete the entry; it is rewritten on the next install.' });
    }
    wanted = locked.version;
  }
  const versions = await catalogue.readVersions(options.id);
  const version = wanted ?? versions.latest;
  const entry = versions.versions.find((v) => v.version === version);
  if (entry === undefined) {
    throw new LoadoutError('not_found', `${options.id} has no version ${version} (published: ${versions.versions.map((v) => v.version).join(', ')})`);
  }
  const unplaceable = entry.files.find((f) => f.role === null);
  if (unplaceable !== undefined) throw new LoadoutError('invalid_content', `${options.id} ${version} cannot be installed: its manifest was not valid, so ${unplaceable.path} has no role`);

  const bytes = new Map<string, Uint8Array>();
  await Promise.all(
    entry.files.map(async (f) => {
      const data = await catalogue.readRaw(options.id, version, f.path);
      if (sha256(data) !== f.sha256) {
        throw new LoadoutError('invalid_content', `${options.id} ${version} ${f.path} does not match its published sha256 (expected ${f.sha256})`, { hint: 'The catalogue or a proxy changed the file; do not install it.' });
      }
      bytes.set(f.path, data);
    }),
  );
  const entries = entry.files.map((f) => ({ path: f.path, role: f.role, description: f.path, ...(f.agent === null ? {} : { agent: f.agent }), ...(f.skill === null ? {} : { skill: f.skill }), ...(f.install_to === undefined ? {} : { install_to: f.install_to }) }) as FileEntry);
  const plan = resolveInstallPlan(entries, options.agent, (p) => decodeUtf8(bytes.get(p) ?? new Uint8Array()));
  const warnings = await checkTargets(plan, dir, `${options.id} ${version}`, options.force === true);

  const conflicts: InstallOutcome['conflicts'] = [];
  for (const { entry: file, target } of plan.files) {
    const absolute = resolve(dir, target);
    const existing = await readFile(absolute).catch(() => undefined);
    if (existing === undefined || options.force === true) continue;
    const hash = sha256(existing);
    // The same bytes, or bytes a previous install wrote and nobody changed since: safe to replace.
    if (hash !== sha256(bytes.get(file.path) ?? new Uint8Array()) && hash !== lockedHash(lock, target)) conflicts.push({ target, path: file.path });
  }

  const outcome: InstallOutcome = {
    id: options.id,
    agent: options.agent,
    version,
    source: catalogue.location,
    files: plan.files.map((f) => ({ path: f.entry.path, target: f.target })),
    manual_steps: plan.manual_steps,
    conflicts,
    warnings,
    written: [],
    unchanged: [],
    installed: false,
  };
  if (conflicts.length > 0 || options.dryRun === true) return outcome;

  const applied = await applyInstallPlan(plan, (p) => bytes.get(p), dir, { force: true });
  if (applied.failures.length > 0) {
    const first = applied.failures[0];
    throw new LoadoutError('io', `cannot write ${first?.target ?? ''}: ${first?.message ?? ''}${applied.failures.length > 1 ? ` (and ${applied.failures.length - 1} more)` : ''}`);
  }
  const lockEntry: LockEntry = {
    id: options.id,
    agent: options.agent,
    version,
    source: catalogue.location,
    files: plan.files.map((f) => ({ target: f.target, path: f.entry.path, sha256: sha256(bytes.get(f.entry.path) ?? new Uint8Array()) })),
  };
  await writeLock(dir, lock, lockEntry);
  return { ...outcome, written: applied.written, unchanged: applied.unchanged, installed: true };
}

/**
 * Checks every install target of `plan` and the lock file against the rules of
 * `target-rules.ts`, before anything is written; `loadout` (`<id> <version>`) names the
 * version in messages.
 * @returns the targets outside the agent's own locations, when `force` lets them be written
 * @throws LoadoutError `invalid_content` naming the file entry, its target and what was
 *   expected: for a target of the wrong form, in `.git`, or landing outside the project or
 *   in `.git` through a symbolic link (even with `force`); for a target outside the agent's
 *   own locations without `force`
 */
async function checkTargets(plan: InstallPlan, dir: string, loadout: string, force: boolean): Promise<InstallOutcome['warnings']> {
  const root = await realProjectRoot(dir);
  const refused: string[] = [];
  const elsewhere: InstallOutcome['warnings'] = [];
  for (const { entry, target } of plan.files) {
    const overridden = entry.install_to !== undefined && Object.hasOwn(entry.install_to, plan.agent);
    const named = `file entry ${JSON.stringify(entry.path)} of ${loadout}: its ${plan.agent} target ${JSON.stringify(target)}${overridden ? ` (install_to.${plan.agent})` : ''}`;
    const problem = describeTargetProblem(target) ?? (await describeLandingProblem(root, target));
    if (problem !== undefined) refused.push(`${named} ${problem}`);
    else if (!isAgentLocation(entry.role, plan.agent, target)) {
      elsewhere.push({ target, path: entry.path, message: `${named} is outside ${plan.agent}'s own locations (expected ${describeAgentLocations(entry.role, plan.agent)})` });
    }
  }
  const lockProblem = await describeLandingProblem(root, LOCK_FILE);
  if (lockProblem !== undefined) refused.push(`the lock file ${LOCK_FILE} ${lockProblem}`);
  const more = (list: readonly unknown[]): string => (list.length > 1 ? ` (and ${list.length - 1} more)` : '');
  if (refused.length > 0) throw new LoadoutError('invalid_content', `${refused[0] ?? ''}${more(refused)}; nothing was written`, { hint: 'The catalogue or the project is not safe to install into; --force does not change this.' });
  if (elsewhere.length > 0 && !force) throw new LoadoutError('invalid_content', `${elsewhere[0]?.message ?? ''}${more(elsewhere)}; nothing was written`, { hint: 'Check the loadout; --force installs it anyway, with a warning for each such file.' });
  return elsewhere;
}
