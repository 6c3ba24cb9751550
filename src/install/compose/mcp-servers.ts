/**
 * MCP configuration merged into the agent's shared configuration file (`.mcp.json`,
 * `.cursor/mcp.json`, `.gemini/settings.json`, all with a top-level `mcpServers` object,
 * DESIGN.md section 3): an install adds its servers and keeps everything else in the file (the
 * user's own servers, and for Gemini CLI every other setting); uninstall takes out exactly the
 * servers it added and that nobody changed since (DESIGN.md section 3, "Composition"). Which
 * servers an install added, and their content, is recorded in the lock as name → sha256 of the
 * server's canonical JSON. Pure: text in, text out.
 */
import { createHash } from 'node:crypto';
import type { McpServerConfig } from '../project/mcp-config.js';

/** JSON with object keys sorted at every depth, so equal servers have equal digests. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of a server's canonical JSON. */
export function serverDigest(server: unknown): string {
  return createHash('sha256').update(canonicalJson(server)).digest('hex');
}

/** A configuration document as read: its object, or why it cannot be merged into. */
type ParsedConfig = { ok: true; doc: Record<string, unknown>; servers: Record<string, unknown> } | { ok: false; problem: string };

/** Parses the existing text of a configuration file (undefined: no file yet). */
export function parseConfig(text: string | undefined): ParsedConfig {
  if (text === undefined || text.trim() === '') return { ok: true, doc: {}, servers: {} };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `is not JSON (${(error as Error).message})` };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, problem: 'is not a JSON object' };
  const servers = (doc as Record<string, unknown>)['mcpServers'];
  if (servers === undefined) return { ok: true, doc: doc as Record<string, unknown>, servers: {} };
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return { ok: false, problem: 'has an "mcpServers" that is not an object' };
  return { ok: true, doc: doc as Record<string, unknown>, servers: servers as Record<string, unknown> };
}

/** Text of a configuration document as the installer writes it: two-space JSON and a newline. */
const render = (doc: Record<string, unknown>): string => `${JSON.stringify(doc, null, 2)}\n`;

/** What {@link mergeServers} decided. */
export interface MergeResult {
  /** The new text, or undefined when the file cannot be merged into (see `problem`). */
  text: string | undefined;
  problem?: string;
  /** Servers that hold someone else's configuration under a name this install uses (not replaced unless `force`). */
  conflicts: string[];
  /** The servers this install owns afterwards, name → digest of the loadout's version (a kept, changed one included). */
  owned: Record<string, string>;
}

/**
 * Merges `servers` into the configuration text `existing`. `previously` are the servers a
 * previous install of the same loadout recorded: one still unchanged is replaced or, when
 * the new version no longer has it, removed; one the user changed is kept. A server of the
 * same name that the install does not own, or that the user changed, is a conflict and is
 * left as it is unless `force`. Every other key of the file stays as it was.
 */
export function mergeServers(existing: string | undefined, servers: Record<string, McpServerConfig>, previously: Record<string, string> = {}, force = false): MergeResult {
  let parsed = parseConfig(existing);
  // `force` overwrites a file that cannot be merged into, as it overwrites any other file.
  if (!parsed.ok && force) parsed = parseConfig(undefined);
  if (!parsed.ok) return { text: undefined, problem: parsed.problem, conflicts: [], owned: {} };
  const next: Record<string, unknown> = { ...parsed.servers };
  const conflicts: string[] = [];
  const owned: Record<string, string> = {};
  for (const [name, server] of Object.entries(servers)) {
    const digest = serverDigest(server);
    const present = Object.hasOwn(next, name) ? serverDigest(next[name]) : undefined;
    if (present !== undefined && present !== digest && present !== previously[name] && !force) {
      conflicts.push(name);
      // A server this loadout added and the user changed stays the loadout's (status reports it changed).
      if (Object.hasOwn(previously, name)) owned[name] = digest;
      continue;
    }
    next[name] = server;
    owned[name] = digest;
  }
  for (const [name, digest] of Object.entries(previously)) {
    if (Object.hasOwn(servers, name) || !Object.hasOwn(next, name)) continue;
    if (serverDigest(next[name]) === digest) delete next[name];
  }
  return { text: render({ ...parsed.doc, mcpServers: next }), conflicts, owned };
}

/** What {@link removeServers} decided. */
export interface RemoveResult {
  /** The new text; undefined when nothing else is left in the file (remove it) or it cannot be read (see `problem`). */
  text: string | undefined;
  problem?: string;
  removed: string[];
  /** Owned servers the user changed since: kept. */
  kept: string[];
}

/**
 * Takes the servers in `owned` (name → digest) out of the configuration text `existing`,
 * except those whose content changed since (kept). Everything else stays. When the document
 * is left with nothing but an empty `mcpServers`, `text` is undefined: the file can go.
 */
export function removeServers(existing: string, owned: Record<string, string>): RemoveResult {
  const parsed = parseConfig(existing);
  if (!parsed.ok) return { text: existing, problem: parsed.problem, removed: [], kept: Object.keys(owned) };
  const next: Record<string, unknown> = { ...parsed.servers };
  const removed: string[] = [];
  const kept: string[] = [];
  for (const [name, digest] of Object.entries(owned)) {
    if (!Object.hasOwn(next, name)) continue;
    if (serverDigest(next[name]) === digest) {
      delete next[name];
      removed.push(name);
    } else kept.push(name);
  }
  const doc = { ...parsed.doc, mcpServers: next };
  const empty = Object.keys(next).length === 0 && Object.keys(doc).length === 1;
  return { text: empty ? undefined : render(doc), removed, kept };
}

/** The state of each owned server in the configuration text (undefined: the file is missing). */
export function ownedServerStates(existing: string | undefined, owned: Record<string, string>): Record<string, 'ok' | 'changed' | 'missing'> {
  const parsed = parseConfig(existing);
  const servers = parsed.ok ? parsed.servers : {};
  return Object.fromEntries(Object.entries(owned).map(([name, digest]) => [name, !Object.hasOwn(servers, name) ? 'missing' : serverDigest(servers[name]) === digest ? 'ok' : 'changed']));
}
