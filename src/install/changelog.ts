/**
 * The changelog between two versions of a loadout, from the `changes` that `loadout build`
 * publishes per version in `versions.json` (the subjects of the commits that made each
 * version, `build/history.ts`). Pure. The text comes from the catalogue: print it only
 * through `cli/terminal-text.ts`, which makes control characters visible.
 */
import type { VersionsDocument } from '../tree-format/index.js';

/**
 * Compares two MAJOR.MINOR.PATCH versions numerically (semver.org, rule 11, without
 * pre-releases, which the version rule does not allow): negative when `a` is older.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The changes of one version. */
export interface ChangelogEntry {
  version: string;
  /** `YYYY-MM-DD`, or null for a version not committed when it was built. */
  date: string | null;
  /** Commit subjects, newest first; empty when the catalogue published none. */
  changes: string[];
}

/** The changelog of a move from `from` to `to`. */
export interface Changelog {
  /** `upgrade` lists the versions after `from` up to `to`; `downgrade` those after `to` up to `from`, which the move takes back. */
  direction: 'upgrade' | 'downgrade' | 'none';
  /** Newest first. */
  entries: ChangelogEntry[];
}

/** The changelog of moving from version `from` to `to` in `doc`. */
export function changelogBetween(doc: VersionsDocument, from: string, to: string): Changelog {
  const order = compareVersions(to, from);
  if (order === 0) return { direction: 'none', entries: [] };
  const [low, high] = order > 0 ? [from, to] : [to, from];
  const entries = doc.versions
    .filter((v) => compareVersions(v.version, low) > 0 && compareVersions(v.version, high) <= 0)
    .sort((a, b) => compareVersions(b.version, a.version))
    .map((v) => ({ version: v.version, date: v.date, changes: Array.isArray(v.changes) ? v.changes : [] }));
  return { direction: order > 0 ? 'upgrade' : 'downgrade', entries };
}
