/**
 * The shapes of `api/loadouts/<id>/versions.json` (DESIGN.md section 8): what the build
 * writes for every loadout and what the installer reads. Types only.
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent } from '../catalogue/vocabulary.js';
import type { ContextCost } from './record.js';
import type { Capabilities } from './capabilities.js';

/** One entry of `api/loadouts/<id>/versions.json` (DESIGN.md section 8). */
export interface VersionEntry {
  version: string;
  /** `YYYY-MM-DD` the version was first committed; null for a version not committed yet. */
  date: string | null;
  commit: string | null;
  latest: boolean;
  /** The version's files: their manifest entry (what an installer needs to place them) plus hash, size and address. */
  files: VersionFile[];
  checks: { pass: number; fail: number; skip: number; not_applicable: number };
  /** Subjects of the commits that made this version, newest first (the changelog; `history.ts`). */
  changes: string[];
  /** Context cost per agent of the six (`layout/context-cost.ts`); all zero for a version whose manifest was invalid. */
  context: Record<Agent, ContextCost>;
  /** What the version lets the agent run and reach (`capabilities.ts`); absent in catalogues built before capabilities were published. */
  capabilities?: Capabilities;
  /**
   * The version's `requires` as its manifest wrote it (tool entries unchanged, ranges included:
   * `python>=3.11`), checked on the user's machine by `install` and `loadout doctor` (issue 56,
   * point 4); absent in catalogues built before requirements were published per version.
   */
  requires?: { tools: string[]; env: string[]; mcp: string[] };
}

/** `api/loadouts/<id>/versions.json`: every published version, oldest first. */
export interface VersionsDocument {
  id: string;
  /** The newest version (the one `latest` follows). */
  latest: string;
  versions: VersionEntry[];
}

/** A file of a published version. `role` and the rest are null when that version's manifest was invalid. */
export interface VersionFile {
  path: string;
  role: FileEntry['role'] | null;
  agent: string | null;
  skill: string | null;
  install_to?: FileEntry['install_to'];
  sha256: string;
  bytes: number;
  raw_url: string;
}
