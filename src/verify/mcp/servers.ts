/**
 * The MCP servers a loadout declares: every file with role `mcp` that parses as JSON with a
 * top-level `mcpServers` object (DESIGN.md section 3, the `.mcp.json` shape), with the line of
 * each server's key so that findings can name it.
 */
import type { CheckContext } from '../check.js';

/** One server of one MCP configuration file. */
export interface McpServerEntry {
  file: string;
  name: string;
  /** The server's object as written (not yet validated). */
  config: Record<string, unknown>;
  /** 1-based line of the server's key. */
  line: number;
  /** 1-based line of `key` inside this server's object (its own line when absent). */
  lineOfKey(key: string): number;
}

/** A role-`mcp` file as parsed: its servers, or why it has none. */
export interface McpFile {
  file: string;
  /** Undefined when the file is not JSON (the `parse` check reports it) or is not text. */
  data: unknown;
  parsed: boolean;
  servers: McpServerEntry[];
}

/** Reads every role-`mcp` file of the manifest. Pure apart from `context.view`. */
export function readMcpFiles(context: CheckContext): McpFile[] {
  const files: McpFile[] = [];
  for (const entry of context.manifest?.files ?? []) {
    if (entry.role !== 'mcp') continue;
    const view = context.view(entry.path);
    const text = view?.text;
    let data: unknown;
    let parsed = false;
    try {
      data = text === undefined ? undefined : JSON.parse(text);
      parsed = text !== undefined;
    } catch {
      data = undefined;
    }
    const servers: McpServerEntry[] = [];
    const object = (data as { mcpServers?: unknown } | null | undefined)?.mcpServers;
    if (view !== undefined && text !== undefined && object !== null && typeof object === 'object' && !Array.isArray(object)) {
      const lines = view.lines;
      let from = text.indexOf('"mcpServers"');
      for (const [name, config] of Object.entries(object as Record<string, unknown>)) {
        const at = keyOffset(text, name, from);
        if (at >= 0) from = at + 1;
        const start = at < 0 ? 0 : at;
        const end = nextSiblingOffset(text, start);
        servers.push({
          file: entry.path,
          name,
          config: config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : {},
          line: lines.lineOf(start),
          lineOfKey(key) {
            const k = keyOffset(text, key, start + 1);
            return lines.lineOf(k >= 0 && k < end ? k : start);
          },
        });
      }
    }
    files.push({ file: entry.path, data, parsed, servers });
  }
  return files;
}

/** Every server of every MCP file. */
export function mcpServerEntries(context: CheckContext): McpServerEntry[] {
  return readMcpFiles(context).flatMap((f) => f.servers);
}

/** Offset of the JSON key `"key"` followed by `:` at or after `from`, or -1. */
export function keyOffset(text: string, key: string, from: number): number {
  const quoted = JSON.stringify(key);
  for (let i = text.indexOf(quoted, Math.max(0, from)); i >= 0; i = text.indexOf(quoted, i + 1)) {
    if (/^\s*:/u.test(text.slice(i + quoted.length, i + quoted.length + 20))) return i;
  }
  return -1;
}

/** Rough end of the object value starting after the key at `start`: the matching brace. */
function nextSiblingOffset(text: string, start: number): number {
  const open = text.indexOf('{', start);
  if (open < 0) return text.length;
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return text.length;
}
