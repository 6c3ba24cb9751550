/**
 * The skill folders the MCP server serves, per loadout and version: the latest version's from
 * `api/skills.json` (read once at start), a pinned version's from that loadout's
 * `api/loadouts/<id>/versions.json` (read on demand), so that every version a loadout has
 * published keeps its skills addressable (DESIGN.md section 8: immutable versions).
 */
import { pathInsideSkill } from '../layout/layout.js';
import type { SkillEntry } from '../search/index-file.js';
import type { CatalogueReader } from './catalogue.js';

/** One file of a skill folder. */
export interface SkillFolderFile {
  /** Path inside the skill folder (`SKILL.md`, `references/x.md`). */
  rel: string;
  /** Path inside the loadout (`skills/<skill>/<rel>`), as the raw tree holds it. */
  path: string;
  /** The file entry's description (empty for pinned versions: `versions.json` has none). */
  description: string;
  /** Size in bytes. */
  bytes: number;
}

/** A skill of one version of one loadout. */
export interface SkillFolder {
  loadout: string;
  /** MAJOR.MINOR.PATCH, or undefined for the latest version (`raw/<id>/latest/`). */
  version: string | undefined;
  skill: string;
  /** `SKILL.md` first, then by path. */
  files: SkillFolderFile[];
}

/** Lookups of skill folders. */
export interface SkillFolders {
  /** Every latest skill, by loadout then skill (the order of `api/skills.json`). */
  readonly latest: readonly SkillFolder[];
  /**
   * The skills of `loadout` at `version` (undefined: latest), by skill name; undefined when
   * the catalogue has no such loadout or version.
   */
  folders(loadout: string, version: string | undefined): Promise<SkillFolder[] | undefined>;
  /** The published versions of `loadout` that have skills, oldest first ([] for an unknown loadout). */
  versionsWithSkills(loadout: string): Promise<string[]>;
}

/** The raw tree's version folder of a folder: `latest` or the pinned version. */
export const rawVersionOf = (folder: { version: string | undefined }): string => folder.version ?? 'latest';

const byRel = (a: SkillFolderFile, b: SkillFolderFile): number => (a.rel === 'SKILL.md' ? -1 : b.rel === 'SKILL.md' ? 1 : a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

/** Builds the lookups over `catalogue`. */
export function createSkillFolders(catalogue: CatalogueReader): SkillFolders {
  const latest: SkillFolder[] = catalogue.skills.map((s: SkillEntry) => ({
    loadout: s.loadout,
    version: undefined,
    skill: s.skill,
    files: s.files.map((f) => ({ rel: f.rel, path: f.path, description: f.description, bytes: f.bytes })).sort(byRel),
  }));
  const latestByLoadout = new Map<string, SkillFolder[]>();
  for (const folder of latest) latestByLoadout.set(folder.loadout, [...(latestByLoadout.get(folder.loadout) ?? []), folder]);

  const pinned = async (loadout: string, version: string): Promise<SkillFolder[] | undefined> => {
    const entry = (await catalogue.versions(loadout))?.versions.find((v) => v.version === version);
    if (entry === undefined) return undefined;
    const bySkill = new Map<string, SkillFolder>();
    for (const f of entry.files) {
      if ((f.role !== 'skill' && f.role !== 'reference') || f.skill === null) continue;
      const folder = bySkill.get(f.skill) ?? { loadout, version, skill: f.skill, files: [] };
      folder.files.push({ rel: pathInsideSkill({ path: f.path, role: f.role, description: '', skill: f.skill }), path: f.path, description: '', bytes: f.bytes });
      bySkill.set(f.skill, folder);
    }
    // A skill with no SKILL.md is not a skill (SEP-2640, "Skill Format"); verified versions have one.
    return [...bySkill.values()]
      .filter((folder) => folder.files.some((f) => f.rel === 'SKILL.md'))
      .map((folder) => ({ ...folder, files: folder.files.sort(byRel) }))
      .sort((a, b) => (a.skill < b.skill ? -1 : 1));
  };

  return {
    latest,
    async folders(loadout, version) {
      if (version !== undefined) return pinned(loadout, version);
      const found = latestByLoadout.get(loadout);
      if (found !== undefined) return found;
      // A loadout without skills still exists: an empty list, not "unknown".
      return (await catalogue.versions(loadout)) === undefined ? undefined : [];
    },
    async versionsWithSkills(loadout) {
      const document = await catalogue.versions(loadout);
      return (document?.versions ?? []).filter((v) => v.files.some((f) => f.role === 'skill' && f.skill !== null)).map((v) => v.version);
    },
  };
}
