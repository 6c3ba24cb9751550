/**
 * Applying an install plan to a project folder: writes each planned file at its target.
 * A target that already exists with other bytes is a collision and is left alone unless
 * `force` is set (DESIGN.md section 8: "a file the user edited is never overwritten without
 * --force"); a target with the same bytes is left as it is. A target must be of the right
 * form, outside `.git`, not an agent's settings file, and land inside the project after
 * symbolic links (rules 1 to 4 of `target-rules.ts`, checked here again for every write
 * whoever plans it); files are written as the agent reads them (`layout/installed-files.ts`). Used by
 * `loadout install` and by the `starter-build` check.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { readRegularFile } from '../../catalogue/read-at-most.js';
import { dirname, join } from 'node:path';
import { installedBytesOf, type InstalledFiles } from '../../layout/installed-files.js';
import { describeLandingProblem, describeTargetProblem, realProjectRoot } from '../../layout/target-rules.js';
import { describeSettingsProblem } from '../../layout/protected-paths.js';

/** What {@link applyInstallPlan} did, per target (project-relative paths). */
export interface ApplyResult {
  written: string[];
  unchanged: string[];
  /** Targets that existed with other bytes: `source` is the loadout file that would go there. */
  collisions: { target: string; source: string }[];
  /** Targets that could not be written (a bad path, outside the project or in `.git`, a file where a folder must be, I/O). */
  failures: { target: string; source: string; message: string }[];
}

/** Options of {@link applyInstallPlan}. */
export interface ApplyOptions {
  /** Overwrite targets that exist with other bytes. Default false. */
  force?: boolean;
}

/**
 * Writes the files of `installed.plan` into `projectDir`, reading each loadout file's bytes with
 * `readBytes(path)` and writing them as installed (`installedBytesOf`). Never throws for a
 * single target: problems are returned per target.
 */
export async function applyInstallPlan(installed: InstalledFiles, readBytes: (path: string) => Uint8Array | undefined, projectDir: string, options: ApplyOptions = {}): Promise<ApplyResult> {
  const plan = installed.plan;
  const result: ApplyResult = { written: [], unchanged: [], collisions: [], failures: [] };
  const root = await realProjectRoot(projectDir);
  for (const { entry, target } of plan.files) {
    const problem = describeTargetProblem(target) ?? describeSettingsProblem(entry.role, target) ?? (await describeLandingProblem(root, target));
    if (problem !== undefined) {
      result.failures.push({ target, source: entry.path, message: problem });
      continue;
    }
    const absolute = join(root, ...target.split('/'));
    const read = readBytes(entry.path);
    const bytes = read === undefined ? undefined : installedBytesOf(installed, entry.path, read);
    if (bytes === undefined) {
      result.failures.push({ target, source: entry.path, message: `has no content: ${entry.path} is missing from the loadout` });
      continue;
    }
    try {
      const existing = await readRegularFile(absolute, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (existing !== undefined && Buffer.compare(existing, bytes) === 0) {
        result.unchanged.push(target);
        continue;
      }
      if (existing !== undefined && options.force !== true) {
        result.collisions.push({ target, source: entry.path });
        continue;
      }
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, bytes);
      result.written.push(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const message = code === 'ENOTDIR' || code === 'EEXIST' ? 'cannot be written: a file of the project stands where a folder is needed' : code === 'EISDIR' ? 'cannot be written: the project has a folder there' : `cannot be written (${(error as Error).message})`;
      result.failures.push({ target, source: entry.path, message });
    }
  }
  return result;
}
