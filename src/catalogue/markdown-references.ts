/**
 * Where a Markdown text refers to other files, with the offsets of each destination, so that
 * the `references` check can judge them and an install can rewrite them in place: relative
 * links and images (`[text](path#anchor "title")`), reference definitions (`[id]: path`), HTML
 * `href`/`src`, and `@path` imports (an `@` token that starts a word). The text scanned is the
 * prose (`proseOf` in `markdown.ts`): links and imports in code blocks and code spans are
 * examples, not references. Syntax: CommonMark 0.31 sections 6.3 (links), 4.7 (link reference
 * definitions) and 6.6 (raw HTML); imports: Claude Code memory, "CLAUDE.md imports"
 * (code.claude.com/docs/en/memory) and Gemini CLI's Memory Import Processor
 * (geminicli.com/docs/reference/memport). Also the one rule of where a reference leads
 * ({@link referenceLeaves}): the `references` check fails, and an install never writes, a
 * reference that leaves the loadout, whatever its spelling. Pure; no dependencies.
 *
 * Every expression here reads text a stranger wrote (a catalogue that is not signed sends it
 * straight to the installer), so each runs in time linear in the text: a match attempt that
 * starts at one place never runs over the next place where an attempt starts (issue 53, point
 * 8: `<img src` repeated 40,000 times took 45 s; test/catalogue/linear-time.test.ts).
 */
/** One destination found in a text. */
export interface ReferenceSite {
  /** `link` (links, images, definitions, HTML attributes) or `import` (`@path`). */
  kind: 'link' | 'import';
  /** The destination as written (angle brackets kept, anchor and query included). */
  raw: string;
  /** Offsets of `raw` in the text: `[start, end)`. */
  start: number;
  end: number;
  /** Offset of the whole construct (the `[`, `<` or `@`), for line numbers. */
  at: number;
  /**
   * True for an `@` token that is not an import of a document of the loadout (`@../.env`,
   * `@~/.ssh/id_rsa`, `@alice`, or any `@` token of a file whose imports are not read): Claude
   * Code imports any file so named, so it is judged for where it leads
   * ({@link referenceLeaves}), never for whether it resolves.
   */
  loose?: true;
}

/**
 * `[text](destination "title")`. The destination is absent or not empty, and the title follows
 * a blank by a lookbehind: blanks on both sides of an empty destination, or before an optional
 * title and the closing parenthesis, made the expression backtrack quadratically on long blank runs.
 * An angle-bracketed destination holds no `<`, and a title in parentheses no `(` (CommonMark
 * 6.3): with `[^>]` and `[^)]`, `[x](<` or `[a](b (` repeated took time quadratic in the line,
 * each attempt running to the line's end.
 */
const INLINE = /!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\(\s*(?:(<[^<>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*|(?:\([^\s()]*\)[^\s()]*)+)\s*)?(?:(?<=\s)(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))\s*)?\)/dgu;
/**
 * `[label]: destination` at the start of a line. The label and an angle-bracketed destination
 * stop at every line terminator, `\r`, U+2028 and U+2029 included: the `m` flag's `^` matches
 * after each, and `[^\]\n]+` ran from each such line to the end of the text (`[\r` repeated).
 */
const DEFINITION = /^ {0,3}\[[^\]\n\r\u2028\u2029]+\]:\s*(<[^<>\n\r\u2028\u2029]*>|\S+)/dgmu;
/**
 * An `href` or `src` attribute of an `<a>`, `<img>`, `<link>` or `<source>` open tag, its value
 * double-quoted, single-quoted or unquoted (group 1, 2 or 3), after the attributes before it as
 * CommonMark 6.6 writes them (a name, and optionally `=` and a value). None of those holds a `<`
 * outside quotes, so an attempt stops at the next tag: `[^>]*?` ran each attempt to the end of
 * the text (`<img src` repeated: quadratic, 45 s for 320 KB).
 */
