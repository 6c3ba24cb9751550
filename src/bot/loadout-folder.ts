/**
 * The folder `loadouts/<id>/` that a stored submission becomes (DESIGN.md sections 1 and 3): the
 * stored `loadout.yaml` (written by src/submissions/derive.ts when the submission arrived) and the
 * stored files, with the adapters brought in line with today's generator (src/adapters/), so a
 * generator change since the submission does not fail the `adapters` check. Pure: no I/O.
 *
 * A stored submission is checked again before anything is written, because a row may come from an
 * older version of the rules or from outside the API: the loadout id must be a slug (spec "Address
 * shapes"), and every path must stay inside the folder (DESIGN.md section 3). Refused: `..`,
 * absolute and drive paths, backslashes, control, bidirectional and line-separator characters,
 * segments over 255 bytes, a path that is also another's folder or differs from another only in
 * case (src/catalogue/file-path.ts: git or the file system would fail mid-run), any segment that
 * starts with `.git` (`.git/`, `.gitignore`, `.gitattributes`, `.gitmodules`: git would skip the
 * file or change how it treats others; `.github/` goes too, and the loadout layout has no use for
 * it), and a file named `loadout.yaml`.
 */
import { planAdapterSync } from '../adapters/sync.js';
import { describePathClashes, describePathProblem } from '../catalogue/file-path.js';
import { MANIFEST_FILE, type Manifest } from '../catalogue/manifest.js';
import type { LoadoutSource } from '../catalogue/source.js';
import { SLUG_PATTERN } from '../catalogue/vocabulary.js';
import { parseYamlSource } from '../catalogue/yaml-document.js';
import type { SubmissionFile } from '../storage/submission-store.js';

/** A loadout folder to write: every file by its path inside the folder, `loadout.yaml` included. */
export interface LoadoutFolder {
  loadoutId: string;
  files: Map<string, string>;
  /** The manifest's `version` when it has one (the checks judge the rest). */
  version: string | undefined;
}

/** Longest loadout id (the submissions API's bound). */
const MAX_ID_LENGTH = 64;

/**
 * Why `loadoutId` cannot name a folder and a branch, or undefined when it can (a slug of at most
 * 64 characters, the spec's id rule).
 */
export function describeLoadoutIdProblem(loadoutId: string): string | undefined {
  if (SLUG_PATTERN.test(loadoutId) && loadoutId.length <= MAX_ID_LENGTH) return undefined;
  return `loadout id ${JSON.stringify(loadoutId)} is not a slug (expected lowercase letters and digits in groups separated by single hyphens, at most ${MAX_ID_LENGTH} characters)`;
}

/** Why `path` (from a stored submission) must not be written into the loadout folder, or undefined. */
export function describeUnsafePath(path: string): string | undefined {
  const problem = describePathProblem(path);
  if (problem !== undefined) return `file path ${JSON.stringify(path)} ${problem}`;
  if (path.split('/').some((segment) => segment.toLowerCase().startsWith('.git'))) {
    return `file path ${JSON.stringify(path)} has a segment that starts with ".git" (expected a path in the loadout layout: git skips such files or changes how it treats others)`;
  }
  if (path === MANIFEST_FILE) return `file path "${MANIFEST_FILE}" would replace the manifest (expected it only as the stored manifest)`;
  return undefined;
}

/**
 * Plans the folder of a stored submission.
 * @returns the folder, or the first reason it cannot be written.
 */
export function planLoadoutFolder(loadoutId: string, manifestText: string, files: readonly SubmissionFile[]): { ok: true; folder: LoadoutFolder } | { ok: false; reason: string } {
  const idProblem = describeLoadoutIdProblem(loadoutId);
  if (idProblem !== undefined) return { ok: false, reason: idProblem };
  const byPath = new Map<string, string>();
  for (const file of files) {
    const problem = describeUnsafePath(file.path);
    if (problem !== undefined) return { ok: false, reason: problem };
    if (byPath.has(file.path)) return { ok: false, reason: `file path ${JSON.stringify(file.path)} is stored twice (expected each path once)` };
    byPath.set(file.path, file.content);
  }
  const clash = describePathClashes([...byPath.keys(), MANIFEST_FILE])[0];
  if (clash !== undefined) return { ok: false, reason: `file path ${clash.message}` };
  const data = parseYamlSource(manifestText).data as Partial<Manifest> | undefined;
  let manifest = manifestText;
  if (typeof data === 'object' && data !== null && typeof data.title === 'string' && Array.isArray(data.files)) {
    const source: LoadoutSource = { id: loadoutId, displayDir: '', manifestText, files: new Map([...byPath].map(([p, t]) => [p, Buffer.from(t, 'utf8')])), irregular: [] };
    const sync = planAdapterSync(source, data as Manifest);
    for (const write of sync.writes) byPath.set(write.path, write.text);
    manifest = sync.manifestText ?? manifestText;
  }
  byPath.set(MANIFEST_FILE, manifest);
  const version = typeof data?.version === 'string' ? data.version : undefined;
  return { ok: true, folder: { loadoutId, files: byPath, version } };
}
