/**
 * MCP servers merged into an agent's shared configuration file, in the file's own format
 * (`layout/mcp-formats.ts`, `MCP_FILE_FORMATS`): JSON with a top-level `mcpServers` (`.mcp.json`,
 * `.cursor/mcp.json`, `.gemini/settings.json`, `.agents/mcp_config.json`), VS Code's
 * `.vscode/mcp.json` (`servers`, and `inputs` the servers read), and Codex's `.codex/config.toml`
 * (`[mcp_servers.<name>]` tables, `toml-tables.ts`). Both are edited in place, so every other
 * byte of the user's file stays as it was: a JSON file member by member (`json-members.ts`;
 * comments and trailing commas accepted, as VS Code's JSONC), a TOML file table by table. An
 * install adds its parts and keeps everything else in the file (the user's own servers, every
 * other setting); uninstall takes out exactly the parts it added and that nobody changed since
 * (DESIGN.md section 3, "Composition"), and a container an install created or first filled
 * (`mcpServers`, `inputs`, the root object) is given back as it was (a `ContainerMemo`, kept in
 * the lock). Which parts an install added, and their content, is recorded in the lock as name →
 * sha256 of the part's canonical JSON; a VS Code input is the part `input:<id>`. Every edit is
 * checked by parsing the result: a text whose servers, inputs or other settings are not exactly
 * those expected is refused with a problem, never written. Pure: text in, text out.
 */
import { createHash } from 'node:crypto';
import { mcpFileFormat, type McpFileFormat } from '../../layout/mcp-formats.js';
import { findTomlGaps, showPath } from '../../layout/toml-limits.js';
import { canonicalJson } from '../../catalogue/canonical-json.js';
import { addMember, holdsComment, readJson, removeMember, replaceMember, restoreContainers, type ContainerMemo } from './json-members.js';
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

/** An edit's result: the new text and the containers to remember, or why it cannot be made. */
type Written = { ok: true; text: string; memo: ContainerMemo } | { ok: false; problem: string };

/** A configuration file as read: its parts, its whole document (to compare), and how to write changes into it; or why it cannot be merged into. */
export type ParsedConfig = { ok: true; parts: Record<string, unknown>; doc: unknown; write(changes: Changes): Written } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The keys of the containers a file of `format` holds parts in: the servers' key, and VS Code's `inputs`. */
export function containerKeys(format: McpFileFormat): string[] {
  return format.inputs ? [format.key, 'inputs'] : [format.key];
}

/**
 * Parses the text of the configuration file at `target` (undefined: no file yet). `memo`: its
 * containers as they were before the installs (JSON files; see `json-members.ts`). Never throws.
 */
export function parseConfig(text: string | undefined, target: string, memo: ContainerMemo = {}): ParsedConfig {
  const format = mcpFileFormat(target);
  return format.syntax === 'toml' ? parseTomlConfig(text, memo) : parseJsonConfig(text, format, memo);
}

/** The first name `names` holds twice, or undefined. */
function repeated(names: readonly unknown[]): unknown {
  return names.find((name, i) => names.indexOf(name) !== i);
}

