/**
 * MCP servers merged into an agent's shared configuration file, in the file's own format
 * (`layout/mcp-formats.ts`, `MCP_FILE_FORMATS`): JSON with a top-level `mcpServers` (`.mcp.json`,
 * `.cursor/mcp.json`, `.gemini/settings.json`, `.agents/mcp_config.json`), VS Code's
 * `.vscode/mcp.json` (`servers`, and `inputs` the servers read), and Codex's `.codex/config.toml`
 * (`[mcp_servers.<name>]` tables, edited line by line so the rest of the user's file keeps its
 * bytes, `toml-tables.ts`). An install adds its parts and keeps everything else in the file (the
 * user's own servers, every other setting); uninstall takes out exactly the parts it added and
 * that nobody changed since (DESIGN.md section 3, "Composition"). Which parts an install added,
 * and their content, is recorded in the lock as name → sha256 of the part's canonical JSON; a
 * VS Code input is the part `input:<id>`. Pure: text in, text out.
 */
import { createHash } from 'node:crypto';
import { mcpFileFormat, type McpFileFormat } from '../../layout/mcp-formats.js';
import { canonicalJson } from '../../catalogue/canonical-json.js';
import { appendServerTable, parseToml, removeServerTable } from './toml-tables.js';

/** sha256 (hex) of a part's canonical JSON. */
export function serverDigest(server: unknown): string {
  return createHash('sha256').update(canonicalJson(server)).digest('hex');
}

/** The prefix of a VS Code input's part name: `input:<id>`. */
const INPUT = 'input:';

/** Parts to set (name → value) and to take out, in one edit. */
interface Changes {
  set: Record<string, unknown>;
  remove: string[];
}

/** An edit's result: the new text (undefined: nothing but empty containers is left, the file can go), or why it cannot be made. */
type Written = { ok: true; text: string | undefined } | { ok: false; problem: string };

/** A configuration file as read: its parts, its whole document (to compare), and how to write changes into it; or why it cannot be merged into. */
export type ParsedConfig = { ok: true; parts: Record<string, unknown>; doc: unknown; write(changes: Changes): Written } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Parses the text of the configuration file at `target` (undefined: no file yet). Never throws. */
export function parseConfig(text: string | undefined, target: string): ParsedConfig {
  const format = mcpFileFormat(target);
  return format.syntax === 'toml' ? parseTomlConfig(text) : parseJsonConfig(text, format);
}

function parseJsonConfig(text: string | undefined, format: McpFileFormat): ParsedConfig {
  let doc: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      doc = JSON.parse(text);
    } catch (error) {
      return { ok: false, problem: `is not JSON (${(error as Error).message})` };
    }
  }
  if (!isObject(doc)) return { ok: false, problem: 'is not a JSON object' };
  const container = doc[format.key] ?? {};
  if (!isObject(container)) return { ok: false, problem: `has a "${format.key}" that is not an object` };
  const inputs = format.inputs ? (doc['inputs'] ?? []) : [];
  if (!Array.isArray(inputs)) return { ok: false, problem: 'has "inputs" that is not an array' };
  const parts: Record<string, unknown> = { ...container };
  for (const input of inputs) if (isObject(input) && typeof input['id'] === 'string') parts[`${INPUT}${input['id']}`] = input;
  const write = ({ set, remove }: Changes): Written => {
    const servers: Record<string, unknown> = { ...container };
    let list: unknown[] = [...inputs];
    const inputId = (name: string): string | undefined => (format.inputs && name.startsWith(INPUT) ? name.slice(INPUT.length) : undefined);
    for (const name of remove) {
      const id = inputId(name);
      if (id === undefined) delete servers[name];
      else list = list.filter((i) => !(isObject(i) && i['id'] === id));
    }
    for (const [name, value] of Object.entries(set)) {
      const id = inputId(name);
      if (id === undefined) servers[name] = value;
      else {
        const at = list.findIndex((i) => isObject(i) && i['id'] === id);
        if (at >= 0) list[at] = value;
        else list.push(value);
      }
    }
    // An `inputs` this edit emptied goes with its last input; one the user keeps empty stays.
    const keepInputs = format.inputs && (list.length > 0 || (Object.hasOwn(doc, 'inputs') && inputs.length === 0));
    // A new `inputs` goes first, as VS Code's documentation writes the file.
    const { inputs: _inputs, ...rest } = doc;
    const next = keepInputs && !Object.hasOwn(doc, 'inputs') ? { inputs: list, ...rest, [format.key]: servers } : keepInputs ? { ...doc, inputs: list, [format.key]: servers } : { ...rest, [format.key]: servers };
    const empty = Object.keys(servers).length === 0 && list.length === 0 && Object.keys(next).every((k) => k === format.key || k === 'inputs');
    return { ok: true, text: empty ? undefined : `${JSON.stringify(next, null, 2)}\n` };
  };
  return { ok: true, parts, doc, write };
}

