/**
 * The sentences both SBOM formats say about a file and a package (CycloneDX descriptions, SPDX
 * comments), so that the two documents of one project say the same. Pure.
 */
import type { InstalledPart } from './installed-parts.js';
import type { SbomPackage } from './inventory.js';

/** How a file is held: what the lock's sha256 (and the SHA-1 beside it) stands for. */
export function describeHold(file: InstalledPart): string {
  if (file.kind === 'block') return 'the loadout\'s block in a shared instruction file; the hashes are of the block\'s body';
  if (file.kind === 'servers') return 'MCP servers merged into a shared configuration; the lock\'s sha256 is of the loadout\'s MCP file';
  return 'a whole file';
}

/** Why a file has no SHA-1. */
export const UNHASHED: Record<NonNullable<InstalledPart['unhashed']>, string> = {
  changed: 'changed since it was installed',
  missing: 'missing since it was installed',
  'not-in-project': 'its bytes are the loadout\'s MCP file, which the project does not hold',
};

/** What starts a package and whether its version is pinned; for one that is not, the version as written and what that means. */
export function describePin(pkg: SbomPackage): string {
  const starts = pkg.launcher === null ? 'run directly' : `started by ${pkg.launcher}`;
  if (pkg.registry === 'local') return `a program of the user's machine, ${starts}: not a package of a registry, not pinned`;
  if (pkg.pinned) return `pinned: ${starts} at ${pkg.written ?? ''}`;
  const written = pkg.written === null ? 'no version is written, so the newest release is fetched' : `the version is written as ${JSON.stringify(pkg.written)}, so the newest release it allows is fetched`;
  return `not pinned: ${written} each time the MCP server starts (${starts})`;
}