function parseJsonConfig(text: string | undefined, format: McpFileFormat, memo: ContainerMemo): ParsedConfig {
  const read = readJson(text ?? '');
  if (!read.ok) return read;
  const doc = read.value ?? {};
  if (!isObject(doc)) return { ok: false, problem: 'is not a JSON object' };
  const keys = (read.root?.children ?? []).map((p) => p.children?.[0]?.value);
  const twice = repeated(keys.filter((k) => containerKeys(format).includes(k as string)));
  if (twice !== undefined) return { ok: false, problem: `has "${String(twice)}" twice` };
  const container = doc[format.key] ?? {};
  if (!isObject(container)) return { ok: false, problem: `has a "${format.key}" that is not an object` };
  const names = (read.root?.children?.find((p) => p.children?.[0]?.value === format.key)?.children?.[1]?.children ?? []).map((p) => p.children?.[0]?.value);
  const server = repeated(names);
  if (server !== undefined) return { ok: false, problem: `has the server "${String(server)}" twice in "${format.key}"` };
  const inputs = format.inputs ? (doc['inputs'] ?? []) : [];
  if (!Array.isArray(inputs)) return { ok: false, problem: 'has "inputs" that is not an array' };
  const ids = inputs.flatMap((i) => (isObject(i) && typeof i['id'] === 'string' ? [i['id']] : []));
  const input = repeated(ids);
  if (input !== undefined) return { ok: false, problem: `has the input "${String(input)}" twice in "inputs"` };
  const parts: Record<string, unknown> = { ...container };
  for (const i of inputs) if (isObject(i) && typeof i['id'] === 'string') parts[`${INPUT}${i['id']}`] = i;
  const inputId = (name: string): string | undefined => (format.inputs && name.startsWith(INPUT) ? name.slice(INPUT.length) : undefined);
  /** The index of the input `id` in `current`'s `inputs`, or -1. */
  const inputIndex = (current: string, id: string): number => {
    const value = readJson(current);
    const list = value.ok && isObject(value.value) && Array.isArray(value.value['inputs']) ? value.value['inputs'] : [];
    return list.findIndex((i) => isObject(i) && i['id'] === id);
  };
  const write = ({ set, remove }: Changes): Written => {
    let next = text ?? '';
    const kept = { ...memo };
    for (const name of remove) {
      const id = inputId(name);
      next = id === undefined ? removeMember(next, `/${format.key}`, name) : removeMember(next, '/inputs', inputIndex(next, id));
    }
    for (const [name, value] of Object.entries(set)) {
      const id = inputId(name);
      if (id === undefined) next = Object.hasOwn(container, name) && !remove.includes(name) ? replaceMember(next, `/${format.key}`, name, value) : addMember(next, `/${format.key}`, { name, value }, kept);
      else {
        const at = inputIndex(next, id);
        // A new `inputs` goes first, as VS Code's documentation writes the file.
        next = at >= 0 ? replaceMember(next, '/inputs', at, value) : addMember(next, '/inputs', { value }, kept, true);
      }
    }
    next = restoreContainers(next, kept);
    const problem = describeEditProblem(next, format, doc, parts, { set, remove });
    return problem === undefined ? { ok: true, text: next, memo: kept } : { ok: false, problem };
  };
  return { ok: true, parts, doc, write };
}

/**
 * Why the edited JSON `text` is not the document expected (`doc` with its parts `parts` changed
 * by `changes`, every other setting the same), or undefined when it is.
 */
function describeEditProblem(text: string, format: McpFileFormat, doc: Record<string, unknown>, parts: Record<string, unknown>, changes: Changes): string | undefined {
  const after = parseJsonConfig(text, format, {});
  if (!after.ok) return `cannot be edited in place (the result ${after.problem})`;
  const expected = { ...parts };
  for (const name of changes.remove) delete expected[name];
  Object.assign(expected, changes.set);
  const rest = (value: unknown): string => canonicalJson(Object.fromEntries(Object.entries(isObject(value) ? value : {}).filter(([k]) => !containerKeys(format).includes(k))));
  if (canonicalJson(after.parts) !== canonicalJson(expected) || rest(after.doc) !== rest(doc)) return 'cannot be edited in place (the result does not hold exactly the servers expected beside the rest of the file)';
  return undefined;
}

function parseTomlConfig(text: string | undefined, memo: ContainerMemo): ParsedConfig {
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
    return { ok: true, text: next, memo };
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
  /** The file's containers as they were before the installs, afterwards (`json-members.ts`). */
  memo: ContainerMemo;
}

/**
 * Merges `parts` (servers by name, VS Code inputs as `input:<id>`, in the format of `target`)
 * into the configuration text `existing`. `previously` are the parts a previous install of the
 * same loadout recorded: one still unchanged is replaced or, when the new version no longer has
 * it, removed; one the user changed is kept. A part of the same name that the install does not
 * own, or that the user changed, is a conflict and is left as it is unless `force`. Everything
 * else in the file stays as it was, byte for byte. `memo`: the file's containers as they were
 * before the installs.
 */
export function mergeServers(existing: string | undefined, target: string, parts: Record<string, unknown>, previously: Record<string, string> = {}, force = false, memo: ContainerMemo = {}): MergeResult {
  let parsed = parseConfig(existing, target, memo);
  // `force` overwrites a file that cannot be merged into, as it overwrites any other file.
  if (!parsed.ok && force) parsed = parseConfig(undefined, target, memo);
  if (!parsed.ok) return { text: undefined, problem: parsed.problem, conflicts: [], owned: {}, memo };
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
  if (!written.ok) return { text: undefined, problem: written.problem, conflicts: [], owned: {}, memo };
  return { text: written.text, conflicts, owned, memo: written.memo };
}

/** What {@link removeServers} decided. */
export interface RemoveResult {
  /** The new text (`existing` when it cannot be read: see `problem`). */
  text: string;
  problem?: string;
  removed: string[];
  /** Owned parts the user changed since: kept. */
  kept: string[];
  /** The file's containers as they were before the installs, afterwards. */
  memo: ContainerMemo;
}

