/**
 * One interface for a file several installs and the user may share, and its three formats:
 * a whole file (one install's bytes), MCP servers merged into a JSON configuration file
 * (`mcp-servers.ts`), and marked blocks in a Markdown instruction file (`markdown-blocks.ts`).
 * Each format parses the file's bytes, adds an install's part, removes it, and says the state of
 * an install's part (for `status`). The plan (`plan.ts`) and `status` use only this interface.
 * Pure.
 */
import { createHash } from 'node:crypto';
import { LoadoutError } from '../../catalogue/errors.js';
import type { Role } from '../../catalogue/vocabulary.js';
import type { FileKind, LockedFile } from '../project/lock.js';
import { blockBody, blockDigest, dropBlock, findBlock, parseBlocks, putBlock, renderBlocks, withSingleImport, type BlockDocument } from './markdown-blocks.js';
import type { ContainerMemo } from './json-members.js';
import { mergeServers, ownedServerStates, readAgentParts, removeServers } from './mcp-servers.js';
import { isMergeableMcpTarget } from '../../layout/protected-paths.js';

/** The state of an install's part of a file: as written, changed since, or gone. */
export type PartState = 'ok' | 'changed' | 'missing';

/** What an install puts into a file: the loadout file's bytes and where they come from. */
export interface Contribution {
  id: string;
  version: string;
  target: string;
  path: string;
  role: Role;
  bytes: Uint8Array;
  /** `<id> <version> <path>`, for messages. */
  label: string;
}

/** The result of adding a part: the new document, the lock record, the names of the user's parts in the way (not replaced unless forced). */
export interface Added<D> {
  doc: D;
  record: LockedFile;
  conflicts: string[];
}

/** The result of removing a part: the new document, and the names of parts changed since, kept in place. */
export interface Removed<D> {
  doc: D;
  kept: string[];
}

/**
 * A shared file's format. `parse` never throws (a file that cannot be parsed is a document
 * whose parts are all the user's); `render` gives undefined when nothing is left. A format that
 * must remember something of the user's file between commands (MCP configuration: its
 * containers as they were before the installs, `json-members.ts`) takes it in `parse` and gives
 * it back from `memo`; the plan keeps it in the lock.
 */
export interface SharedFormat<D> {
  kind: FileKind;
  parse(bytes: Uint8Array | undefined, adapter: boolean, memo?: ContainerMemo): D;
  /** What the format remembers of the file after the changes made to `doc`. */
  memo?(doc: D): ContainerMemo;
  /** `record`'s part in `doc` (`id`: the loadout holding it); `parts` names each server. */
  state(doc: D, record: LockedFile, id: string): { state: PartState; parts?: Record<string, PartState> };
  /** `doc` with `part` added or, with `previous` (the same install's record), replacing it; `force` replaces the user's parts in the way. */
  add(doc: D, part: Contribution, previous: LockedFile | undefined, force: boolean): Added<D>;
  /** `doc` without `record`'s part (`id`: the loadout holding it); a part changed since is kept unless `force`. */
  remove(doc: D, record: LockedFile, id: string, force: boolean): Removed<D>;
  render(doc: D): Uint8Array | undefined;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const decoder = new TextDecoder();
const bomKeepingDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();
// The byte order mark is kept in the text, so that the file is written back with it.
const textOf = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : bomKeepingDecoder.decode(bytes));

/** The kind of file a loadout file of `role` becomes at `target`: MCP into JSON or an agent's MCP file (Codex's TOML) is merged, instructions and adapters into Markdown are blocks, the rest whole files. */
export function kindOf(role: Role | undefined, target: string): FileKind {
  if (role === 'mcp' && (target.endsWith('.json') || isMergeableMcpTarget(role, target))) return 'servers';
  if ((role === 'instructions' || role === 'adapter') && target.endsWith('.md')) return 'block';
  return 'file';
}

/** A whole file: the document is its bytes (undefined: no file). */
export const wholeFile: SharedFormat<{ bytes: Uint8Array | undefined }> = {
  kind: 'file',
  parse: (bytes) => ({ bytes }),
  state: (doc, record) => ({ state: doc.bytes === undefined ? 'missing' : sha256(doc.bytes) === record.sha256 ? 'ok' : 'changed' }),
  add: (doc, part, previous, force) => {
    const record: LockedFile = { kind: 'file', target: part.target, path: part.path, role: part.role, sha256: sha256(part.bytes) };
    const theirs = doc.bytes !== undefined && sha256(doc.bytes) !== record.sha256 && (previous === undefined || sha256(doc.bytes) !== previous.sha256);
    if (theirs && !force) return { doc, record, conflicts: [part.target] };
    return { doc: { bytes: part.bytes }, record, conflicts: [] };
  },
  remove: (doc, record, _id, force) => {
    if (doc.bytes === undefined) return { doc, kept: [] };
    if (sha256(doc.bytes) !== record.sha256 && !force) return { doc, kept: [record.target] };
    return { doc: { bytes: undefined }, kept: [] };
  },
  render: (doc) => doc.bytes,
};

/**
 * MCP servers in an agent's configuration file (JSON or Codex's TOML), edited in place: the
 * document is its text (undefined: no file) and its containers as they were before the installs;
 * see `mcp-servers.ts`.
 */
