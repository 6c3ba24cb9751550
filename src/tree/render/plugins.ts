/**
 * A loadout's native plugin in the built tree (DESIGN.md "Native plugins"): the plugin folder
 * `plugins/<id>/` of its latest version (layout/plugin-folder.ts decides what it holds) and the
 * zip of the plugin of every version, `download/<id>/plugin-<version>.zip`, which the URL
 * marketplace installs pinned by sha256 (plugin-marketplaces.ts).
 *
 * Both lie below paths the loadout owns (store.ts), so they are written once into its entry
 * of the store with the rest of it, and an unchanged loadout keeps them. The zips are
 * deterministic (zip.ts) and their contents hold no time, so the same loadout gives the same
 * bytes in every build. The folder's skills and subagents are hard links to the loadout's raw
 * files of the same version (the same bytes; a link costs a directory entry, not an inode).
 */
import { createHash } from 'node:crypto';
import type { FileEntry, Manifest } from '../../catalogue/manifest.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { describePluginClashes, type PluginPathClash } from '../../layout/plugin-contents.js';
import { composePluginFolder, type PluginFolder } from '../../layout/plugin-folder.js';
import { installCommand, pageUrl, pluginTreeFolder, pluginZipTreePath, rawTreePath } from '../../tree-format/addresses.js';
import type { OutputTree } from '../write/tree-files.js';
import { writeZip, type ZipContents } from './zip.js';
import type { Capabilities } from '../../tree-format/capabilities.js';

/** What the catalogue documents keep of a loadout's plugin (the build cache holds it in the loadout's listing). */
export interface PluginListing {
  /** The sha256 (hex) and size in bytes of the latest version's plugin zip. */
  sha256: string;
  bytes: number;
  /** The loadout's licence (the marketplaces' `license`). */
  license: string;
}

/** One version of a loadout, as its plugin is made from it. */
export interface PluginVersion {
  base: string;
  manifest: Manifest;
  /** The manifest's files that are published in this version, with their text. */
  files: readonly { entry: FileEntry; content: string }[];
  /** The version's capability list (the check run's, with the hosts its instructions reach), which the plugin's README states. */
  capabilities?: Capabilities | undefined;
}

/** The plugin folder of one version (pure; layout/plugin-folder.ts). */
export function pluginFolderOf(version: PluginVersion): PluginFolder {
  const { base, manifest } = version;
  return composePluginFolder({
    manifest,
    homepage: pageUrl(base, manifest.id),
    files: version.files,
    installCommand: (agent) => installCommand(base, manifest.id, agent),
    ...(version.capabilities === undefined ? {} : { capabilities: version.capabilities }),
  });
}

/** Options of {@link writePlugin}. */
export interface WritePluginOptions {
  /** Write the plugin folder too (the latest version only). */
  folder: boolean;
  /** Where the zip shares compression with the loadout's other zips. */
  contents?: ZipContents;
  /**
   * Called instead of throwing when the plugin's files clash (an older version, published as it
   * was whatever its checks say): nothing is written for it.
   */
  onClash?: (clashes: readonly PluginPathClash[]) => void;
}

/**
 * Writes the zip of `version`'s plugin at `download/<id>/plugin-<version>.zip` and, with
 * `folder`, its plugin folder at `plugins/<id>/` (the latest version only). The version's raw
 * files must be written already (the folder links to them).
 * @returns the zip's listing, or undefined when the plugin's files clash and `onClash` was told.
 * @throws LoadoutError `internal` when the plugin's files clash without `onClash` (a bug: the
 *   `install-paths` check lays the plugin out the same way and refuses such a loadout), or from
 *   `tree` for a path that would leave it (a bug); the file system's error.
 */
export async function writePlugin(tree: OutputTree, version: PluginVersion, options: WritePluginOptions): Promise<PluginListing | undefined> {
  const { id, version: v } = version.manifest;
  const plugin = pluginFolderOf(version);
  const clashes = describePluginClashes(plugin.files);
  if (clashes.length > 0) {
    if (options.onClash === undefined) throw new LoadoutError('internal', `loadouts/${id} ${v}: the plugin cannot be written: ${clashes.map((c) => c.message).join('; ')} (the install-paths check should have refused the loadout)`);
    options.onClash(clashes);
    return undefined;
  }
  const zip = writeZip(plugin.files, options.contents);
  await tree.write(pluginZipTreePath(id, v), zip);
  if (options.folder) {
    const folder = pluginTreeFolder(id);
    // Files and hard links only, never a symbolic link inside the folder (raw-folders.ts): the
    // agents' plugin managers copy a folder marketplace's plugin without following links.
    for (const file of plugin.files) {
      if (file.source === undefined) await tree.write(`${folder}/${file.path}`, file.data);
      else await tree.link(`${folder}/${file.path}`, rawTreePath(id, v, file.source));
    }
  }
  return { sha256: createHash('sha256').update(zip).digest('hex'), bytes: zip.byteLength, license: version.manifest.license };
}
