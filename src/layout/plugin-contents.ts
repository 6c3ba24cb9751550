/**
 * What of a loadout its native plugin carries, and where each part lies in the plugin folder
 * (DESIGN.md "Native plugins"): the one place that decides the plugin's files and MCP servers.
 * plugin-folder.ts adds the manifests and the README around them; the loadout page lists what
 * the formats leave out from the same answer; the `install-paths` check lays the plugin out
 * with it (verify/plugin-paths.ts), so a loadout that passes has a plugin the build can write.
 *
 * Where each part lies (the vendors' conventions; plugin-manifests.ts names the sources):
 *
 * | loadout file | plugin file |
 * |---|---|
 * | skill or reference `skills/<skill>/<rest>` | `skills/<skill>/<rest>`, byte for byte |
 * | subagent | `agents/<name>.md`, byte for byte: `<name>` is its front-matter `name` when that is a slug (below), else the file's base name |
 * | rules | `rules/<base name>.mdc`, translated as `loadout install --agent cursor` writes it (rule-translation.ts) |
 * | the first instructions file | `AGENTS.md` (Gemini CLI's `contextFileName`) |
 * | mcp | its servers, by name (a later file's server replaces an earlier one of the same name) |
 *
 * Subagents: Claude Code, Gemini CLI and Cursor read every Markdown file of the plugin's
 * `agents/` folder, and the agent tells subagents apart by the `name` of their front matter,
 * not by their file names (code.claude.com/docs/en/sub-agents: "Unique identifier using
 * lowercase letters and hyphens"; Gemini CLI `docs/core/subagents.md`: a slug of lowercase
 * letters, digits, hyphens and underscores). Naming the file after the subagent gives
 * `agents/a/helper.md` and `agents/b/helper.md` of two names two files, where their base names
 * gave both `agents/helper.md`; two subagents of one name are one subagent to the agent, which
 * the check reports (verify/plugin-paths.ts).
 *
 * Consent (issue 53, point 3): a plugin never carries what `loadout install` would refuse without
 * the user's yes (`capabilities/consent.ts`, the one rule): a skill or subagent whose front matter
 * has hooks, a permission mode that skips confirmations or a wildcard tool grant is left out,
 * and an MCP server keeps everything but its auto-approval keys (`trust`, `autoApprove`, …);
 * each is listed as not carried, for every format, saying why. A plugin manager installs a
 * plugin without showing such keys, so the catalogue does not hand them over.
 *
 * Pure: the loadout's files in, the plugin's parts out.
 */
import { describePathClashes, describePathProblem, MAX_SEGMENT_BYTES } from '../catalogue/file-path.js';
import { readFrontMatterForInstall } from '../catalogue/front-matter-data.js';
import type { FileEntry } from '../catalogue/manifest.js';
import { baseName, pathInsideSkill } from './layout.js';
import { readMcpServers } from './mcp-formats.js';
import { listUncarried, type PluginFormat, type UncarriedPart } from './plugin-formats.js';
import { consentRequests, withoutAutoApprovals } from '../capabilities/consent.js';
import { deriveCapabilities } from './capabilities.js';
import { agentPluginsMcp, type CursorComponents, type McpServer } from './plugin-manifests.js';
import { translateRule } from './rule-translation.js';

/** A file of the loadout with its text as published (the record's `content`). */
export interface LoadoutFile {
  entry: FileEntry;
  content: string;
}

/** One file of the plugin folder. */
export interface PluginFile {
  /** Its path in the plugin folder. */
  path: string;
  /** Its text. */
  data: string;
  /** The loadout file it repeats byte for byte (the tree links the two), if it does. */
  source?: string;
  /** The loadout file it is made from, byte for byte or translated; none for the manifests and the README. */
  from?: string;
}

