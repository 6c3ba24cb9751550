/**
 * Markdown instruction files shared by several loadouts and the user (`AGENTS.md`,
 * `CLAUDE.md`, `GEMINI.md` and the user-scope copies): each installed loadout holds one marked
 * block, delimited by HTML comments that name the loadout and its version,
 *
 *     <!-- loadout:begin dbt-analytics@1.1.0 -->
 *     …the loadout's text…
 *     <!-- loadout:end dbt-analytics -->
 *
 * HTML comments are not rendered (CommonMark 0.31, "HTML blocks", kind 2), so the markers are
 * invisible on GitHub and in editors. Everything outside the blocks is the user's and is kept
 * byte for byte: a block is added at the end of the file with the newlines it needs before it
 * (its `separator`, recorded in the lock), and removing it takes exactly those away again.
 *
 * Adapters (`CLAUDE.md`, `GEMINI.md`) import `AGENTS.md` with a line `@AGENTS.md` (Claude Code:
 * code.claude.com/docs/en/memory, "CLAUDE.md imports"; Gemini CLI: geminicli.com/docs, "Memory
 * import processor"). Each loadout's adapter has that line; composed, the file imports
 * `AGENTS.md` once: the import lines are taken out of every block's body, and the first block
 * carries one right after its begin marker, unless the user's own text imports `AGENTS.md`
 * already.
 *
 * The file is kept byte for byte as the user's tools write it (issue 35, point 7): a UTF-8
 * byte order mark at its start stays (The Unicode Standard, section 23.8 "Specials": U+FEFF
 * at the start of a UTF-8 file is a signature); a file whose lines end in CRLF (Git's
 * `core.autocrlf`, Windows editors) gets its new blocks with CRLF, and a marker is recognised
 * whatever its line ending and the blanks around it (a trailing space, an indentation). A
 * block's body is compared, and its sha256 taken, with its line endings as LF, so a block
 * whose file was converted to CRLF is still the block as installed. A block the command does
 * not change is written back as it was read. Pure: text in, text out.
 */
import { createHash } from 'node:crypto';
import { LoadoutError } from '../../catalogue/errors.js';

/** The begin marker of a block: `<!-- loadout:begin <id>@<version> -->`. */
export const beginMarker = (id: string, version: string): string => `<!-- loadout:begin ${id}@${version} -->`;
/** The end marker of a block: `<!-- loadout:end <id> -->`. */
export const endMarker = (id: string): string => `<!-- loadout:end ${id} -->`;

// Markers and import lines are matched on a line without its line ending, blanks around allowed.
const BEGIN = /^[ \t]*<!-- loadout:begin ([a-z0-9][a-z0-9-]*)@(\d+\.\d+\.\d+) -->[ \t]*$/u;
const END = /^[ \t]*<!-- loadout:end ([a-z0-9][a-z0-9-]*) -->[ \t]*$/u;
const ANY_MARKER = /^[ \t]*<!-- loadout:(?:begin|end)\b/mu;
const IMPORT = /^@(?:\.\/)?AGENTS\.md[ \t]*$/u;
/** The byte order mark, as the decoder keeps it (`ignoreBOM`). */
const BOM = '\uFEFF';
/** The import line an adapter's first block carries. */
export const IMPORT_LINE = '@AGENTS.md\n';

/** One loadout's block as found in a file. */
export interface Block {
  kind: 'block';
  id: string;
  version: string;
  /** The text between the markers (without the import line of an adapter's first block). */
  body: string;
  /** True when the block carries the adapter's import line. */
  imports: boolean;
  /** The block's text as read (markers included), written back while the block is not changed. */
  raw?: string;
}

/** Text of the user's (or anything that is not a well-formed block). */
export interface Text {
  kind: 'text';
  text: string;
}

/** A Markdown file split into the user's text and the loadouts' blocks, in file order. */
export interface BlockDocument {
  /** True for an adapter: blocks import `AGENTS.md` once. */
  adapter: boolean;
  parts: (Text | Block)[];
  /** True when the file starts with a byte order mark (kept out of `parts`, written back). */
  bom?: boolean;
  /** The file's line ending (that of its first line; LF for a file without one): new blocks are written with it. */
  eol?: '\n' | '\r\n';
}