function parseTomlConfig(text: string | undefined): ParsedConfig {
  const parsed = parseToml(text);
  if (!parsed.ok) return parsed;
  const write = ({ set, remove }: Changes): Written => {
    let next = text ?? '';
    for (const name of [...remove, ...Object.keys(set).filter((n) => Object.hasOwn(parsed.servers, n))]) {
      const edit = removeServerTable(next, name);
      if (!edit.ok) return edit;
      next = edit.text;
    }
    for (const [name, value] of Object.entries(set)) {
      const edit = appendServerTable(next, name, isObject(value) ? value : {});
      if (!edit.ok) return edit;
      next = edit.text;
    }
    return { ok: true, text: next.trim() === '' ? undefined : next };
  };
  return { ok: true, parts: parsed.servers, doc: parsed.doc, write };
}

/** True when a part is a VS Code input that a server of `parts` (other than those in `leaving`) still reads (`${input:<id>}`). */
function inputStillRead(name: string, parts: Record<string, unknown>, leaving: ReadonlySet<string>): boolean {
  if (!name.startsWith(INPUT)) return false;
  const reference = `\${input:${name.slice(INPUT.length)}}`;
  return Object.entries(parts).some(([other, value]) => !other.startsWith(INPUT) && !leaving.has(other) && canonicalJson(value).includes(reference));
}

/** What {@link mergeServers} decided. */
export interface MergeResult {
  /** The new text, or undefined when the file cannot be merged into (see `problem`). */
  text: string | undefined;
  problem?: string;
  /** Parts that hold someone else's configuration under a name this install uses (not replaced unless `force`). */
  conflicts: string[];
  /** The parts this install owns afterwards, name → digest of the loadout's version (a kept, changed one included). */
  owned: Record<string, string>;
}

/**
 * Merges `parts` (servers by name, VS Code inputs as `input:<id>`, in the format of `target`)
 * into the configuration text `existing`. `previously` are the parts a previous install of the
 * same loadout recorded: one still unchanged is replaced or, when the new version no longer has
 * it, removed; one the user changed is kept. A part of the same name that the install does not
 * own, or that the user changed, is a conflict and is left as it is unless `force`. Everything
 * else in the file stays as it was.
 */
export function mergeServers(existing: string | undefined, target: string, parts: Record<string, unknown>, previously: Record<string, string> = {}, force = false): MergeResult {
  let parsed = parseConfig(existing, target);
  // `force` overwrites a file that cannot be merged into, as it overwrites any other file.
  if (!parsed.ok && force) parsed = parseConfig(undefined, target);
  if (!parsed.ok) return { text: undefined, problem: parsed.problem, conflicts: [], owned: {} };
  const current = parsed.parts;
  const changes: Changes = { set: {}, remove: [] };
  const conflicts: string[] = [];
  const owned: Record<string, string> = {};
  for (const [name, part] of Object.entries(parts)) {
    const digest = serverDigest(part);
    const present = Object.hasOwn(current, name) ? serverDigest(current[name]) : undefined;
    if (present === digest) {
      owned[name] = digest;
      continue;
    }
    if (present !== undefined && present !== previously[name] && !force) {
      conflicts.push(name);
      // A part this loadout added and the user changed stays the loadout's (status reports it changed).
      if (Object.hasOwn(previously, name)) owned[name] = digest;
      continue;
    }
    changes.set[name] = part;
    owned[name] = digest;
  }
  const leaving = new Set(Object.keys(previously).filter((name) => !Object.hasOwn(parts, name) && Object.hasOwn(current, name) && serverDigest(current[name]) === previously[name]));
  changes.remove = [...leaving].filter((name) => !inputStillRead(name, { ...current, ...changes.set }, leaving));
  const written = parsed.write(changes);
  if (!written.ok) return { text: undefined, problem: written.problem, conflicts: [], owned: {} };
  return { text: written.text ?? '', conflicts, owned };
}

