/**
 * Applying an install plan to a project folder: writes each planned file at its target.
 * A target that already exists with other bytes is a collision and is left alone unless
 * `force` is set (DESIGN.md section 8: "a file the user edited is never overwritten without
 * --force"); a target with the same bytes is left as it is. A target must be of the right
 * form, outside `.git`, not an agent's settings file, and land inside the project after
 * symbolic links (rules 1 to 4 of `target-rules.ts`, checked here again for every write
 * whoever plans it); every read and write goes through the project's handle
 * (`project-root.ts`), which checks each path again at the moment of use. Files are written as
 * the agent reads them (`layout/installed-files.ts`). Used by the `starter-build` check.
 */
import { posix } from 'node:path';
import { installedBytesOf, type InstalledFiles } from '../../layout/installed-files.js';
import { describeTargetProblem } from '../../layout/target-rules.js';
import { describeSettingsProblem } from '../../layout/protected-paths.js';
import { openProject } from './project-root.js';

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
  const project = await openProject(projectDir);
  for (const { entry, target } of plan.files) {
    const problem = describeTargetProblem(target) ?? describeSettingsProblem(entry.role, target) ?? (await project.describeLanding(target));
    if (problem !== undefined) {
      result.failures.push({ target, source: entry.path, message: problem });
      continue;
    }
    const read = readBytes(entry.path);
    const bytes = read === undefined ? undefined : installedBytesOf(installed, entry.path, read, target);
    if (bytes === undefined) {
      result.failures.push({ target, source: entry.path, message: `has no content: ${entry.path} is missing from the loadout` });
      continue;
    }
    try {
      const existing = await project.read(target);
      if (existing !== undefined && Buffer.compare(existing, bytes) === 0) {
        result.unchanged.push(target);
        continue;
      }
      if (existing !== undefined && options.force !== true) {
        result.collisions.push({ target, source: entry.path });
        continue;
      }
      const folder = posix.dirname(target);
      if (folder !== '.') await project.mkdirs(folder);
      await project.writeFileAtomic(target, bytes);
      result.written.push(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const message = code === 'ENOTDIR' || code === 'EEXIST' ? 'cannot be written: a file of the project stands where a folder is needed' : code === 'EISDIR' ? 'cannot be written: the project has a folder there' : `cannot be written (${(error as Error).message})`;
      result.failures.push({ target, source: entry.path, message });
    }
  }
  return result;
}