/** sha256 (hex) of a block's body, as the lock records it. */
export function blockDigest(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

/** Lines of `text`, each with its newline (the last one may have none). */
function linesOf(text: string): string[] {
  return text.match(/(?<![^\n])[^\n]*\n|(?<![^\n])[^\n]+$/gu) ?? [];
}

/** A line without its line ending (LF or CRLF). */
const bare = (line: string): string => line.replace(/\r?\n$/u, '');
/** `text` with CRLF line endings as LF. */
const toLf = (text: string): string => text.replaceAll('\r\n', '\n');

/**
 * Splits `text` into the user's text and blocks. A begin marker line followed by the end marker
 * of the same id, with no other marker between, is a block; anything else (a lone or mismatched
 * marker) is text and stays as it is.
 */
export function parseBlocks(text: string, adapter: boolean): BlockDocument {
  const bom = text.startsWith(BOM);
  const lines = linesOf(bom ? text.slice(BOM.length) : text);
  const eol = lines[0]?.endsWith('\r\n') === true ? '\r\n' : '\n';
  const parts: (Text | Block)[] = [];
  const pushText = (chunk: string): void => {
    const last = parts.at(-1);
    if (last?.kind === 'text') last.text += chunk;
    else if (chunk !== '') parts.push({ kind: 'text', text: chunk });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const begin = BEGIN.exec(bare(line));
    let end = -1;
    if (begin !== null && line.endsWith('\n')) {
      for (let j = i + 1; j < lines.length; j++) {
        const inner = bare(lines[j] ?? '');
        if (END.exec(inner)?.[1] === begin[1]) {
          end = j;
          break;
        }
        if (BEGIN.test(inner) || END.test(inner)) break;
      }
    }
    if (begin === null || end < 0) {
      pushText(line);
      continue;
    }
    let bodyLines = lines.slice(i + 1, end);
    const imports = adapter && IMPORT.test(bare(bodyLines[0] ?? ''));
    if (imports) bodyLines = bodyLines.slice(1);
    parts.push({ kind: 'block', id: begin[1] ?? '', version: begin[2] ?? '', body: toLf(bodyLines.join('')), imports, raw: lines.slice(i, end + 1).join('') });
    i = end;
  }
  return { adapter, parts, ...(bom ? { bom } : {}), ...(eol === '\r\n' ? { eol } : {}) };
}

/** The text of `doc`: an unchanged block as it was read, a new or changed one with the file's line ending. */
export function renderBlocks(doc: BlockDocument): string {
  const eol = doc.eol ?? '\n';
  const block = (part: Block): string => {
    if (part.raw !== undefined) return part.raw;
    const text = `${beginMarker(part.id, part.version)}\n${part.imports ? IMPORT_LINE : ''}${part.body}${endMarker(part.id)}\n`;
    return eol === '\n' ? text : text.replaceAll('\n', eol);
  };
  const text = doc.parts.map((part) => (part.kind === 'text' ? part.text : block(part))).join('');
  return doc.bom === true ? `${BOM}${text}` : text;
}

/** The block of `id` (the first, if the user copied one), or undefined. */
export function findBlock(doc: BlockDocument, id: string): Block | undefined {
  return doc.parts.find((p): p is Block => p.kind === 'block' && p.id === id);
}

/**
 * The body a loadout's file becomes in its block: its text with LF line endings, ending in a newline; for an adapter,
 * without its `@AGENTS.md` import lines (and the blank line after each), since the composed
 * file imports `AGENTS.md` once.
 * @throws LoadoutError `invalid_content` when the text holds a `loadout:begin`/`loadout:end`
 *   marker line (it would break the file's blocks)
 */
export function blockBody(text: string, adapter: boolean, label: string): string {
  if (ANY_MARKER.test(text)) throw new LoadoutError('invalid_content', `${label} holds a line starting "<!-- loadout:", which marks the blocks of shared instruction files; nothing was written`, { hint: 'Remove the line from the loadout.' });
  // Bodies are kept with LF line endings (see the module comment); the file's own ending is applied when it is written.
  let body = toLf(text);
  if (adapter) {
    const lines = linesOf(body);
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (IMPORT.test(bare(lines[i] ?? ''))) {
        if ((lines[i + 1] ?? '') === '\n') i++;
        continue;
      }
      kept.push(lines[i] ?? '');
    }
    body = kept.join('');
  }
  return body === '' || body.endsWith('\n') ? body : `${body}\n`;
}