/** What the plugin carries of a loadout (see the module comment). */
export interface PluginContents {
  /** The plugin files made from the loadout's files, in the manifest's order (not the manifests, nor the README). */
  files: PluginFile[];
  /** The MCP servers every format's configuration is made from, by name. */
  servers: Record<string, McpServer>;
  /** The context file Gemini CLI loads (`AGENTS.md`), when the loadout has instructions. */
  contextFileName: string | undefined;
  /** Which component folders the plugin has (Cursor's manifest names them). */
  components: CursorComponents;
  /** What each format cannot carry (plugin-formats.ts), MCP servers Agent Plugins 1.0 refuses included. */
  uncarried: UncarriedPart[];
}

/** The context file of the plugin (Gemini CLI's `contextFileName`). */
const CONTEXT_FILE = 'AGENTS.md';

/**
 * A subagent name that can be a file name as it is: Gemini CLI's slug (lowercase letters,
 * digits, hyphens, underscores), which holds Claude Code's, starting with a letter or digit so
 * that the file is neither hidden nor read as an option, short enough for one path segment.
 */
const SUBAGENT_SLUG = /^[a-z0-9][a-z0-9_-]*$/u;

/**
 * The file name (without `.md`) of a subagent in the plugin's `agents/` folder: its front-matter
 * `name` when that is a slug ({@link SUBAGENT_SLUG}), else the base name of its loadout path.
 */
export function pluginSubagentName(entry: FileEntry, content: string): string {
  const name = readFrontMatterForInstall(content).data['name'];
  return typeof name === 'string' && SUBAGENT_SLUG.test(name) && name.length + '.md'.length <= MAX_SEGMENT_BYTES ? name : baseName(entry.path);
}

/**
 * The MCP servers of the loadout's `mcp` files (`{mcpServers}`, DESIGN.md section 3), by name;
 * a later file's server replaces an earlier one of the same name. A file that does not parse
 * is left out (the `mcp` check refuses such a loadout).
 */
export function readPluginServers(files: readonly LoadoutFile[]): Record<string, McpServer> {
  const servers: Record<string, McpServer> = {};
  for (const { entry, content } of files) {
    if (entry.role !== 'mcp') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      continue;
    }
    Object.assign(servers, readMcpServers(parsed) ?? {});
  }
  return servers;
}

/**
 * What the plugin of a loadout whose manifest lists `files` (in order, with their text)
 * carries, and where (the module comment's table). Every file and server the plugin holds is
 * decided here: a rule that leaves a part out of the plugin (a file before it is carried, a
 * server from `servers`, each with its line in `uncarried`) belongs in this function, and the
 * plugin folder, the loadout page and the `install-paths` check then all follow it.
 */
export function choosePluginContents(files: readonly LoadoutFile[]): PluginContents {
  const carried: PluginFile[] = [];
  const components = { skills: false, rules: false, agents: false, mcp: false };
  let contextFileName: string | undefined;
  const consent = pluginConsent(files);
  for (const { entry, content } of files) {
    const from = entry.path;
    if (consent.files.has(from)) continue;
    if (entry.role === 'skill' || entry.role === 'reference') {
      carried.push({ path: `skills/${entry.skill ?? baseName(entry.path)}/${pathInsideSkill(entry)}`, data: content, source: from, from });
      components.skills = true;
    } else if (entry.role === 'subagent') {
      carried.push({ path: `agents/${pluginSubagentName(entry, content)}.md`, data: content, source: from, from });
      components.agents = true;
    } else if (entry.role === 'rules') {
      carried.push({ path: `rules/${baseName(entry.path)}.mdc`, data: translateRule(content, 'cursor'), from });
      components.rules = true;
    } else if (entry.role === 'instructions' && contextFileName === undefined) {
      carried.push({ path: CONTEXT_FILE, data: content, source: from, from });
      contextFileName = CONTEXT_FILE;
    }
  }
  const servers = Object.fromEntries(Object.entries(readPluginServers(files)).map(([name, server]) => [name, withoutAutoApprovals(server) as McpServer]));
  components.mcp = Object.keys(servers).length > 0;
  const uncarried = [...consent.uncarried, ...listUncarried(files.filter((f) => !consent.files.has(f.entry.path)).map((f) => f.entry), agentPluginsMcp(servers).refused)];
  return { files: carried, servers, contextFileName, components, uncarried };
}