/**
 * Takes the parts in `owned` (name → digest) out of the configuration text `existing` of the file
 * at `target`, except those whose content changed since (kept) and inputs a remaining server
 * still reads. Everything else stays; a container of `memo` left empty is given back as it was.
 */
export function removeServers(existing: string, target: string, owned: Record<string, string>, memo: ContainerMemo = {}): RemoveResult {
  const parsed = parseConfig(existing, target, memo);
  if (!parsed.ok) return { text: existing, problem: parsed.problem, removed: [], kept: Object.keys(owned), memo };
  const kept: string[] = [];
  const leaving = new Set<string>();
  for (const [name, digest] of Object.entries(owned)) {
    if (!Object.hasOwn(parsed.parts, name)) continue;
    if (serverDigest(parsed.parts[name]) === digest) leaving.add(name);
    else kept.push(name);
  }
  const removed = [...leaving].filter((name) => !inputStillRead(name, parsed.parts, leaving));
  const written = parsed.write({ set: {}, remove: removed });
  if (!written.ok) return { text: existing, problem: written.problem, removed: [], kept: Object.keys(owned), memo };
  return { text: written.text, removed, kept, memo: written.memo };
}

/** The state of each owned part in the configuration text (undefined: the file is missing). */
export function ownedServerStates(existing: string | undefined, target: string, owned: Record<string, string>): Record<string, 'ok' | 'changed' | 'missing'> {
  const parsed = parseConfig(existing, target);
  const parts = parsed.ok ? parsed.parts : {};
  return Object.fromEntries(Object.entries(owned).map(([name, digest]) => [name, !Object.hasOwn(parts, name) ? 'missing' : serverDigest(parts[name]) === digest ? 'ok' : 'changed']));
}

/** The document without the containers of `format` that are empty (an empty `mcpServers` or `inputs` is none: the agents read both alike). */
function withoutEmptyContainers(doc: unknown, format: McpFileFormat): unknown {
  if (!isObject(doc)) return doc;
  const empty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0);
  return Object.fromEntries(Object.entries(doc).filter(([key, value]) => !(containerKeys(format).includes(key) && empty(value))));
}

/** True when the texts of the file at `target` hold equal documents (key order, formatting and empty containers aside); false when either does not parse. */
export function sameConfig(a: string | undefined, b: string | undefined, target: string): boolean {
  const format = mcpFileFormat(target);
  const pa = parseConfig(a, target);
  const pb = parseConfig(b, target);
  return pa.ok && pb.ok && canonicalJson(withoutEmptyContainers(pa.doc, format)) === canonicalJson(withoutEmptyContainers(pb.doc, format));
}

/**
 * True when the text of the file at `target` holds nothing but empty containers of its format
 * (`{"mcpServers": {}}`, an empty TOML file): no other setting and no comment. Such a file an
 * install created goes with its last install.
 */
export function isEmptyConfig(text: string, target: string): boolean {
  const format = mcpFileFormat(target);
  const parsed = parseConfig(text, target);
  if (!parsed.ok) return false;
  const comment = format.syntax === 'toml' ? text.includes('#') : holdsComment(text);
  return !comment && Object.keys(withoutEmptyContainers(parsed.doc, format) as Record<string, unknown>).length === 0;
}

/**
 * The parts a loadout's MCP file (as installed for the agent, in the format of `target`)
 * contributes, or why it is not such a file, or (TOML, `value`) why Codex could not read a value
 * of it: an integer beyond 64 bits, which smol-toml reads but Codex's TOML reader refuses, failing
 * the whole file (`layout/toml-limits.ts`).
 */
export function readAgentParts(text: string, target: string): { ok: true; parts: Record<string, unknown> } | { ok: false; problem: string; value?: true } {
  const format = mcpFileFormat(target);
  const parsed = parseConfig(text, target);
  if (!parsed.ok) return parsed;
  if (format.syntax === 'json' && !isObject((parsed.doc as Record<string, unknown>)[format.key])) return { ok: false, problem: `has no "${format.key}" object` };
  if (format.syntax === 'toml') {
    for (const [name, server] of Object.entries(parsed.parts)) {
      const gap = findTomlGaps(server).find((g) => g.fails);
      if (gap !== undefined) return { ok: false, value: true, problem: `has ${showPath(gap.path)} = ${String(gap.value)} in [mcp_servers.${name}]: ${gap.why}` };
    }
  }
  return { ok: true, parts: parsed.parts };
}

/** The parts a loadout's MCP file (as installed for the agent, in the format of `target`) contributes, or undefined when it is not such a file. */
export function readParts(text: string, target: string): Record<string, unknown> | undefined {
  const read = readAgentParts(text, target);
  return read.ok ? read.parts : undefined;
}