/** The line endings a block added at the end of `text` needs before it (`eol` each): none for an empty file, else enough for one blank line. */
export function separatorFor(text: string, eol: '\n' | '\r\n' = '\n'): string {
  if (text === '') return '';
  return text.endsWith('\n\n') || text.endsWith('\n\r\n') ? '' : text.endsWith('\n') ? eol : `${eol}${eol}`;
}

/** `doc` with `id`'s block replaced (same place) or, when it has none, added at the end; returns the separator used. */
export function putBlock(doc: BlockDocument, id: string, version: string, body: string, separator?: string): { doc: BlockDocument; separator: string } {
  const index = doc.parts.findIndex((p) => p.kind === 'block' && p.id === id);
  if (index >= 0) {
    // The same block again stays as it was read; another is written anew.
    const parts = doc.parts.map((p, i) => (i === index && !(p.kind === 'block' && p.version === version && p.body === body) ? { kind: 'block' as const, id, version, body, imports: false } : p));
    return { doc: { ...doc, parts }, separator: separator ?? '' };
  }
  const used = separatorFor(renderBlocks({ ...doc, bom: false }), doc.eol);
  const parts = [...doc.parts];
  if (used !== '') parts.push({ kind: 'text', text: used });
  parts.push({ kind: 'block', id, version, body, imports: false });
  return { doc: mergeText({ ...doc, parts }), separator: used };
}

/**
 * `doc` without `id`'s block, and without the `separator` before it when the text there ends
 * with it, in either line ending (the file may have been converted since the block was added).
 */
export function dropBlock(doc: BlockDocument, id: string, separator: string): BlockDocument {
  const index = doc.parts.findIndex((p) => p.kind === 'block' && p.id === id);
  if (index < 0) return doc;
  const parts = doc.parts.slice();
  const before = parts[index - 1];
  const lf = toLf(separator);
  const crlf = lf.replaceAll('\n', '\r\n');
  const found = before?.kind !== 'text' || separator === '' ? undefined : before.text.endsWith(crlf) ? crlf : before.text.endsWith(lf) && !before.text.endsWith(`\r${lf}`) ? lf : undefined;
  if (found !== undefined && before?.kind === 'text') parts[index - 1] = { kind: 'text', text: before.text.slice(0, before.text.length - found.length) };
  parts.splice(index, 1);
  return mergeText({ ...doc, parts: parts.filter((p) => p.kind === 'block' || p.text !== '') });
}

/** Adjacent text parts joined. */
function mergeText(doc: BlockDocument): BlockDocument {
  const parts: (Text | Block)[] = [];
  for (const part of doc.parts) {
    const last = parts.at(-1);
    if (part.kind === 'text' && last?.kind === 'text') parts[parts.length - 1] = { kind: 'text', text: last.text + part.text };
    else parts.push(part);
  }
  return { ...doc, parts };
}

/** For an adapter: the first block carries the import line, unless the user's text imports `AGENTS.md`; no other block does. */
export function withSingleImport(doc: BlockDocument): BlockDocument {
  if (!doc.adapter) return doc;
  const userImports = doc.parts.some((p) => p.kind === 'text' && linesOf(p.text).some((l) => IMPORT.test(bare(l))));
  let first = !userImports;
  const parts = doc.parts.map((p) => {
    if (p.kind !== 'block') return p;
    const imports = first;
    first = false;
    if (imports === p.imports) return p;
    // The import line moves: the block is written anew.
    const { raw: _raw, ...rest } = p;
    return { ...rest, imports };
  });
  return { ...doc, parts };
}
