/**
 * A JSON configuration file edited in place, as an editor does: a member (a property of an
 * object, an element of an array) is added, replaced or taken out by changing only its own
 * bytes and the comma and blanks that separate it from its neighbour, so every other byte of
 * the file (comments, number spellings such as `1.10` or `12345678901234567890`, key order,
 * indentation, line endings, the trailing newline) stays as it was (issue 53, point 14; issue
 * 57, point 1). The file is read with jsonc-parser (VS Code's JSONC: comments and trailing
 * commas accepted, a UTF-8 byte order mark read as a blank); its parse tree gives each
 * member's offsets.
 *
 * Taking a member out is the inverse of adding it: a member is added after the last one as
 * `,` + the blanks before that last one + the member, and taken out with the comma before it;
 * added in front of the first one as the member + `,` + the blanks before that first one, and
 * taken out with the comma and blanks after it. A container that was empty or absent before a
 * member was added cannot be told from the text afterwards, so its state before is recorded
 * ({@link ContainerMemo}, kept in the lock) and given back byte for byte once its last member
 * goes ({@link restoreContainers}). Only the root object and its top-level keys are
 * containers. The editing functions take a text {@link readJson} reads, and throw a LoadoutError
 * `internal` if an edit ever broke it (a bug). Pure: text in, text out.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { createScanner, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError, type SyntaxKind } from 'jsonc-parser';

/** The scanner's token kinds this module looks at (jsonc-parser's `SyntaxKind` is a `const enum`, which isolated modules cannot read). */
const TOKEN = { comma: 5, lineComment: 12, blockComment: 13, lineBreak: 14, blank: 15, end: 17 } as const satisfies Record<string, SyntaxKind>;

/**
 * What a file's containers were before an install first put a member into them, by JSON Pointer
 * (RFC 6901; `''` the root object, `/mcpServers` a top-level key): `null` when absent, else the
 * exact text of the container while it was empty (for the root: the whole file, which may be
 * empty or hold only blanks and comments). An entry goes once the container is back as it was.
 */
export type ContainerMemo = Record<string, string | null>;

/** A file as read: its root node (undefined: no value, only blanks and comments) and value; or why it is not JSON. */
export type JsonRead = { ok: true; root: Node | undefined; value: unknown } | { ok: false; problem: string };

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };
const BOM = '\uFEFF';

/** `text` with a leading byte order mark read as a blank of the same length, so that offsets stay those of `text`. */
const blankBom = (text: string): string => (text.startsWith(BOM) ? ` ${text.slice(1)}` : text);

const lineOf = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/** Reads `text` as JSON with comments and trailing commas. Never throws. */
export function readJson(text: string): JsonRead {
  const errors: ParseError[] = [];
  const source = blankBom(text);
  const root = parseTree(source, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first !== undefined) return { ok: false, problem: `is not JSON at line ${lineOf(source, first.offset)} (${printParseErrorCode(first.error)})` };
  return { ok: true, root, value: root === undefined ? undefined : getNodeValue(root) };
}

/** The members of a container: an object's property nodes, an array's element nodes. */
const membersOf = (container: Node): Node[] => container.children ?? [];

/** The key of a property node. */
const keyOf = (property: Node): unknown => property.children?.[0]?.value;

/**
 * The root node of `text`, which the caller has read successfully.
 * @throws LoadoutError `internal` when it does not parse (an edit of this module broke it: a bug)
 */
function rootOf(text: string): Node | undefined {
  const read = readJson(text);
  if (!read.ok) throw new LoadoutError('internal', `a bug: an in-place edit of an MCP configuration file made JSON that does not parse (it ${read.problem}); nothing was written`);
  return read.root;
}

/** The container at `pointer` (`''` or `/key`), or undefined when absent. */
function containerAt(root: Node | undefined, pointer: string): Node | undefined {
  if (root === undefined || pointer === '') return root;
  const property = membersOf(root).findLast((p) => keyOf(p) === pointer.slice(1));
  const value = property?.children?.[1];
  return value?.type === 'object' || value?.type === 'array' ? value : undefined;
}

