/**
 * Checking a repository of plain Agent Skills folders, which has no `loadouts/` (the verify
 * Action, docs/authoring.md "Checking in GitHub Actions"): each folder holding a `SKILL.md` is
 * imported as `loadout import --dry-run` would import it (import.ts: nothing is written) and the
 * ten checks run on the loadout that makes. Every file the import copies keeps its bytes, so a
 * finding on it is a finding on the skill's own file at the same line; a finding on a file the
 * import generates (`loadout.yaml`, the adapters) is told on the skill's `SKILL.md`.
 *
 * Folders are found as the import reads a source (source-tree.ts `isEnteredFolder`): `.git`,
 * `node_modules` and dot folders other than the agents' own are not entered, links are not
 * followed, and a skill folder's subfolders are its own files, not more skills.
 */
import type { Policy } from '../policy/policy.js';
import { mkdtemp, mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { CheckRun } from '../verify/run.js';
import { importLoadout } from './import.js';
import { isEnteredFolder } from './source-tree.js';

/** The file that makes a folder an Agent Skills folder (agentskills.io, "Specification"). */
const SKILL_FILE = 'SKILL.md';

/** One skills folder and how its loadout checks. */
export interface CheckedSkillFolder {
  /** The folder, relative to `repository`, `/`-separated (`''` for the repository itself). */
  folder: string;
  /** The checks on the loadout the import makes of it. */
  run: CheckRun;
  /**
   * Each file of that loadout that copies a file of the folder: its path in the loadout →
   * the copied file's path relative to `repository`, `/`-separated.
   */
  sources: Map<string, string>;
}

/** Options of {@link checkSkillFolders}. */
export interface CheckSkillFoldersOptions {
  /** The repository's root: paths are given relative to it. */
  repository: string;
  /** Where to look for skills folders (the repository, or a folder in it). */
  path: string;
  /** `YYYY-MM-DD`, the imported manifests' `last_checked`. */
  today: string;
  /** The author to credit when the git remote names no GitHub owner (import.ts `author`). */
  author?: string;
  /** A maintainer's policy the checks hold each imported loadout to. */
  policy?: Policy;
}

/**
 * The skills folders below `options.path` (itself included), sorted by path: each folder that
 * holds a regular file `SKILL.md`, whose subfolders are then not searched.
 */
export async function findSkillFolders(path: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === SKILL_FILE)) {
      found.push(dir);
      return;
    }
    const folders = entries.filter((e) => e.isDirectory() && e.name.toLowerCase() !== '.git' && isEnteredFolder(e.name)).map((e) => e.name);
    for (const name of folders.sort()) await walk(join(dir, name));
  };
  await walk(path);
  return found;
}

/**
 * Imports each skills folder below `options.path` into a temporary catalogue, writing nothing
 * (`dryRun`), and runs the checks on it; folders in path order. Empty when there is none.
 * @throws LoadoutError as importLoadout does for a folder it cannot read (`not_found`, `invalid_content`)
 */
export async function checkSkillFolders(options: CheckSkillFoldersOptions): Promise<CheckedSkillFolder[]> {
  const folders = await findSkillFolders(options.path);
  if (folders.length === 0) return [];
  const catalogue = await mkdtemp(join(tmpdir(), 'loadout-skills-'));
  try {
    await mkdir(join(catalogue, 'loadouts'));
    const checked: CheckedSkillFolder[] = [];
    for (const dir of folders) {
      const result = await importLoadout({ root: catalogue, source: dir, dryRun: true, today: options.today, ...(options.author === undefined ? {} : { author: options.author }), ...(options.policy === undefined ? {} : { policy: options.policy }) });
      const folder = posixRelative(options.repository, dir);
      const sources = new Map<string, string>();
      for (const file of result.files) if (file.from !== undefined) sources.set(file.path, [folder, file.from].filter((s) => s !== '').join('/'));
      checked.push({ folder, run: result.run, sources });
    }
    return checked;
  } finally {
    await rm(catalogue, { recursive: true, force: true });
  }
}

function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}
