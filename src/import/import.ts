/**
 * `loadout import <path> [--id ID] [--dry-run]` (DESIGN.md section 8; docs/authoring.md, "Importing
 * what you have"): makes `loadouts/<id>/` from content in the formats people already have, keeping
 * every imported file's bytes, then runs the ten checks on it.
 *
 * The formats, tried in this order, each taking the files it knows (one file each in this
 * folder): a Claude Code plugin (claude-plugin.ts), Agent Skills folders (agent-skills.ts),
 * an `AGENTS.md` (agents-md.ts), Copilot instructions (copilot.ts), Copilot and Claude Code
 * agent files (agent-files.ts), Cursor rules (cursor-rules.ts). Anything else is left out
 * and listed.
 *
 * Paths are hostile input: the source is read by source-tree.ts (links out of it, `.git`,
 * odd names refused); every path written is a normalised relative path with no `.git`
 * segment, joined below `loadouts/<id>/`, which must not exist (nothing is ever overwritten:
 * the folder is created with a plain `mkdir` and each file with the `wx` flag).
 */
import type { Policy } from '../policy/policy.js';
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { describePathProblem } from '../catalogue/file-path.js';
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import { loadoutsDirOf, readLoadoutSource } from '../catalogue/source.js';
import { SLUG_PATTERN, type Licence } from '../catalogue/vocabulary.js';
import { runChecks, type CheckRun } from '../verify/run.js';
import { agentFiles } from './agent-files.js';
import { agentSkills } from './agent-skills.js';
import { agentsMd } from './agents-md.js';
import { assembleLoadout, type AssembledLoadout } from './assemble.js';
import { claudePlugin } from './claude-plugin.js';
import { copilotInstructions } from './copilot.js';
import { cursorRules } from './cursor-rules.js';
import { findLicenceFile, gitOriginOf, licenceOfId, type FoundLicence } from './metadata.js';
import { frontMatterOf, slugify, type FoundMetadata, type ImportedFile, type SourceFormat } from './parts.js';
import { readSourceTree, type SkippedSource } from './source-tree.js';

/** The formats in the order they take files. */
export const SOURCE_FORMATS: readonly SourceFormat[] = [claudePlugin, agentSkills, agentsMd, copilotInstructions, agentFiles, cursorRules];

/** What the command can start from, for messages. */
export const IMPORTABLE =
  'an Agent Skills folder (SKILL.md and its files) or a folder of them, Copilot instructions (*.instructions.md, .github/copilot-instructions.md), Copilot or Claude Code agent files (*.agent.md, .claude/agents/*.md), Cursor rules (*.mdc), a Claude Code plugin (.claude-plugin/plugin.json), or an AGENTS.md';

/** Options of {@link importLoadout}. */
export interface ImportOptions {
  /** Catalogue root (holds `loadouts/`). */
  root: string;
  /** The folder or file to import. */
  source: string;
  /** The loadout id; default: from the plugin's, the single skill's or the folder's name. */
  id?: string;
  /** Write nothing; check the loadout in memory. */
  dryRun: boolean;
  /** `YYYY-MM-DD`, for `last_checked`. */
  today: string;
  /** The author to credit (`author.name`) when the source names none; without either, the placeholder that the `listing` check refuses. */
  author?: string;
  /** A maintainer's policy the checks hold the loadout to (verify/run.ts `RunChecksOptions.policy`). */
  policy?: Policy;
}

/** What an import did. */
export interface ImportResult {
  id: string;
  /** `loadouts/<id>`. */
  dir: string;
  written: boolean;
  /** Every file of the loadout: its path, role, and the source file it copies (none when generated). */
  files: { path: string; role: string; from: string | undefined }[];
  /** Source files left out, and why. */
  skipped: SkippedSource[];
  /** What the author must still fill in or decide. */
  todo: string[];
  /** The ten checks on the loadout as written (or, with `dryRun`, as it would be). */
  run: CheckRun;
  manifestText: string;
}

/**
 * Imports `options.source` as a new loadout.
 * @throws LoadoutError `usage` for an `id` that is not a slug; `not_found` when the source
 *   or `loadouts/` does not exist; `invalid_content` when the source holds nothing
 *   importable, or `loadouts/<id>` exists already (nothing is written then).
 */
