/**
 * `loadout outdated` (DESIGN.md section 8): for each install in the lock, the installed version,
 * the latest version its catalogue publishes, and whether any installed file was changed
 * locally (or is missing). Each catalogue's `versions.json` is read once per loadout, through
 * the same checked reader as install (`catalogue-reader.ts`). Reads only.
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent } from '../catalogue/vocabulary.js';
import type { VersionsDocument } from '../tree-format/index.js';
import { catalogueOpener } from './run-catalogues.js';
import { readLock } from './project/lock.js';
import { isSigningRefusal, type SigningPolicy } from './catalogue/signed-catalogue.js';
import { openScope, type InstallScope } from './project/scope.js';
import { readEntryStatus } from './status.js';
import { compareVersions } from './changelog.js';

/** One install and how it stands. */
export interface OutdatedRow {
  id: string;
  agent: Agent;
  installed: string;
  /** The catalogue's latest version; null when the catalogue could not be read (see `error`). */
  latest: string | null;
  /** True when `latest` is newer than `installed`. */
  outdated: boolean;
  /** Targets changed locally or missing since the install. */
  changed: string[];
  source: string;
  /** Why the catalogue could not be read. */
  error?: string;
}

/** Options of {@link listOutdated}. */
export interface OutdatedOptions {
  scope: InstallScope;
  /** Read every catalogue from here instead of each lock entry's source. */
  from?: string;
  /** How signatures are treated (`--require-signed`, `--trust-key`; catalogue/signed-catalogue.ts). */
  signing?: SigningPolicy;
}

/**
 * Lists every install of the lock. A catalogue that cannot be read is reported on its rows
 * (`error`), not thrown, so one unreachable catalogue does not hide the others; one whose
 * signing is refused (catalogue/signed-catalogue.ts) stops the listing.
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable), `io` (the project)
 */
export async function listOutdated(options: OutdatedOptions): Promise<OutdatedRow[]> {
  const { scope } = options;
  const project = await openScope(scope);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const documents = new Map<string, Promise<VersionsDocument>>();
  // One reader per catalogue for the whole run: one signed snapshot per catalogue (run-catalogues.ts).
  const catalogueOf = catalogueOpener(lock, options.signing);
  const rows: OutdatedRow[] = [];
  for (const entry of lock.installs) {
    const source = options.from ?? entry.source;
    const key = `${source}\n${entry.id}`;
    let doc = documents.get(key);
    if (doc === undefined) {
      doc = Promise.resolve().then(() => catalogueOf(source).readVersions(entry.id));
      // Handled below, per row; a rejection must not go unhandled while other rows are read.
      doc.catch(() => undefined);
      documents.set(key, doc);
    }
    const changed = (await readEntryStatus(project, entry)).filter((f) => f.state !== 'ok').map((f) => f.target);
    const row = { id: entry.id, agent: entry.agent, installed: entry.version, changed, source };
    try {
      const latest = (await doc).latest;
      rows.push({ ...row, latest, outdated: compareVersions(latest, entry.version) > 0 });
    } catch (error) {
      // A catalogue that fails its signature stops the command: its versions are not to be believed.
      if (!(error instanceof LoadoutError) || isSigningRefusal(error)) throw error;
      rows.push({ ...row, latest: null, outdated: false, error: error.message });
    }
  }
  return rows;
}