const HTML = /<(?:a|img|link|source)(?=[\s/>])(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*?\s+(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/dgiu;
const IMPORT = /(?:^|[\s(])@((?:\.{1,2}\/|~\/|\/)?[\w-][\w.-]*(?:\/[\w.-]+)*\.(?:md|mdc|markdown|txt|json|ya?ml|toml))(?=$|[\s),;:!?]|\.(?:\s|$))/dgmu;

/**
 * Every `@` token that starts a word: an `@` at the start of a line or after a blank, as Claude
 * Code and Gemini CLI read them, or after a character that opens Markdown inline syntax
 * (`(`, `[`, `*`, `_`, `~`, `>`, `|`), then everything up to a blank (Claude Code's `\ ` escapes
 * a blank in a path). Claude Code imports any file so named, relative, home-relative or
 * absolute ("Both relative and absolute paths are allowed", e.g.
 * `@~/.claude/my-project-instructions.md`), and reads imports in imported files too, so
 * `@../../.aws/credentials` or `@/etc/passwd` in any file an agent may read would put a file
 * from outside the project into its context. {@link IMPORT} finds only the document names a
 * loadout's own imports use.
 */
const IMPORT_TOKEN = /(?<![^\s([*_~>|])@((?:\\ |\S)+)/gu;
/** Sentence punctuation that ends an `@` token without being part of its path. */
const TRAILING_PUNCTUATION = `.,;:!?'"*_)]}`;

/**
 * Words that, right after `@scope/name`, say it is a package and not a file: "the
 * @acme/tokens.md package", "the @acme/cli.md CLI".
 */
const PACKAGE_WORD = /^[ \t]+(?:npm[ \t]+)?(?:package|packages|CLI|library|SDK|module)\b/iu;

/**
 * True when the `@scope/name` import candidate that ends at `end` of `prose` is a package
 * named in prose: a scoped name (`@scope/name`, npm's form) followed by a word that says so
 * ({@link PACKAGE_WORD}) or by a version (`@scope/name@1.2.3`, `@^1`).
 */
function isPackageMention(target: string, prose: string, end: number): boolean {
  if (!/^[\w-][\w.-]*\/[\w.-]+$/u.test(target)) return false;
  const after = prose.slice(end, end + 40);
  return PACKAGE_WORD.test(after) || /^@[~^<>=v]*\d/u.test(after);
}

/**
 * Every destination of `prose` (a text with its code blocked out, offsets as in the original),
 * links first, then definitions, HTML and (when `imports`) `@` imports, then every other `@`
 * token (`loose`, whatever `imports`: a file that no agent expands may still be imported by one
 * that is); each list in text order. Pure.
 */
export function scanReferences(prose: string, imports: boolean): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  // The `@` of every document import, and of every package named in prose, which never leaves (a scoped name has no `..`).
  const named = new Set<number>();
  // Each expression runs only when the text has the characters it needs.
  for (const [re, needle, kind] of [[INLINE, '](', 'link'], [DEFINITION, ']:', 'link'], [HTML, '<', 'link'], [IMPORT, '@', 'import']] as const) {
    if (!prose.includes(needle) || (kind === 'import' && !imports)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(prose); m !== null; m = re.exec(prose)) {
      const group = [1, 2, 3].find((g) => m[g] !== undefined) ?? 1;
      const span = m.indices?.[group];
      if (kind === 'import' && span !== undefined) named.add(span[0] - 1);
      if (kind === 'import' && isPackageMention(m[1] ?? '', prose, m.index + m[0].length)) continue;
      if (span === undefined) {
        // A link with no destination (`[text]()`): nothing to judge or rewrite, but the link is there.
        sites.push({ kind, raw: '', start: m.index, end: m.index, at: m.index });
        continue;
      }
      const at = kind === 'import' ? span[0] - 1 : m.index;
      sites.push({ kind, raw: prose.slice(span[0], span[1]), start: span[0], end: span[1], at });
    }
  }
  if (prose.includes('@')) sites.push(...looseImports(prose, named));
  return sites;
}

/** The `@` tokens of `prose` ({@link IMPORT_TOKEN}) whose `@` is not at an offset of `named`, without the sentence punctuation that ends them. */
function looseImports(prose: string, named: ReadonlySet<number>): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  IMPORT_TOKEN.lastIndex = 0;
  for (let m = IMPORT_TOKEN.exec(prose); m !== null; m = IMPORT_TOKEN.exec(prose)) {
    if (named.has(m.index)) continue;
    const token = m[1] ?? '';
    let length = token.length;
    while (length > 0 && TRAILING_PUNCTUATION.includes(token[length - 1] ?? '')) length--;
    if (length === 0) continue;
    sites.push({ kind: 'import', raw: token.slice(0, length), start: m.index + 1, end: m.index + 1 + length, at: m.index, loose: true });
  }
  return sites;
}

/** A destination split into its path, anchor (after `#`, as written) and query; angle brackets taken off. */
export function splitDestination(raw: string): { path: string; anchor: string | undefined; query: string } {
  const dest = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  const hash = dest.indexOf('#');
  const beforeHash = hash < 0 ? dest : dest.slice(0, hash);
  const q = /(?<!\?)\?/u.exec(beforeHash);
  return { path: q === null ? beforeHash : beforeHash.slice(0, q.index), anchor: hash < 0 ? undefined : dest.slice(hash + 1), query: q === null ? '' : beforeHash.slice(q.index) };
}

/**
 * The file names whose `@path` imports an agent expands, so the only files whose `@` tokens
 * are read as imports. A subagent, skill, rule or reference is read as it is: an `@` there is
 * prose (an npm scope, a handle), never expanded.
 * - `CLAUDE.md`: Claude Code memory, "CLAUDE.md imports": `@path/to/import`, relative or
 *   absolute, not in code spans or code blocks, and recursively in imported files
 *   (https://docs.anthropic.com/en/docs/claude-code/memory).
 * - `GEMINI.md`: Gemini CLI's Memory Import Processor, `@file.md`
 *   (https://geminicli.com/docs/core/memport, gemini-cli docs/core/memport.md).
 * - `AGENTS.md`: a context file of Gemini CLI when `context.fileName` names it, so the same
 *   processor expands its imports (https://geminicli.com/docs/cli/gemini-md), and the file
 *   that a loadout's `CLAUDE.md` adapter imports, whose own imports Claude Code expands in turn.
 */
export const IMPORT_EXPANDING_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];

/** True when an agent expands the `@` imports of the file at `path` (by its file name; see {@link IMPORT_EXPANDING_FILES}). */
export function expandsImports(path: string): boolean {
  return IMPORT_EXPANDING_FILES.includes(path.slice(path.lastIndexOf('/') + 1));
}

/** `decodeURIComponent`, or the text as it is when it holds a malformed escape. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** True when a link target is not a file reference: a URL with a scheme, protocol-relative, or a template placeholder. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/iu.test(target) || target.startsWith('//') || /[{}$<>%]/u.test(target.replace(/%[0-9a-f]{2}/giu, ''));
}

/**
 * Whether a reference's target (as written, or decoded) names a place outside any project
 * folder: `home` for `~/…` and `~user/…` (the shell's and Claude Code's home-relative form),
 * `absolute` for `/…`, `\…`, a drive letter (`C:\…`, `C:/…`) or a `file:` URL; undefined for
 * a relative path or another URL. Pure.
 */
export function outsidePathKind(target: string): 'home' | 'absolute' | undefined {
  if (/^~(?:[\w.-]*[/\\]|$)/u.test(target)) return 'home';
  if (/^[/\\]/u.test(target) && !target.startsWith('//')) return 'absolute';
  if (/^[A-Za-z]:[/\\]/u.test(target) || /^file:/iu.test(target)) return 'absolute';
  return undefined;
}

/** How a reference leaves the loadout: into the home folder, to an absolute path, or up out of the loadout's folder; and the reading of it that does. */
export interface LeavingReference {
  how: 'home' | 'absolute' | 'outside';
  /** The target as that reading spells it (`../../.aws/credentials` for `%2e%2e/%2e%2e/.aws/credentials`). */
  reading: string;
}

/**
 * The named character references whose character changes where a path leads (`.`, `/`, `\`,
 * `:`, `%`, `?`, `#`; HTML names no `~`) and `&amp;`. Any other name is left as written, which
 * can only keep a path where it is (HTML Standard, "Named character references").
 */
const PATH_ENTITIES: Readonly<Record<string, string>> = { period: '.', sol: '/', bsol: '\\', colon: ':', percnt: '%', quest: '?', num: '#', amp: '&' };
const ESCAPE_OR_ENTITY = /\\([!-/:-@[-`{-~])|&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z][A-Za-z\d]{0,31}));/gu;

/**
 * A link destination as CommonMark reads it: backslash escapes of ASCII punctuation taken off
 * (CommonMark 0.31 section 2.4) and numeric and path-relevant named character references
 * decoded (section 2.5; HTML attributes decode them too). Pure.
 */
export function unescapeDestination(raw: string): string {
  if (!raw.includes('\\') && !raw.includes('&')) return raw;
  return raw.replace(ESCAPE_OR_ENTITY, (whole, escaped: string | undefined, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (escaped !== undefined) return escaped;
    if (name !== undefined) return PATH_ENTITIES[name] ?? whole;
    const code = Number.parseInt(decimal ?? hex ?? '', decimal === undefined ? 16 : 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** A URL with a scheme other than `file:` (or protocol-relative): a place on the web, not a path. */
const WEB_URL = /^(?:[a-z][a-z\d+.-]*:|\/\/)/iu;

/**
 * Whether the reference `target` of the loadout file `from` leads outside the loadout, by any
 * reading an agent, a Markdown renderer or a URL resolver may give it: as written (an `@`
 * import is a file path: Claude Code reads it so), with CommonMark's escapes and character
 * references taken off (a link: {@link unescapeDestination}), percent-decoded (a URL resolver
 * reads `%2e%2e` as `..`, WHATWG URL "single-dot/double-dot segment"), and with every backslash
 * read as a slash (Windows paths; WHATWG URL reads `\` as `/` in http(s) and file URLs). A
 * reading leaves when it is home-relative or absolute ({@link outsidePathKind}) or when, joined
 * to `from`'s folder and normalised, it climbs above the loadout's root (`../x`, `./../x`,
 * `a/../../x`). A URL with another scheme (`https:`, `mailto:`) or protocol-relative is not a
 * path and never leaves. Undefined when no reading leaves. Pure.
 * Source: issue 53, point 4 (`@../../.aws/credentials` passed `references` and was installed).
 */
export function referenceLeaves(from: string, target: string, kind: 'link' | 'import'): LeavingReference | undefined {
  const unescaped = kind === 'link' ? unescapeDestination(target) : target;
  const readings = new Set(kind === 'link' ? [unescaped, safeDecode(unescaped)] : [target, safeDecode(target)]);
  const depth = from.split('/').length - 1;
  for (const reading of readings) {
    const how = outsidePathKind(reading);
    if (how !== undefined) return { how, reading };
  }
  // A link as written too, with its backslashes as slashes: `..\.env` unescaped is `...env`, but a
  // resolver that reads `\` as `/` reads `../.env`.
  for (const reading of kind === 'link' ? [...readings, target] : readings) {
    if (WEB_URL.test(reading)) continue;
    const slashed = reading.replaceAll('\\', '/');
    const how = outsidePathKind(slashed);
    if (how !== undefined) return { how, reading: slashed };
    if (climbsAbove(slashed, depth)) return { how: 'outside', reading: slashed };
  }
  return undefined;
}

/**
 * True when the relative `path`, read from a folder `depth` levels below the loadout's root,
 * goes above the root at some segment (as `posix.normalize` of the joined path would start with
 * `..`). One pass over the segments: Node's `normalize` took time quadratic in a run of `../`.
 */
function climbsAbove(path: string, depth: number): boolean {
  let level = depth;
  for (let start = 0; start <= path.length; ) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    const length = end - start;
    if (length === 2 && path.startsWith('..', start)) {
      if (--level < 0) return true;
    } else if (length > 0 && !(length === 1 && path[start] === '.')) {
      level++;
    }
    start = end + 1;
  }
  return false;
}
