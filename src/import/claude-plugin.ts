/**
 * A Claude Code plugin folder (Claude Code docs, "Plugins reference"): `.claude-plugin/plugin.json`
 * (`name`, `version`, `description`, `author`, `license`, `homepage`, `repository`, and paths
 * `agents`, `commands`, `hooks`, `mcpServers`), with the default folders `agents/`, `skills/`
 * and `commands/`, and `.mcp.json`.
 *
 * - `plugin.json` gives the loadout's metadata (title, summary, version, author, licence,
 *   source); the file itself is not part of the loadout.
 * - `agents/*.md` (and the paths `agents` names) become subagents (agent-files.ts).
 * - `.mcp.json`, or the file `mcpServers` names, becomes `mcp/<plugin>.json` byte for byte; an
 *   inline `mcpServers` object is written out as JSON.
 * - `skills/` is left to agent-skills.ts. Commands and hooks have no place in a loadout: they
 *   are left out with a note.
 *
 * Every path `plugin.json` names is hostile input: one that is absolute, holds `..` or
 * otherwise leaves the plugin folder is refused with a note and nothing is read through it.
 */
import { describePathProblem } from '../catalogue/file-path.js';
import { decodeUtf8 } from '../catalogue/source.js';
import { addAgent } from './agent-files.js';
import { baseNameOf, clip, emptyOutcome, isText, slugify, type FormatOutcome, type SourceFormat } from './parts.js';
import type { SourceTree } from './source-tree.js';

const MANIFEST = '.claude-plugin/plugin.json';

/** The fields of `plugin.json` this reads. */
interface PluginJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
  author?: unknown;
  license?: unknown;
  homepage?: unknown;
  repository?: unknown;
  agents?: unknown;
  commands?: unknown;
  hooks?: unknown;
  mcpServers?: unknown;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export const claudePlugin: SourceFormat = {
  label: 'Claude Code plugin',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    const manifestFile = tree.files.find((f) => f.path === MANIFEST);
    if (manifestFile === undefined || claimed.has(MANIFEST)) return outcome;
    outcome.claimed.push(MANIFEST);
    let plugin: PluginJson;
    try {
      plugin = JSON.parse(decodeUtf8(manifestFile.bytes) ?? '') as PluginJson;
      if (plugin === null || typeof plugin !== 'object' || Array.isArray(plugin)) throw new Error('not an object');
    } catch {
      outcome.notes.push({ path: MANIFEST, reason: 'is not a JSON object, so the plugin\'s name, version and paths were not read (fix its JSON)' });
      return outcome;
    }
    const name = str(plugin.name);
    const author = typeof plugin.author === 'string' ? str(plugin.author) : str((plugin.author as { name?: unknown } | null)?.name);
    const authorUrl = typeof plugin.author === 'object' && plugin.author !== null ? str((plugin.author as { url?: unknown }).url) : undefined;
    const repository = typeof plugin.repository === 'string' ? str(plugin.repository) : str((plugin.repository as { url?: unknown } | null)?.url);
    outcome.metadata = {
      ...(name === undefined ? {} : { name }),
      ...(str(plugin.description) === undefined ? {} : { description: str(plugin.description) as string }),
      ...(str(plugin.version) === undefined ? {} : { version: str(plugin.version) as string }),
      ...(author === undefined ? {} : { author: { name: author, ...(authorUrl === undefined ? {} : { url: authorUrl }) } }),
      ...(str(plugin.license) === undefined ? {} : { license: str(plugin.license) as string }),
      ...(repository ?? str(plugin.homepage) ? { repository: (repository ?? str(plugin.homepage)) as string } : {}),
    };

    // Subagents: agents/*.md, and the files or folders `agents` names.
    const agentPaths = ['agents', ...pathsNamed(plugin.agents, 'agents', outcome)];
    for (const file of tree.files) {
      if (claimed.has(file.path) || outcome.claimed.includes(file.path) || !file.path.endsWith('.md')) continue;
      if (agentPaths.some((p) => file.path === p || file.path.startsWith(`${p}/`))) addAgent(file, baseNameOf(file.path).slice(0, -'.md'.length), outcome);
    }

    // MCP servers: .mcp.json, the file `mcpServers` names, or an inline object.
    const mcpName = `mcp/${slugify(name ?? tree.name, 'servers')}.json`;
    if (plugin.mcpServers !== null && typeof plugin.mcpServers === 'object' && !Array.isArray(plugin.mcpServers)) {
      outcome.files.push({ entry: { path: mcpName, role: 'mcp', description: clip(`MCP servers of the ${name ?? tree.name} plugin (from ${MANIFEST})`, 200) }, bytes: Buffer.from(`${JSON.stringify({ mcpServers: plugin.mcpServers }, null, 2)}\n`) });
    } else {
      const [named] = pathsNamed(plugin.mcpServers, 'mcpServers', outcome);
      takeMcp(tree, named ?? '.mcp.json', mcpName, name ?? tree.name, claimed, outcome);
    }

    // Commands and hooks: no place in a loadout.
    for (const [field, folder] of [['commands', 'commands'], ['hooks', 'hooks']] as const) {
      const paths = [folder, ...pathsNamed(plugin[field], field, outcome)];
      for (const file of tree.files) {
        if (claimed.has(file.path) || outcome.claimed.includes(file.path) || !paths.some((p) => file.path === p || file.path.startsWith(`${p}/`))) continue;
        outcome.claimed.push(file.path);
        outcome.notes.push({ path: file.path, reason: `is one of the plugin's ${field}, which a loadout cannot hold: left out (turn it into a skill to keep it)` });
      }
    }
    return outcome;
  },
};

/**
 * The paths a `plugin.json` field names (a string or an array of strings), normalised
 * (`./agents/x.md` → `agents/x.md`, no trailing `/`). A path that is not a plain relative path
 * inside the plugin folder (absolute, `..`, a backslash) is refused with a note. Pure.
 */
function pathsNamed(value: unknown, field: string, outcome: FormatOutcome): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const paths: string[] = [];
  for (const raw of list) {
    const path = raw.replace(/^(?:\.\/)+/u, '').replace(/(?<!\/)\/+$/u, '');
    const problem = describePathProblem(path);
    if (problem !== undefined || path.split('/').some((s) => s.toLowerCase() === '.git')) {
      outcome.notes.push({ path: MANIFEST, reason: `names ${JSON.stringify(raw)} in "${field}", which ${problem ?? 'is inside .git'}: refused, nothing read there (name a path inside the plugin folder)` });
      continue;
    }
    paths.push(path);
  }
  return paths;
}

function takeMcp(tree: SourceTree, path: string, to: string, plugin: string, claimed: ReadonlySet<string>, outcome: FormatOutcome): void {
  const file = tree.files.find((f) => f.path === path);
  if (file === undefined || claimed.has(path)) return;
  outcome.claimed.push(path);
  if (!isText(file.bytes)) {
    outcome.notes.push({ path, reason: 'is not UTF-8 text (save it as UTF-8)' });
    return;
  }
  outcome.files.push({ entry: { path: to, role: 'mcp', description: clip(`MCP servers of the ${plugin} plugin (from ${path})`, 200) }, bytes: file.bytes, from: path });
}
