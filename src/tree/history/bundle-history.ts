/**
 * Versions of each bundle from git history (issue 56, point 1: "versions from git history as for
 * loadouts"; history.ts does the same for loadouts). A bundle's content is its `bundle.yaml`
 * alone, so an older version is that file as the last commit that held the version left it;
 * the working tree's version is the current one. `published` and `updated` are the dates of
 * the first and the last commit that touched the bundle's folder.
 *
 * Git is read with three processes whatever the number of bundles: one `git log` for the
 * folder's dates, one for the manifests' object ids (both commit-log.ts), and one
 * `git cat-file --batch` for the blobs (version-files.ts). A catalogue without `bundles/`
 * asks git nothing.
 */
import { relative } from 'node:path';
import { parseBundle } from '../../bundles/read.js';
import { BUNDLE_FILE, bundlesDirOf } from '../../bundles/manifest.js';
import { membersOf } from '../../bundles/record.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { VERSION_PATTERN } from '../../catalogue/vocabulary.js';
import { readManifestVersion } from '../../catalogue/yaml-document.js';
import type { BundleVersion } from '../../tree-format/bundle.js';
import { readDates, readManifestCommits } from './commit-log.js';
import type { CatalogueRepository } from './history.js';
import { BlobReader } from './version-files.js';

/** What git says about one bundle. */
export interface BundleHistory {
  /** Its versions other than the working tree's, oldest first, each with the members its file named. */
  versions: BundleVersion[];
  /** `YYYY-MM-DD` of the first and the last commit that changed its folder. */
  published: string | undefined;
  updated: string | undefined;
  /** The last commit that changed its folder. */
  lastCommit: string | undefined;
  /** `YYYY-MM-DD` the working tree's version was first committed (undefined when it is not committed yet). */
  currentSince: string | undefined;
  /** Versions in history that are not published, with why (for the build's warnings). */
  skipped: string[];
}

/** The history of a bundle git knows nothing of (outside git, or never committed). Pure. */
export const noBundleHistory = (): BundleHistory => ({ versions: [], published: undefined, updated: undefined, lastCommit: undefined, currentSince: undefined, skipped: [] });

/**
 * The histories of the bundles `current` (id → the working tree's version) of the catalogue at
 * `root`, in `repo` (undefined: outside git, every history empty).
 * @throws LoadoutError `git` when git fails.
 */
export async function readBundleHistories(repo: CatalogueRepository | undefined, root: string, current: ReadonlyMap<string, string>): Promise<Map<string, BundleHistory>> {
  const histories = new Map<string, BundleHistory>();
  if (repo === undefined || current.size === 0) {
    for (const id of current.keys()) histories.set(id, noBundleHistory());
    return histories;
  }
  const prefix = relative(repo.top, bundlesDirOf(root)).split('\\').join('/');
  const top = prefix === '' ? '' : `${prefix}/`;
  const blobs = new BlobReader(repo.git);
  try {
    const [dates, commits] = await Promise.all([readDates(repo.git, prefix, [`:(top,literal)${prefix === '' ? '.' : prefix}`]), readManifestCommits(repo.git, prefix, [`:(top,glob)${top}*/${BUNDLE_FILE}`])]);
    await Promise.all(
      [...current].map(async ([id, version]) => {
        const folder = dates.get(id);
        const history: BundleHistory = { ...noBundleHistory(), published: folder?.first, updated: folder?.last, lastCommit: folder?.lastCommit };
        const changes = commits.get(id) ?? [];
        // The file after each commit that changed it, newest first.
        const texts = await Promise.all(changes.map((c) => (c.blob === undefined ? undefined : blobs.read(c.blob))));
        const versions = texts.map((t) => (t === undefined ? undefined : readManifestVersion(Buffer.from(t).toString('utf8'))));
        for (let i = 0; i < versions.length && versions[i] === version; i++) history.currentSince = changes[i]?.date;
        const seen = new Set<string>([version]);
        for (let i = 0; i < changes.length; i++) {
          const held = versions[i];
          const bytes = texts[i];
          const change = changes[i];
          if (held === undefined || bytes === undefined || change === undefined || seen.has(held)) continue;
          seen.add(held);
          // The oldest commit of the run that kept this version: when it was first committed.
          let first = i;
          while (first + 1 < versions.length && versions[first + 1] === held) first++;
          if (!VERSION_PATTERN.test(held)) {
            history.skipped.push(`version ${JSON.stringify(held)} of commit ${change.commit} does not match MAJOR.MINOR.PATCH, digits only`);
            continue;
          }
          const read = parseBundle({ id, file: `bundles/${id}/${BUNDLE_FILE}`, bytes });
          if (read.manifest === undefined || read.diagnostics.length > 0) {
            history.skipped.push(`version ${held} of commit ${change.commit} does not pass the bundle's checks (${read.diagnostics[0]?.message ?? 'unreadable'})`);
            continue;
          }
          history.versions.push({ version: held, date: changes[first]?.date ?? null, commit: change.commit, latest: false, loadouts: membersOf(read.manifest.loadouts) });
        }
        history.versions.reverse();
        histories.set(id, history);
      }),
    );
  } catch (cause) {
    if (cause instanceof LoadoutError) throw cause;
    throw new LoadoutError('git', `cannot read the git history of ${bundlesDirOf(root)}: ${(cause as Error).message}`, { cause });
  } finally {
    blobs.close();
  }
  return histories;
}