/** What {@link removeServers} decided. */
export interface RemoveResult {
  /** The new text; undefined when nothing else is left in the file (remove it) or it cannot be read (see `problem`). */
  text: string | undefined;
  problem?: string;
  removed: string[];
  /** Owned parts the user changed since: kept. */
  kept: string[];
}

/**
 * Takes the parts in `owned` (name → digest) out of the configuration text `existing` of the file
 * at `target`, except those whose content changed since (kept) and inputs a remaining server
 * still reads. Everything else stays. When nothing but empty containers is left, `text` is
 * undefined: the file can go.
 */
export function removeServers(existing: string, target: string, owned: Record<string, string>): RemoveResult {
  const parsed = parseConfig(existing, target);
  if (!parsed.ok) return { text: existing, problem: parsed.problem, removed: [], kept: Object.keys(owned) };
  const kept: string[] = [];
  const leaving = new Set<string>();
  for (const [name, digest] of Object.entries(owned)) {
    if (!Object.hasOwn(parsed.parts, name)) continue;
    if (serverDigest(parsed.parts[name]) === digest) leaving.add(name);
    else kept.push(name);
  }
  const removed = [...leaving].filter((name) => !inputStillRead(name, parsed.parts, leaving));
  const written = parsed.write({ set: {}, remove: removed });
  if (!written.ok) return { text: existing, problem: written.problem, removed: [], kept: Object.keys(owned) };
  return { text: written.text, removed, kept };
}

/** The state of each owned part in the configuration text (undefined: the file is missing). */
export function ownedServerStates(existing: string | undefined, target: string, owned: Record<string, string>): Record<string, 'ok' | 'changed' | 'missing'> {
  const parsed = parseConfig(existing, target);
  const parts = parsed.ok ? parsed.parts : {};
  return Object.fromEntries(Object.entries(owned).map(([name, digest]) => [name, !Object.hasOwn(parts, name) ? 'missing' : serverDigest(parts[name]) === digest ? 'ok' : 'changed']));
}

/** True when the texts of the file at `target` hold equal documents (key order and formatting aside); false when either does not parse. */
export function sameConfig(a: string | undefined, b: string | undefined, target: string): boolean {
  const pa = parseConfig(a, target);
  const pb = parseConfig(b, target);
  // An empty `inputs` is no input (VS Code reads both alike).
  const normal = (doc: unknown): string => canonicalJson(isObject(doc) && Array.isArray(doc['inputs']) && doc['inputs'].length === 0 ? { ...doc, inputs: undefined } : doc);
  return pa.ok && pb.ok && normal(pa.doc) === normal(pb.doc);
}

/** The parts a loadout's MCP file (as installed for the agent, in the format of `target`) contributes, or undefined when it is not such a file. */
export function readParts(text: string, target: string): Record<string, unknown> | undefined {
  const format = mcpFileFormat(target);
  const parsed = parseConfig(text, target);
  if (!parsed.ok || (format.syntax === 'json' && !isObject((parsed.doc as Record<string, unknown>)[format.key]))) return undefined;
  return parsed.parts;
}

/** The text of the file at `target` when an install emptied a file it did not create: `{"mcpServers": {}}` (or `servers`), or nothing for TOML. */
export function emptiedConfig(target: string): string {
  const format = mcpFileFormat(target);
  return format.syntax === 'toml' ? '' : `${JSON.stringify({ [format.key]: {} }, null, 2)}\n`;
}
