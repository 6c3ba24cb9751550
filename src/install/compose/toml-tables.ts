/**
 * Codex's `.codex/config.toml` edited at the level of its text: an install adds a
 * `[mcp_servers.<name>]` table at the end of the file and removes exactly the lines of that
 * table, so every other byte of the user's file (comments, order, spacing, their own settings)
 * stays as it was (DESIGN.md "Fidelity": "MCP into `.codex/config.toml` tables"; issue 33).
 * smol-toml parses the file before and after each edit (integers beyond JavaScript's safe range
 * as bigints, so that a user's large integer is read, not refused), and an edit whose result does
 * not parse to exactly the document expected (the table added or gone, nothing else changed) is
 * refused with a problem instead of written: text-level edits are never trusted blindly.
 *
 * smol-toml gives no positions, so the lines where a table header can stand are found by a pass
 * over the text that follows TOML's strings, comments and brackets ({@link topLines}): a line
 * inside a multi-line string or array that reads `[mcp_servers.x]` is not a header (issue 53,
 * point 13).
 *
 * A table the installer writes is one header line and one line per key (`renderTomlServer`,
 * inline tables for `env` and headers), after one blank line. Pure: text in, text out.
 */
import { parse, TomlError } from 'smol-toml';
import { renderTomlServer } from '../../layout/mcp-formats.js';
import { canonicalJson } from '../../catalogue/canonical-json.js';

/** A parsed file: its document and its `mcp_servers` table, or why it cannot be merged into. */
export type ParsedToml = { ok: true; doc: Record<string, unknown>; servers: Record<string, unknown> } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/** Parses `text` (undefined or blank: an empty document). Never throws. */
export function parseToml(text: string | undefined): ParsedToml {
  if (text === undefined || text.trim() === '') return { ok: true, doc: {}, servers: {} };
  let doc: Record<string, unknown>;
  try {
    doc = parse(text, { integersAsBigInt: 'asNeeded' }) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? ` at line ${error.line}` : '';
    return { ok: false, problem: `is not TOML${where} (${(error as Error).message.split('\n')[0] ?? ''})` };
  }
  const servers = doc['mcp_servers'];
  if (servers === undefined) return { ok: true, doc, servers: {} };
  if (!isObject(servers)) return { ok: false, problem: 'has an "mcp_servers" that is not a table' };
  return { ok: true, doc, servers };
}

/** The document with `mcp_servers.<name>` set to `server` (undefined: removed), an empty `mcp_servers` dropped. */
function expected(doc: Record<string, unknown>, name: string, server: unknown): string {
  const servers = { ...(isObject(doc['mcp_servers']) ? doc['mcp_servers'] : {}) };
  if (server === undefined) delete servers[name];
  else servers[name] = server;
  const { mcp_servers: _s, ...rest } = doc;
  return canonicalJson(Object.keys(servers).length === 0 ? rest : { ...rest, mcp_servers: servers });
}

/** The document of `text` as {@link expected} compares it, or undefined when it does not parse. */
function actual(text: string): string | undefined {
  const parsed = parseToml(text);
  if (!parsed.ok) return undefined;
  const { mcp_servers: servers, ...rest } = parsed.doc;
  return canonicalJson(isObject(servers) && Object.keys(servers).length > 0 ? parsed.doc : rest);
}

/** Result of an edit: the new text, or why the edit was refused. */
export type TomlEdit = { ok: true; text: string } | { ok: false; problem: string };

/** `text` with the table `[mcp_servers.<name>]` holding `server` added at its end, after one blank line, in the file's line ending. */
export function appendServerTable(text: string, name: string, server: Record<string, unknown>): TomlEdit {
  const parsed = parseToml(text);
  if (!parsed.ok) return parsed;
  // In the file's own line ending (CRLF where it has one): a table's values hold no raw line break.
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const prefix = text === '' ? '' : text.endsWith('\n') ? `${text}${eol}` : `${text}${eol}${eol}`;
  const next = `${prefix}${renderTomlServer(name, server).replaceAll('\n', eol)}`;
  if (actual(next) !== expected(parsed.doc, name, server)) return { ok: false, problem: `cannot take a [mcp_servers.${name}] table at its end (its own mcp_servers is an inline table, or holds ${name} in another form)` };
  return { ok: true, text: next };
}

/**
 * For each line of `text` (as split after each line feed, and one more for the end), whether it
 * starts outside every string, comment and bracket: the only lines where a table header, a key
 * or a blank line of the document's own can start (TOML 1.0: basic and literal strings,
 * multi-line ones with up to two quotes before their closing delimiter, backslash escapes in
 * basic ones, `#` comments, arrays and inline tables that span lines). `text` is valid TOML.
 */