/** Every plugin format, for a part no format carries. */
const ALL_FORMATS: readonly PluginFormat[] = ['claude-code', 'agent-plugins', 'gemini-cli', 'cursor'];

/**
 * What of the loadout needs the user's consent (`capabilities/consent.ts`): the files the plugin
 * leaves out, and for every format a line per file and per MCP server key left out.
 */
function pluginConsent(files: readonly LoadoutFile[]): { files: Set<string>; uncarried: UncarriedPart[] } {
  const texts = new Map(files.map((f) => [f.entry.path, f.content]));
  const requests = consentRequests(deriveCapabilities({ files: files.map((f) => f.entry), text: (path) => texts.get(path) }));
  const left = new Set<string>();
  const uncarried: UncarriedPart[] = [];
  for (const request of requests) {
    const part = request.kind === 'auto-approval' ? `mcp:${request.subject}` : request.file;
    if (request.kind !== 'auto-approval') left.add(request.file);
    const why = request.kind === 'auto-approval' ? `its ${request.key}: ${request.value} is left out, since it runs tools without asking and needs your consent (loadout install asks for it)` : `it needs your consent, which a plugin manager does not ask for: ${request.message}`;
    for (const format of ALL_FORMATS) uncarried.push({ format, part, why });
  }
  return { files: left, uncarried };
}

/** Two plugin files that cannot both be written, or one whose path cannot be, and why (one line). */
export interface PluginPathClash {
  /** The plugin path. */
  path: string;
  /** The loadout files it is made from (one or two; none for the manifests and README). */
  from: string[];
  /** What is wrong, e.g. `agents/a/helper.md and agents/b/helper.md both become agents/helper.md in the plugin`. */
  message: string;
}

/**
 * The clashes among a plugin folder's `files` (plugin-folder.ts `composePluginFolder`): two
 * files at one path (the zip and the folder hold one), a path that is not a normalised relative
 * path of segments of at most 255 bytes (catalogue/file-path.ts), and two paths that cannot
 * both exist on one file system (a file that is another's folder, or two paths that differ only
 * in case: one file on macOS and Windows, where the zip is unpacked). Empty when the plugin
 * can be written. Pure.
 */
export function describePluginClashes(files: readonly PluginFile[]): PluginPathClash[] {
  const clashes: PluginPathClash[] = [];
  const byPath = new Map<string, PluginFile>();
  const fromOf = (file: PluginFile | undefined): string[] => (file?.from === undefined ? [] : [file.from]);
  const nameOf = (file: PluginFile | undefined): string => file?.from ?? `the plugin's ${file?.path ?? ''}`;
  for (const file of files) {
    const problem = describePathProblem(file.path);
    if (problem !== undefined) {
      clashes.push({ path: file.path, from: fromOf(file), message: `${nameOf(file)} becomes "${file.path}" in the plugin, which ${problem}` });
      continue;
    }
    const other = byPath.get(file.path);
    if (other !== undefined) {
      clashes.push({ path: file.path, from: [...fromOf(other), ...fromOf(file)], message: `${nameOf(other)} and ${nameOf(file)} both become ${file.path} in the plugin (expected one plugin file each: the plugin names a subagent's file after its front-matter name, a rule's after its own base name)` });
      continue;
    }
    byPath.set(file.path, file);
  }
  for (const clash of describePathClashes(byPath.keys())) {
    const file = byPath.get(clash.path);
    const other = byPath.get(clash.other);
    clashes.push({ path: clash.path, from: [...fromOf(other), ...fromOf(file)], message: `${nameOf(other)} and ${nameOf(file)} become plugin files that cannot both exist: ${clash.message}` });
  }
  return clashes;
}
