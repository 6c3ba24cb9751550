/**
 * The native plugin's layout, as the `install-paths` check judges it (DESIGN.md "Native
 * plugins"): the build writes a plugin folder and zip of every loadout whatever agents it
 * supports (tree/render/plugins.ts), so the check lays the plugin out with the very function
 * the build uses (layout/plugin-folder.ts `composePluginFolder`) and fails every clash the
 * build would meet (layout/plugin-contents.ts `describePluginClashes`): two loadout files at one
 * plugin path, a path no file system holds, two paths that differ only in case. A loadout that
 * passes therefore has a plugin the build can write.
 *
 * It also fails two subagents of one front-matter `name`: the agents tell subagents apart by
 * that name (Claude Code: "Unique identifier"; Gemini CLI: the subagent's tool name), so one of
 * the two would never run, installed or in the plugin.
 */
import type { Manifest } from '../catalogue/manifest.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import { describePluginClashes, pluginSubagentName } from '../layout/plugin-contents.js';
import { composePluginFolder } from '../layout/plugin-folder.js';
import type { CheckContext, Finding } from './check.js';
import { atPointer } from './locate.js';

/** The page address the plugin's manifests are laid out with: paths do not depend on it. */
const PLACEHOLDER_HOMEPAGE = 'https://catalogue.invalid/loadouts/placeholder/';

/**
 * The findings on the plugin of `manifest` (see the module comment), each located at the
 * `files` entry of the loadout file it names last. Files without UTF-8 text are left out, as
 * the build leaves them out (the `parse` check reports them).
 */
export function checkPluginPaths(context: CheckContext, manifest: Manifest): Finding[] {
  const files = manifest.files.flatMap((entry) => {
    const content = context.text(entry.path);
    return content === undefined ? [] : [{ entry, content }];
  });
  const indexOf = new Map(manifest.files.map((entry, index) => [entry.path, index]));
  const at = (path: string | undefined): Pick<Finding, 'file' | 'line' | 'pointer'> => atPointer(context, path === undefined ? '/files' : `/files/${indexOf.get(path) ?? 0}/path`);
  const findings: Finding[] = [];
  const plugin = composePluginFolder({ manifest, homepage: PLACEHOLDER_HOMEPAGE, files, installCommand: () => '' });
  for (const clash of describePluginClashes(plugin.files)) findings.push({ ...at(clash.from.at(-1)), message: clash.message });
  const named = new Map<string, { path: string; file: string }>();
  for (const { entry, content } of files) {
    if (entry.role !== 'subagent') continue;
    const value = readFrontMatterForInstall(content).data['name'];
    // A subagent without a string name is the `parse` check's to report.
    if (typeof value !== 'string' || value.trim() === '') continue;
    const name = value.trim();
    const file = pluginSubagentName(entry, content);
    const other = named.get(name);
    if (other === undefined) named.set(name, { path: entry.path, file });
    // Two of one name that also share a plugin file are reported once, as a clash above.
    else if (other.file !== file) findings.push({ ...at(entry.path), message: `${other.path} and ${entry.path} are both the subagent "${name}" (expected a distinct front-matter name each: the agents tell subagents apart by name, so one of the two would never run)` });
  }
  return findings;
}