export function topLines(text: string): boolean[] {
  const tops = [true];
  let mode: 'code' | 'comment' | 'basic' | 'literal' | 'multi-basic' | 'multi-literal' = 'code';
  let depth = 0;
  /** The length of the closing delimiter of a multi-line string at `i` (three quotes, with up to two more of the string before them), or 0. */
  const closing = (i: number, quote: string): number => {
    if (!text.startsWith(quote.repeat(3), i)) return 0;
    let n = 3;
    while (n < 5 && text[i + n] === quote) n++;
    return n;
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '\n') {
      if (mode === 'comment') mode = 'code';
      tops.push(mode === 'code' && depth === 0);
      i++;
    } else if (mode === 'comment') i++;
    else if (mode === 'basic' || mode === 'multi-basic') {
      // An escape takes the next character, unless it ends the line (a line-ending backslash).
      if (c === '\\') i += text[i + 1] === '\n' || text[i + 1] === '\r' ? 1 : 2;
      else if (mode === 'basic') {
        if (c === '"') mode = 'code';
        i++;
      } else {
        const n = closing(i, '"');
        if (n > 0) mode = 'code';
        i += Math.max(n, 1);
      }
    } else if (mode === 'literal') {
      if (c === "'") mode = 'code';
      i++;
    } else if (mode === 'multi-literal') {
      const n = closing(i, "'");
      if (n > 0) mode = 'code';
      i += Math.max(n, 1);
    } else if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      mode = c === '"' ? 'multi-basic' : 'multi-literal';
      i += 3;
    } else {
      if (c === '#') mode = 'comment';
      else if (c === '"') mode = 'basic';
      else if (c === "'") mode = 'literal';
      else if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  }
  return tops;
}

/** The path of a table header line (`[a."b c"]  # note` → `['a', 'b c']`), or undefined for any other line. */
function headerPath(line: string): string[] | undefined {
  const text = line.replace(/^\uFEFF/u, '');
  if (!/^\s*\[[^[]/u.test(text)) return undefined;
  let doc: unknown;
  try {
    doc = parse(`${text}\n`);
  } catch {
    return undefined;
  }
  const path: string[] = [];
  while (isObject(doc)) {
    const keys = Object.keys(doc);
    if (keys.length !== 1) break;
    path.push(keys[0] as string);
    doc = doc[keys[0] as string];
  }
  return path;
}

const isBlank = (line: string): boolean => line.trim() === '';
const isComment = (line: string): boolean => /^\s*#/u.test(line);
const isHeader = (line: string): boolean => /^\s*\[/u.test(line);

/**
 * `text` without the table `[mcp_servers.<name>]`: its header, the lines of its keys up to the
 * next blank line, comment or header (the way the installer writes it; failing that, up to the
 * next header), and the one blank line before it. Only lines that start outside strings and
 * brackets count ({@link topLines}). Refused when the result would not parse to the document
 * without that server (a table the user rewrote across several headers, say).
 */
export function removeServerTable(text: string, name: string): TomlEdit {
  const parsed = parseToml(text);
  if (!parsed.ok) return parsed;
  if (!Object.hasOwn(parsed.servers, name)) return { ok: true, text };
  const lines = text.split(/(?<=\n)/u);
  const tops = topLines(text);
  const start = lines.findIndex((line, k) => {
    const path = tops[k] === true ? headerPath(line) : undefined;
    return path !== undefined && path.length === 2 && path[0] === 'mcp_servers' && path[1] === name;
  });
  const want = expected(parsed.doc, name, undefined);
  if (start >= 0) {
    const from = start > 0 && tops[start - 1] === true && isBlank(lines[start - 1] ?? '') ? start - 1 : start;
    for (const stop of [(l: string) => isBlank(l) || isComment(l) || isHeader(l), isHeader]) {
      let end = start + 1;
      while (end < lines.length && !(tops[end] === true && stop(lines[end] ?? ''))) end++;
      // Up to the next header: the blank lines before it stay.
      while (end > start + 1 && tops[end - 1] === true && isBlank(lines[end - 1] ?? '')) end--;
      const next = [...lines.slice(0, from), ...lines.slice(end)].join('');
      if (actual(next) === want) return { ok: true, text: next };
    }
  }
  return { ok: false, problem: `holds [mcp_servers.${name}] in a form that cannot be taken out line by line` };
}
