/**
 * The MCP servers a loadout declares: every file with role `mcp` that parses as JSON with a
 * top-level `mcpServers` object (DESIGN.md section 3, the `.mcp.json` shape), with the line of
 * each server's key and of every value inside it, and the spelling of its numbers, so that
 * findings can name them. Positions come from jsonc-parser's parse tree.
 */
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { CheckContext } from '../check.js';

/** A number of a server as the file spells it (`12345678901234567890`, `1.10`), with where it is. */
export interface NumberLiteral {
  /** Keys and indexes from the server's object. */
  path: (string | number)[];
  /** The digits as written. */
  raw: string;
  line: number;
}

/** One server of one MCP configuration file. */
export interface McpServerEntry {
  file: string;
  name: string;
  /** The server's object as written (not yet validated). */
  config: Record<string, unknown>;
  /** 1-based line of the server's key. */
  line: number;
  /** 1-based line of the first key `key` inside this server's object, at any depth (its own line when absent). */
  lineOfKey(key: string): number;
  /** 1-based line of the value at `path` (keys and indexes) inside this server's object (its own line when absent). */
  lineOfPath(path: readonly (string | number)[]): number;
  /** Every number inside this server's object, as written. */
  numbers: NumberLiteral[];
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
      const lineAt = (offset: number): number => view.lines.lineOf(offset);
      const container = findNodeAtLocation(parseTree(text) as Node, ['mcpServers']);
      for (const [name, config] of Object.entries(object as Record<string, unknown>)) {
        // JSON.parse keeps the last of two equal keys: so does this.
        const property = container?.children?.findLast((p) => p.children?.[0]?.value === name);
        const node = property?.children?.[1];
        const line = lineAt(property?.offset ?? 0);
        servers.push({
          file: entry.path,
          name,
          config: config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : {},
          line,
          lineOfKey(key) {
            const found = node === undefined ? undefined : firstProperty(node, key);
            return found === undefined ? line : lineAt(found.offset);
          },
          lineOfPath(path) {
            const found = node === undefined ? undefined : findNodeAtLocation(node, [...path]);
            return found === undefined ? line : lineAt(found.offset);
          },
          numbers: node === undefined ? [] : numbersOf(node, []).map(({ path, at }) => ({ path, raw: text.slice(at.offset, at.offset + at.length), line: lineAt(at.offset) })),
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

/** The first property named `key` under `node`, in the order of the file, at any depth. */
function firstProperty(node: Node, key: string): Node | undefined {
  for (const child of node.children ?? []) {
    if (child.type === 'property' && child.children?.[0]?.value === key) return child;
    const inner = firstProperty(child.type === 'property' ? (child.children?.[1] ?? child) : child, key);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Every number node under `node`, with its path. */
function numbersOf(node: Node, path: (string | number)[]): { path: (string | number)[]; at: Node }[] {
  if (node.type === 'number') return [{ path, at: node }];
  if (node.type === 'array') return (node.children ?? []).flatMap((child, i) => numbersOf(child, [...path, i]));
  if (node.type !== 'object') return [];
  return (node.children ?? []).flatMap((p) => {
    const [key, value] = p.children ?? [];
    return key === undefined || value === undefined ? [] : numbersOf(value, [...path, key.value as string]);
  });
}
