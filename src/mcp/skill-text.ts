/**
 * The bytes the MCP server serves for a skill file (`resources/read`, and the digests and front
 * matter of `skills/list` and `skills/get`): the skill folder as installed alone
 * (`layout/skill-alone.ts`), so a link that leaves the skill points at its target's pinned raw
 * address instead of a path the client does not have; a link inside the skill stays as it is.
 * The same bytes `npx skills add` installs from the catalogue's Agent Skills discovery
 * (tree/render/skill-discovery.ts), for the latest version and for every pinned one (issue 57
 * point 12).
 */
import { skillFileInstalledAlone, type VersionFileAddress } from '../layout/skill-alone.js';
import type { CatalogueReader } from './catalogue.js';
import { rawVersionOf, type SkillFolder, type SkillFolderFile } from './skill-folders.js';

/**
 * The files of the version `folder` belongs to, with their pinned raw addresses: the record's for
 * the latest version, `versions.json`'s for a pinned one; undefined when the tree has neither.
 */
async function versionFiles(catalogue: CatalogueReader, folder: SkillFolder): Promise<readonly VersionFileAddress[] | undefined> {
  if (folder.version === undefined) return (await catalogue.record(folder.loadout))?.files;
  return (await catalogue.versions(folder.loadout))?.versions.find((v) => v.version === folder.version)?.files;
}

/**
 * The bytes of `file` of `folder` as served: the raw file's, with the links of a Markdown file
 * that leave the skill rewritten (see the module comment). Undefined when the raw tree lacks the
 * file. A file that is not UTF-8, or whose version's file list cannot be read, is served as it is.
 */
export async function readServedSkillFile(catalogue: CatalogueReader, folder: SkillFolder, file: SkillFolderFile): Promise<Buffer | undefined> {
  const bytes = await catalogue.rawBytes(folder.loadout, rawVersionOf(folder), file.path);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes;
  }
  const files = await versionFiles(catalogue, folder);
  if (files === undefined) return bytes;
  const served = skillFileInstalledAlone(files, folder.skill, file.path, file.rel, text);
  return served === text ? bytes : Buffer.from(served, 'utf8');
}
