/**
 * Where a Markdown text refers to other files, with the offsets of each destination, so that
 * the `references` check can judge them and an install can rewrite them in place: relative
 * links and images (`[text](path#anchor "title")`), reference definitions (`[id]: path`), HTML
 * `href`/`src`, and `@path` imports (an `@` token that starts a word). The text scanned is the
 * prose (`proseOf` in `markdown.ts`): links and imports in code blocks and code spans are
 * examples, not references. Syntax: CommonMark 0.31 sections 6.3 (links), 4.7 (link reference
 * definitions) and 6.6 (raw HTML); imports: Claude Code memory, "CLAUDE.md imports"
 * (code.claude.com/docs/en/memory) and Gemini CLI's Memory Import Processor
 * (geminicli.com/docs/reference/memport). Pure; no dependencies.
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
}

/**
 * `[text](destination "title")`. The destination is absent or not empty, and the title follows
 * a blank by a lookbehind: blanks on both sides of an empty destination, or before an optional
 * title and the closing parenthesis, made the expression backtrack quadratically on long blank runs.
 */
const INLINE = /!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\(\s*(?:(<[^>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*|(?:\([^\s()]*\)[^\s()]*)+)\s*)?(?:(?<=\s)(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\))\s*)?\)/dgu;
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/dgmu;
const HTML = /<(?:a|img|link|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/dgiu;
const IMPORT = /(?:^|[\s(])@((?:\.{1,2}\/|~\/|\/)?[\w-][\w.-]*(?:\/[\w.-]+)*\.(?:md|mdc|markdown|txt|json|ya?ml|toml))(?=$|[\s),;:!?]|\.(?:\s|$))/dgmu;

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
 * links first, then definitions, HTML and (when `imports`) `@` imports; each list in text order.
 * Pure.
 */
export function scanReferences(prose: string, imports: boolean): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  // Each expression runs only when the text has the characters it needs.
  for (const [re, needle, kind] of [[INLINE, '](', 'link'], [DEFINITION, ']:', 'link'], [HTML, '<', 'link'], [IMPORT, '@', 'import']] as const) {
    if (!prose.includes(needle) || (kind === 'import' && !imports)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(prose); m !== null; m = re.exec(prose)) {
      const group = m[1] === undefined ? 2 : 1;
      const span = m.indices?.[group];
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