export const mcpServers: SharedFormat<{ text: string | undefined; memo: ContainerMemo }> = {
  kind: 'servers',
  parse: (bytes, _adapter, memo) => ({ text: textOf(bytes), memo: { ...memo } }),
  memo: (doc) => doc.memo,
  state: (doc, record) => {
    const owned = record.kind === 'servers' ? record.servers : {};
    if (doc.text === undefined) return { state: 'missing', parts: Object.fromEntries(Object.keys(owned).map((n) => [n, 'missing' as const])) };
    const parts = ownedServerStates(doc.text, record.target, owned);
    const states = Object.values(parts);
    return { state: states.includes('changed') ? 'changed' : states.includes('missing') ? 'missing' : 'ok', parts };
  },
  add: (doc, part, previous, force) => {
    // The bytes are the loadout's file as installed for the agent: already in the target's shape (layout/mcp-formats.ts).
    const read = readAgentParts(decoder.decode(part.bytes), part.target);
    if (!read.ok) throw unwritableParts(part, read.problem, read.value === true);
    const merged = mergeServers(doc.text, part.target, read.parts, previous?.kind === 'servers' ? previous.servers : undefined, force, doc.memo);
    const record: LockedFile = { kind: 'servers', target: part.target, path: part.path, role: part.role, sha256: sha256(part.bytes), servers: merged.owned };
    if (merged.text === undefined) return { doc, record, conflicts: [`(the file ${merged.problem ?? 'cannot be read'})`] };
    if (merged.conflicts.length > 0) return { doc, record, conflicts: merged.conflicts };
    return { doc: { text: merged.text, memo: merged.memo }, record, conflicts: [] };
  },
  remove: (doc, record) => {
    if (doc.text === undefined || record.kind !== 'servers') return { doc, kept: [] };
    const result = removeServers(doc.text, record.target, record.servers, doc.memo);
    if (result.problem !== undefined) return { doc, kept: Object.keys(record.servers) };
    return { doc: { text: result.text, memo: result.memo }, kept: result.kept };
  },
  render: (doc) => (doc.text === undefined ? undefined : encoder.encode(doc.text)),
};

/** Marked blocks in Markdown (`markdown-blocks.ts`): a block per loadout, found by its id. */
export const markdownBlocks: SharedFormat<BlockDocument> = {
  kind: 'block',
  // The byte order mark is kept in the text, so that the document can write it back.
  parse: (bytes, adapter) => parseBlocks(bytes === undefined ? '' : bomKeepingDecoder.decode(bytes), adapter),
  state: (doc, record, id) => {
    const block = findBlock(doc, id);
    return { state: block === undefined ? 'missing' : blockDigest(block.body) === record.sha256 ? 'ok' : 'changed' };
  },
  add: (doc, part, previous, force) => {
    const body = blockBody(decoder.decode(part.bytes), part.role === 'adapter', part.label);
    const block = findBlock(doc, part.id);
    const separator = previous?.kind === 'block' ? previous.separator : undefined;
    const theirs = block !== undefined && blockDigest(block.body) !== blockDigest(body) && (previous === undefined || blockDigest(block.body) !== previous.sha256);
    const record = (sep: string): LockedFile => ({ kind: 'block', target: part.target, path: part.path, role: part.role, sha256: blockDigest(body), separator: sep });
    if (theirs && !force) return { doc, record: record(separator ?? ''), conflicts: [part.id] };
    const put = putBlock(doc, part.id, part.version, body, separator);
    return { doc: withSingleImport(put.doc), record: record(put.separator), conflicts: [] };
  },
  remove: (doc, record, id, force) => {
    const block = findBlock(doc, id);
    if (block === undefined) return { doc, kept: [] };
    if (blockDigest(block.body) !== record.sha256 && !force) return { doc, kept: [id] };
    return { doc: withSingleImport(dropBlock(doc, id, record.kind === 'block' ? record.separator : '')), kept: [] };
  },
  render: (doc) => {
    const text = renderBlocks(doc);
    return text === '' ? undefined : encoder.encode(text);
  },
};

/**
 * The error for a loadout MCP file whose servers, as converted for the agent of `part.target`,
 * cannot be read back in that agent's format: a `value` Codex's TOML cannot hold (the `mcp`
 * check of loadout verify refuses such a loadout), or a file not in the `.mcp.json` shape, or
 * placed at another agent's file.
 */
function unwritableParts(part: Contribution, problem: string, value: boolean): LoadoutError {
  if (value) {
    return new LoadoutError('invalid_content', `${part.label} cannot be written into ${part.target}: as Codex's TOML, it ${problem}; nothing was written`, { hint: 'The loadout has a value Codex\'s configuration cannot hold (loadout verify\'s mcp check refuses it): report it to the catalogue, or install the loadout for another agent.' });
  }
  return new LoadoutError('invalid_content', `${part.label} is not MCP configuration in the shape of ${part.target} (it ${problem}; expected the .mcp.json shape, with an "mcpServers" object, installed at the agent's own MCP file); nothing was written`, { hint: 'The loadout\'s install_to points its MCP file at another agent\'s file, or the file is broken: report it to the catalogue.' });
}

/** The format of `kind`. */
export function formatOf(kind: FileKind): SharedFormat<unknown> {
  return (kind === 'file' ? wholeFile : kind === 'servers' ? mcpServers : markdownBlocks) as SharedFormat<unknown>;
}

/** sha256 (hex) of `bytes`. */
export { sha256 as digestOf };

/** Comparing two texts of an MCP file, and telling one that holds nothing (`mcp-servers.ts`). */
export { sameConfig, isEmptyConfig } from './mcp-servers.js';
