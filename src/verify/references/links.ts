/**
 * The references a Markdown file makes to other files: relative links and images
 * (`[text](path#anchor)`, reference definitions `[id]: path`, HTML `href`/`src`), `@` imports
 * (an `@path` token that starts a word, in the files an agent expands imports in:
 * {@link expandsImports}), and the paths a skill mentions (`references/…`, `scripts/…`,
 * `assets/…`, relative to the skill folder: Agent Skills specification, "File references").
 * Links and imports in code blocks and code spans are examples, not references.
 */
import { TextView } from '../text/view.js';
import { blankRanges, type TextRange } from '../../catalogue/markdown.js';
import { safeDecode, scanReferences, splitDestination } from '../../catalogue/markdown-references.js';

export { expandsImports, IMPORT_EXPANDING_FILES, isExternal, outsidePathKind, referenceLeaves, safeDecode } from '../../catalogue/markdown-references.js';

/** One reference found in a file. */
export interface Reference {
  kind: 'link' | 'import' | 'skill-path';
  /** The target as written (without the anchor). */
  target: string;
  /** The anchor after `#`, decoded; undefined when none. */
  anchor: string | undefined;
  line: number;
  /** True for an `@` token that names no document: judged only for where it leads (`ReferenceSite.loose`). */
  loose?: true;
}

const SKILL_PATH = /(?<![\w./@-])(?:\.\/)?((?:references|scripts|assets)\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b/gu;
/** In code blocks a skill's own files are `references/…`, or scripts the block runs; other paths there are project paths. */
const SKILL_PATH_IN_CODE = /(?:(?<![\w./@-])(?:\.\/)?(references\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b)|(?:(?:python[0-9.]*|node|bash|sh|zsh|pwsh|powershell(?:\.exe)?|tsx|ts-node|deno\s+run|uv\s+run|ruby|perl|source)\s+(?:-\S+\s+)*(?:\.\/)?((?:scripts|assets)\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b)/gu;

/** Options of {@link findMarkdownReferences}. */
export interface FindReferencesOptions {
  /** Read `@path` tokens as imports: true (the default) only for the files {@link expandsImports} names. */
  imports?: boolean;
}

/**
 * Links and (unless `options.imports` is false) `@` imports of a Markdown text, with 1-based
 * lines; the `@` tokens that name no document come last, `loose`. Pure.
 */
export function findMarkdownReferences(text: string, view = new TextView(text), options: FindReferencesOptions = {}): Reference[] {
  const refs: Reference[] = [];
  for (const site of scanReferences(view.prose, options.imports !== false)) {
    // `[#<n>](<url>)`: an angle-bracketed bare word is a template placeholder, not a file.
    if (/^<[\w-]*>$/u.test(site.raw)) continue;
    const line = view.lines.lineOf(site.at);
    if (site.loose === true) {
      refs.push({ kind: 'import', target: site.raw, anchor: undefined, line, loose: true });
      continue;
    }
    const { path, anchor } = splitDestination(site.raw);
    refs.push({ kind: site.kind, target: path, anchor: anchor === undefined ? undefined : safeDecode(anchor), line });
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
