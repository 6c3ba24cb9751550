/**
 * The references a Markdown file makes to other files (issue 3, point 3): relative links and
 * images (`[text](path#anchor)`, reference definitions `[id]: path`, HTML `href`/`src`),
 * `@` imports (Claude Code memory imports and Gemini CLI's `@file.md`: an `@path` token
 * that starts a word), and the paths a skill mentions (`references/…`, `scripts/…`,
 * `assets/…`, relative to the skill folder: Agent Skills specification, "File references").
 * Links and imports in code blocks and code spans are examples, not references.
 */
import { TextView } from '../text/view.js';
import { blankRanges, type TextRange } from '../text/markdown.js';

/** One reference found in a file. */
export interface Reference {
  kind: 'link' | 'import' | 'skill-path';
  /** The target as written (without the anchor). */
  target: string;
  /** The anchor after `#`, decoded; undefined when none. */
  anchor: string | undefined;
  line: number;
}

/**
 * `[text](destination "title")`. The destination is absent or not empty, and the title follows
 * a blank by a lookbehind: blanks on both sides of an empty destination, or before an optional
 * title and the closing parenthesis, made the expression backtrack quadratically on long blank runs.
 */
const INLINE = /!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\(\s*(?:(<[^>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*|(?:\([^\s()]*\)[^\s()]*)+)\s*)?(?:(?<=\s)(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\))\s*)?\)/gu;
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gmu;
const HTML = /<(?:a|img|link|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/giu;
const IMPORT = /(?:^|[\s(])@((?:\.{1,2}\/|~\/|\/)?[\w-][\w.-]*(?:\/[\w.-]+)*\.(?:md|mdc|markdown|txt|json|ya?ml|toml))(?=$|[\s),;:!?]|\.(?:\s|$))/gmu;
const SKILL_PATH = /(?<![\w./@-])(?:\.\/)?((?:references|scripts|assets)\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b/gu;
/** In code blocks a skill's own files are `references/…`, or scripts the block runs; other paths there are project paths. */
const SKILL_PATH_IN_CODE = /(?:(?<![\w./@-])(?:\.\/)?(references\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b)|(?:(?:python[0-9.]*|node|bash|sh|zsh|pwsh|powershell(?:\.exe)?|tsx|ts-node|deno\s+run|uv\s+run|ruby|perl|source)\s+(?:-\S+\s+)*(?:\.\/)?((?:scripts|assets)\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b)/gu;

/** Links and `@` imports of a Markdown text, with 1-based lines. Pure. */
export function findMarkdownReferences(text: string, view = new TextView(text)): Reference[] {
  const prose = view.prose;
  const refs: Reference[] = [];
  const add = (kind: Reference['kind'], raw: string, offset: number): void => {
    // `[#<n>](<url>)`: an angle-bracketed bare word is a template placeholder, not a file.
    if (/^<[\w-]*>$/u.test(raw)) return;
    const dest = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
    const hash = dest.indexOf('#');
    const target = hash < 0 ? dest : dest.slice(0, hash);
    refs.push({ kind, target: target.replace(/(?<!\?)\?.*$/u, ''), anchor: hash < 0 ? undefined : safeDecode(dest.slice(hash + 1)), line: view.lines.lineOf(offset) });
  };
  // Each expression runs only when the text has the characters it needs.
  for (const [re, needle, kind] of [[INLINE, '](', 'link'], [DEFINITION, ']:', 'link'], [HTML, '<', 'link'], [IMPORT, '@', 'import']] as const) {
    if (!prose.includes(needle)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(prose); m !== null; m = re.exec(prose)) add(kind, m[1] ?? m[2] ?? '', kind === 'import' ? m.index + m[0].indexOf('@') : m.index);
  }
  return refs;
}

/**
 * Paths of a skill's own files that its `SKILL.md` mentions: `references/…`, `scripts/…` or
 * `assets/…` in prose and code spans; in code blocks only `references/…` and scripts that the
 * block runs (`python scripts/x.py`), since other paths there belong to the user's project. Pure.
 */
export function findSkillPaths(text: string, view = new TextView(text)): Reference[] {
  const refs: Reference[] = [];
  const { blocks } = view;
  const prose = view.withoutBlocks;
  const code = blankRanges(text, complement(blocks.map((b) => ({ start: b.contentStart, end: b.contentEnd })), text.length));
  for (const [part, re] of [[prose, SKILL_PATH], [code, SKILL_PATH_IN_CODE]] as const) {
    re.lastIndex = 0;
    for (let m = re.exec(part); m !== null; m = re.exec(part)) {
      const path = m[1] ?? m[2] ?? '';
      refs.push({ kind: 'skill-path', target: path.replace(/\.$/u, ''), anchor: undefined, line: view.lines.lineOf(m.index + m[0].indexOf(path)) });
    }
  }
  return refs;
}

function complement(ranges: TextRange[], length: number): TextRange[] {
  const out: TextRange[] = [];
  let last = 0;
  for (const r of ranges) {
    if (r.start > last) out.push({ start: last, end: r.start });
    last = Math.max(last, r.end);
  }
  if (last < length) out.push({ start: last, end: length });
  return out;
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