export async function importLoadout(options: ImportOptions): Promise<ImportResult> {
  if (options.id !== undefined && !SLUG_PATTERN.test(options.id)) {
    throw new LoadoutError('usage', `--id is ${JSON.stringify(options.id)} (expected a slug: lowercase letters and digits in groups separated by single hyphens)`);
  }
  // A SKILL.md names its folder: the skill is the folder.
  const start = basename(options.source) === 'SKILL.md' ? dirname(options.source) : options.source;
  const tree = await readSourceTree(start);

  const claimed = new Set<string>();
  const files: ImportedFile[] = [];
  const skipped: SkippedSource[] = [...tree.skipped];
  const todo: string[] = [];
  let metadata: FoundMetadata = {};
  for (const format of SOURCE_FORMATS) {
    const outcome = format.read(tree, claimed);
    for (const path of outcome.claimed) claimed.add(path);
    files.push(...outcome.files);
    skipped.push(...outcome.notes);
    todo.push(...outcome.todo);
    metadata = { ...metadata, ...outcome.metadata };
  }
  const git = await gitOriginOf(tree.root);
  const licenceFile = await findLicenceFile(tree.root, git?.root);
  for (const file of tree.files) {
    if (claimed.has(file.path)) continue;
    const isLicence = licenceFile !== undefined && join(tree.root, ...file.path.split('/')) === licenceFile.file;
    skipped.push({ path: file.path, reason: isLicence ? 'was read for the licence only' : `is in no format loadout import reads (expected ${IMPORTABLE})` });
  }
  if (files.length === 0) {
    throw new LoadoutError('invalid_content', `${options.source}: found nothing to import`, { hint: `Point loadout import at ${IMPORTABLE}.` });
  }

  const licence = pickLicence(metadata, files, licenceFile);
  // One file imported: named after it without its format's suffix (`ansible.instructions.md` → `ansible`).
  const sourceName = tree.single?.replace(/(?:\.instructions|\.agent)?\.(?:md|mdc)$/iu, '') ?? tree.name;
  const skillNames = files.filter((f) => f.entry.role === 'skill').map((f) => f.entry.skill ?? '');
  const id = options.id ?? slugify(metadata.name ?? (skillNames.length === 1 && tree.single === undefined ? (skillNames[0] ?? sourceName) : sourceName));
  const assembled = assembleLoadout({ id, sourceName, files, metadata, licence, git, today: options.today, ...(options.author === undefined ? {} : { author: options.author }) });
  todo.unshift(...assembled.todo);

  const loadoutsDir = loadoutsDirOf(options.root);
  if (options.dryRun) await refuseExisting(loadoutsDir, id);
  else await writeLoadoutFolder(loadoutsDir, id, assembled);
  // The checks of `loadout verify`, on what was written (or, dry, on the same in memory).
  const checked = options.dryRun ? assembled.source : await readLoadoutSource(loadoutsDir, id);
  const run = await runChecks(checked, { fixturesDir: join(options.root, 'fixtures'), ...(options.policy === undefined ? {} : { policy: options.policy }) });
  return {
    id,
    dir: `loadouts/${id}`,
    written: !options.dryRun,
    files: assembled.files.map((f) => ({ path: f.entry.path, role: f.entry.role, from: f.from })),
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    todo,
    run,
    manifestText: assembled.manifestText,
  };
}

/** The licence: `plugin.json`'s `license`, else a `license` every SKILL.md that has one agrees on, else the licence file's. Pure. */
function pickLicence(metadata: FoundMetadata, files: readonly ImportedFile[], file: FoundLicence | undefined): { licence: Licence; from: string } | undefined {
  const fromPlugin = metadata.license === undefined ? undefined : licenceOfId(metadata.license);
  if (fromPlugin !== undefined) return { licence: fromPlugin, from: '.claude-plugin/plugin.json' };
  const declared = new Set<string>();
  for (const f of files) {
    if (f.entry.role !== 'skill') continue;
    const value = frontMatterOf({ path: f.entry.path, bytes: f.bytes })['license'];
    if (typeof value === 'string') declared.add(value);
  }
  const [only] = declared;
  const fromFrontMatter = declared.size === 1 && only !== undefined ? licenceOfId(only) : undefined;
  if (fromFrontMatter !== undefined) return { licence: fromFrontMatter, from: 'the SKILL.md front matter' };
  return file?.licence === undefined ? undefined : { licence: file.licence, from: file.file };
}

/** @throws LoadoutError `invalid_content` when `loadouts/<id>` exists (a folder, a file or a link). */
async function refuseExisting(loadoutsDir: string, id: string): Promise<void> {
  const existing = await lstat(join(loadoutsDir, id)).catch(() => undefined);
  if (existing !== undefined) throw new LoadoutError('invalid_content', `loadouts/${id} exists already; nothing was written`, { hint: 'Pick another id with --id, or remove the existing loadout first.' });
}

/**
 * Writes the loadout below `loadouts/<id>/`, which must not exist. Each path must be a
 * normalised relative path without a `.git` segment, and land inside the new folder.
 * @throws LoadoutError `not_found` without `loadouts/`; `invalid_content` when the folder
 *   exists; `internal` for a path that would leave it (a bug: the formats build the paths).
 */
async function writeLoadoutFolder(loadoutsDir: string, id: string, loadout: AssembledLoadout): Promise<void> {
  const base = await realpath(loadoutsDir).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${loadoutsDir}: no loadouts folder`, { cause, hint: 'Run the command at the catalogue root, or pass --root.' });
  });
  await refuseExisting(base, id);
  const dir = join(base, id);
  // Not recursive: fails when another process made the folder since the check.
  await mkdir(dir).catch((cause: unknown) => {
    throw new LoadoutError('invalid_content', `loadouts/${id} exists already; nothing was written`, { cause, hint: 'Pick another id with --id.' });
  });
  const writes: [string, Uint8Array | string][] = [[MANIFEST_FILE, loadout.manifestText], ...loadout.files.map((f): [string, Uint8Array] => [f.entry.path, f.bytes])];
  for (const [path, data] of writes) {
    const problem = describePathProblem(path) ?? (path.split('/').some((s) => s.toLowerCase() === '.git') ? 'has a .git segment' : undefined);
    const file = join(dir, ...path.split('/'));
    if (problem !== undefined || !file.startsWith(dir + sep)) throw new LoadoutError('internal', `refused to write ${JSON.stringify(path)} in loadouts/${id}: the path ${problem ?? 'leaves the folder'}`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, data, { flag: 'wx' });
  }
}