/** The index of the member `which` (a key, or an index in an array) of `container`, or -1. */
function memberIndex(container: Node, which: string | number): number {
  if (typeof which === 'number') return which < membersOf(container).length ? which : -1;
  return membersOf(container).findLastIndex((p) => keyOf(p) === which);
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** The offset where the run of blanks that ends at `offset` starts. */
function blanksBefore(text: string, offset: number): number {
  let at = offset;
  while (at > 0 && isBlank(text[at - 1])) at--;
  return at;
}

/**
 * Where the blanks before `offset` may be taken out from, for a removal that ends at `end`: the
 * start of their run; or, when a line comment ends just before the run and no line break follows
 * `end`, after the run's first line break (so that the comment does not swallow what follows).
 */
function removableBlanksBefore(text: string, offset: number, end: number): number {
  const start = blanksBefore(text, offset);
  if (/^[ \t]*\r?\n/u.test(text.slice(end))) return start;
  const scanner = createScanner(blankBom(text).slice(0, start), false);
  let last: SyntaxKind | undefined;
  for (let token = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) if (token !== TOKEN.blank && token !== TOKEN.lineBreak) last = token;
  if (last !== TOKEN.lineComment) return start;
  const lineBreak = text.indexOf('\n', start);
  return lineBreak < 0 || lineBreak >= offset ? start : lineBreak + 1;
}

/** The blanks at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/u.exec(text.slice(start))?.[0] ?? '';
}

/** How the file writes what is added: its line ending and its unit of indentation (the first indented line's, else two spaces). */
function styleOf(text: string): { eol: string; unit: string } {
  const indented = /^([ \t]+)[^ \t\r\n]/mu.exec(text)?.[1];
  return { eol: text.includes('\r\n') ? '\r\n' : '\n', unit: indented === undefined ? '  ' : indented.startsWith('\t') ? '\t' : indented };
}

/** The offset just after the first comma that follows `offset` (comments skipped), or undefined when a closing bracket comes first. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(blankBom(text), false);
  scanner.setPosition(offset);
  for (let token = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    if (token === TOKEN.comma) return scanner.getTokenOffset() + 1;
    if (token !== TOKEN.blank && token !== TOKEN.lineBreak && token !== TOKEN.lineComment && token !== TOKEN.blockComment) return undefined;
  }
  return undefined;
}

/** True when `text` holds a comment. */
export function holdsComment(text: string): boolean {
  return hasComment(text, 0, text.length);
}

/** True when a comment lies between `from` and `to`. */
function hasComment(text: string, from: number, to: number): boolean {
  const scanner = createScanner(blankBom(text).slice(0, to), false);
  scanner.setPosition(from);
  for (let token = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    if (token === TOKEN.lineComment || token === TOKEN.blockComment) return true;
  }
  return false;
}

/** `value` as JSON text: on one line, or indented by `unit` with each new line starting with `indent` (and `eol`). */
function valueText(value: unknown, pretty: { indent: string; unit: string; eol: string } | undefined): string {
  if (pretty === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, pretty.unit).replaceAll('\n', `${pretty.eol}${pretty.indent}`);
}

/** The text between a property's key and value in `container` (`": "`, `":"`), as its last property writes it; `": "` otherwise. */
function colonOf(text: string, container: Node): string {
  const last = membersOf(container).at(-1);
  const key = last?.children?.[0];
  const value = last?.children?.[1];
  if (container.type !== 'object' || key === undefined || value === undefined) return ': ';
  const between = text.slice(key.offset + key.length, value.offset);
  return /^[ \t]*:[ \t]*$/u.test(between) ? between : ': ';
}

const splice = (text: string, from: number, to: number, content = ''): string => `${text.slice(0, from)}${content}${text.slice(to)}`;

/** A member to add: a property (`name`) of an object or an element (no name) of an array. */
export interface NewMember {
  name?: string;
  value: unknown;
}

/**
 * `text` with `member` added at the end of the container at `pointer` (`''` the root object,
 * `/key` a top-level key). An absent container is added to the root, holding the member (an
 * array when `member` has no name), as its last key or, with `first`, its first; an absent root
 * is written after what the file holds (blanks and comments). A container found absent or empty
 * is recorded in `memo` unless it has an entry already. Changes `memo`.
 */
export function addMember(text: string, pointer: string, member: NewMember, memo: ContainerMemo, first = false): string {
  return insertMember(text, pointer, member, 'end', memo, first);
}

function insertMember(text: string, pointer: string, member: NewMember, where: 'end' | 'start', memo: ContainerMemo, first: boolean): string {
  const root = rootOf(text);
  const { eol, unit } = styleOf(text);
  const container = containerAt(root, pointer);
  if (container === undefined && pointer !== '') {
    if (!Object.hasOwn(memo, pointer)) memo[pointer] = null;
    const value = member.name === undefined ? [member.value] : { [member.name]: member.value };
    return insertMember(text, '', { name: pointer.slice(1), value }, first ? 'start' : 'end', memo, false);
  }
  if (container === undefined) {
    if (!Object.hasOwn(memo, '')) memo[''] = text;
    const body = `{${eol}${unit}${memberText(member, { indent: unit, unit, eol }, ': ')}${eol}}`;
    if (text.trim() === '') return `${body}${eol}`;
    return `${text}${text.endsWith('\n') ? '' : eol}${body}${eol}`;
  }
  const members = membersOf(container);
  const colon = colonOf(text, container);
  if (members.length === 0) {
    if (!Object.hasOwn(memo, pointer)) memo[pointer] = pointer === '' ? text : text.slice(container.offset, container.offset + container.length);
    const inside = text.slice(container.offset + 1, container.offset + container.length - 1);
    const open = container.offset + 1;
    if (!text.includes('\n')) return splice(text, open, inside.trim() === '' ? open + inside.length : open, memberText(member, undefined, colon));
    const outer = lineIndent(text, container.offset);
    const child = `${eol}${outer}${unit}${memberText(member, { indent: `${outer}${unit}`, unit, eol }, colon)}`;
    return inside.trim() === '' ? splice(text, open, open + inside.length, `${child}${eol}${outer}`) : splice(text, open, open, child);
  }
  const next = where === 'end' ? (members.at(-1) as Node) : (members[0] as Node);
  const blanks = text.slice(blanksBefore(text, next.offset), next.offset);
  const indent = blanks.includes('\n') ? blanks.slice(blanks.lastIndexOf('\n') + 1) : undefined;
  const added = memberText(member, indent === undefined ? undefined : { indent, unit, eol }, colon);
  return where === 'end' ? splice(text, next.offset + next.length, next.offset + next.length, `,${blanks}${added}`) : splice(text, next.offset, next.offset, `${added},${blanks}`);
}

function memberText(member: NewMember, pretty: { indent: string; unit: string; eol: string } | undefined, colon: string): string {
  const value = valueText(member.value, pretty);
  return member.name === undefined ? value : `${JSON.stringify(member.name)}${colon}${value}`;
}

/** `text` with the value of the member `which` (a key, or an index) of the container at `pointer` replaced by `value`, indented as that member. */
export function replaceMember(text: string, pointer: string, which: string | number, value: unknown): string {
  const container = containerAt(rootOf(text), pointer);
  const index = container === undefined ? -1 : memberIndex(container, which);
  const member = container === undefined ? undefined : membersOf(container)[index];
  const node = member?.type === 'property' ? member.children?.[1] : member;
  if (member === undefined || node === undefined) throw new LoadoutError('internal', `a bug: no member ${String(which)} at ${pointer || 'the root'} of an MCP configuration file to replace; nothing was written`);
  const { eol, unit } = styleOf(text);
  const startsLine = text.slice(blanksBefore(text, member.offset), member.offset).includes('\n');
  const pretty = startsLine ? { indent: lineIndent(text, member.offset), unit, eol } : undefined;
  return splice(text, node.offset, node.offset + node.length, valueText(value, pretty));
}

/**
 * `text` without the member `which` (a key, or an index) of the container at `pointer`: with the
 * comma before it when it has a member before it (a comment between them stays, and then the
 * comma after that member goes), else with the comma and blanks after it; the only member goes
 * with the blanks before it (and a trailing comma). Unchanged when there is no such member.
 */
export function removeMember(text: string, pointer: string, which: string | number): string {
  const container = containerAt(rootOf(text), pointer);
  if (container === undefined) return text;
  const members = membersOf(container);
  const index = memberIndex(container, which);
  const member = members[index];
  if (member === undefined) return text;
  const end = member.offset + member.length;
  const previous = members[index - 1];
  const comma = commaAfter(text, end);
  if (previous !== undefined) {
    const previousEnd = previous.offset + previous.length;
    if (!hasComment(text, previousEnd, member.offset)) return splice(text, previousEnd, end);
    // A comment of the user's between the two stays: the member goes with the comma after it, or, when last, with the one before it.
    const trimmed = splice(text, removableBlanksBefore(text, member.offset, comma ?? end), comma ?? end);
    const before = commaAfter(text, previousEnd);
    return comma !== undefined || before === undefined ? trimmed : splice(trimmed, before - 1, before);
  }
  if (members.length > 1 && comma !== undefined) {
    let stop = comma;
    while (isBlank(text[stop])) stop++;
    return splice(text, member.offset, stop);
  }
  return splice(text, removableBlanksBefore(text, member.offset, comma ?? end), comma ?? end);
}

/**
 * Gives back the containers of `memo` that are empty again as they were recorded: an absent one
 * is taken out of the root, an empty one gets its recorded text, and the root (when it has no
 * member left) the recorded file. An entry is dropped once its container is back as it was or
 * has gone; one whose container still has members stays. Changes `memo`.
 */
export function restoreContainers(text: string, memo: ContainerMemo): string {
  let next = text;
  for (const pointer of Object.keys(memo).filter((p) => p !== '').sort()) {
    const root = rootOf(next);
    const container = containerAt(root, pointer);
    if (container !== undefined && membersOf(container).length > 0) continue;
    const was = memo[pointer];
    delete memo[pointer];
    if (container === undefined || root === undefined) continue;
    next = was === null || was === undefined ? removeMember(next, '', pointer.slice(1)) : splice(next, container.offset, container.offset + container.length, was);
  }
  const file = memo[''];
  if (file === undefined || file === null) return next;
  const root = rootOf(next);
  if (root === undefined) delete memo[''];
  else if (root.type === 'object' && membersOf(root).length === 0) {
    delete memo[''];
    next = file;
  }
  return next;
}

/**
 * The problem of a memo read from a lock (untrusted), or undefined when it is sound: every key is
 * `''` or `/<key>` for one of `keys`; every text of a top-level key is an empty object or array
 * (blanks and comments inside at most), the root's a file without members. A recorded text is
 * written into the user's file, so no lock can make it add a server.
 */
export function describeMemoProblem(memo: unknown, keys: readonly string[]): string | undefined {
  if (memo === null || typeof memo !== 'object' || Array.isArray(memo)) return 'is not an object of JSON Pointer: text or null';
  for (const [pointer, was] of Object.entries(memo)) {
    if (pointer !== '' && !keys.some((k) => pointer === `/${k}`)) return `names ${JSON.stringify(pointer)} (expected "" or one of ${keys.map((k) => `"/${k}"`).join(', ')})`;
    if (was === null && pointer !== '') continue;
    if (typeof was !== 'string') return `has ${JSON.stringify(pointer)}: ${JSON.stringify(was)} (expected the text of an empty container${pointer === '' ? '' : ', or null'})`;
    const read = readJson(was);
    const empty = read.ok && (read.root === undefined ? pointer === '' : (read.root.type === 'object' || (pointer !== '' && read.root.type === 'array')) && membersOf(read.root).length === 0);
    if (!empty) return `has ${JSON.stringify(pointer)}: a text that is not an empty ${pointer === '' ? 'file or object' : 'object or array'}`;
  }
  return undefined;
}
