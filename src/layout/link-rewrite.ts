/**
 * Links as an agent finds them after an install (issue 33, DESIGN.md "Fidelity"): authors link
 * a loadout's files by their place in the loadout (`[style](rules/style.md)`), and an install
 * puts them elsewhere (`.cursor/rules/style.mdc`), into a section of another file (Codex's
 * rules in `AGENTS.md`) or nowhere. Every relative Markdown link, image, reference definition,
 * HTML `href`/`src` and `@` import of an installed Markdown file is rewritten:
 * - to where its target landed, relative to the installed file (the anchor kept);
 * - to `<file>#<anchor>` (or `#<anchor>` within the same file) when the target became a section
 *   (an `@` import of it becomes a Markdown link there: the section is read with its file);
 * - to the pinned raw address (`{base}/raw/<id>/<version>/<path>`, spec "Address shapes") when
 *   the target is not installed for the reader. An `@` import cannot name an address (agents
 *   import local files only), so it becomes a Markdown link to it and is reported.
 * A link's new destination is a URL reference (RFC 3986 section 4.2): each path segment
 * percent-encoded where a character would change what it means (`?`, `#`, `%`, blanks,
 * parentheses, quotes, `&`…), and `./` put before a first segment that holds a `:` or starts
 * with `~`, so that a file named `javascript:alert(1)` or `%2e%2e` stays a file (issue 53,
 * point 9). An `@` import is a file path, written as it is.
 * Links with a scheme, template placeholders and links to a heading of the same file stay as
 * they are. A reference that leads outside the loadout (`referenceLeaves`: home-relative,
 * absolute, or climbing out, whatever its spelling) is never written as it was: an `@` token
 * becomes a code span, which no agent expands (Claude Code: "imports are not evaluated inside
 * markdown code spans and code blocks"; Gemini CLI's import processor skips code too), and a
 * link's destination becomes `#` (the file itself); both are reported (issue 53, point 4). Any
 * other link the rewrite cannot make resolve (a file the loadout does not have, a folder whose
 * files do not land together) stays as written and is reported. The destinations are found by
 * `catalogue/markdown-references.ts`, outside code blocks and code spans. Pure: text in, text
 * out, in time linear in the text and the number of the loadout's paths.
 */
import { posix } from 'node:path';
import { proseOf } from '../catalogue/markdown.js';
import { isExternal, referenceLeaves, safeDecode, scanReferences, splitDestination, type ReferenceSite } from '../catalogue/markdown-references.js';

/** Where a loadout file is for the reader: a project path, and the anchor when it is a section of that file. */
export interface Landing {
  target: string;
  anchor?: string;
}

/** What the rewrite needs to know of the loadout and the install. */
export interface RewriteContext {
  /** Every file path of the loadout. */
  paths: ReadonlySet<string>;
  /** Where a loadout file landed for the reader, or undefined when it is not installed. */
  landing(path: string): Landing | undefined;
  /** The pinned raw address of a loadout file. */
  rawUrl(path: string): string;
}

/** A reference the rewrite could not make resolve: the line (1-based), the destination as written, and why. */
export interface UnresolvedReference {
  line: number;
  written: string;
  reason: string;
}

/** Where a file's text comes from and where it is installed. */
export interface RewriteSubject {
  /** Its path in the loadout: relative destinations are read from its folder. */
  source: string;
  /** Its project-relative install target: new destinations are written relative to its folder. */
  target: string;
  /** True when the agent expands `@` imports in the installed file (`expandsImports`). */
  imports: boolean;
}

/**
 * A raw address for checks that run before a catalogue exists (verify): `loadout.invalid` is
 * reserved and never resolves (RFC 6761, section 6.4), so the placeholder cannot be mistaken for
 * a real catalogue. Only the shape matters there: an absolute address.
 */
export function placeholderRawUrl(id: string, version: string, path: string): string {
  return `https://loadout.invalid/raw/${id}/${version}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * An absolute address as a Markdown destination or HTML attribute value: the characters that
 * would end one or change what it means there (blanks, `(`, `)`, `<`, `>`, quotes, backticks)
 * percent-encoded, which a URL's path reads alike (RFC 3986 section 2.1). A raw address names a
 * file by its path, and a catalogue's `raw_url` is only as careful as the catalogue.
 */
function destinationOf(address: string): string {
  return address.replace(/[\s()<>"'`]/gu, (c) => encodeURIComponent(c).replace(/[()']/gu, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** `to` relative to the folder of `from` (both project-relative); a file's own name when they are equal. */
export function relativeTo(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel === '' ? posix.basename(to) : rel;
}

/** The 1-based line of an offset of `text`: the offsets where lines start, found once, then a binary search per offset. */
function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/** The folders of the loadout's paths, and the landing of each folder once found ({@link folderLanding}). */
interface Folders {
  all: ReadonlySet<string>;
  landings: Map<string, string | undefined>;
}

function foldersOf(paths: ReadonlySet<string>): Folders {
  const all = new Set<string>();
  for (const path of paths) for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) all.add(path.slice(0, i));
  return { all, landings: new Map() };
}

/** The landing of a folder of the loadout: where its files landed, when all of them landed below one folder with their own paths. */
function folderLanding(folder: string, context: RewriteContext): string | undefined {
  let found: string | undefined;
  for (const path of context.paths) {
    if (!path.startsWith(`${folder}/`)) continue;
    const landing = context.landing(path);
    const rest = path.slice(folder.length);
    if (landing === undefined || landing.anchor !== undefined || !landing.target.endsWith(rest)) return undefined;
    const here = landing.target.slice(0, landing.target.length - rest.length);
    if (found !== undefined && found !== here) return undefined;
    found = here;
  }
  return found;
}

/**
 * A relative path (`/`-separated, no empty segment but the one a trailing `/` leaves) as a URL
 * reference that resolves to it (RFC 3986 sections 3.3 and 4.2): a segment keeps its letters,
 * digits, marks and the characters of RFC 3986 `pchar` that mean nothing in a path, a Markdown
 * destination or an HTML attribute (`-._~!$*+,;:@`); any other character is percent-encoded
 * as UTF-8 (`%` itself, `?`, `#`, blanks, `()`, `<>`, quotes, `&`, `=`, `\`). A first segment
 * that holds a `:` (read as a scheme: `javascript:`) or starts with `~` (read as the home
 * folder) gets `./` before it. `.` and `..` segments stay.
 */
export function encodeLinkPath(path: string): string {
  const encoded = path
    .split('/')
    .map((segment) => (segment === '.' || segment === '..' ? segment : segment.replace(/[^\p{L}\p{M}\p{N}\-._~!$*+,;:@]/gu, (c) => encodeURIComponent(c).replace(/[!'()*]/gu, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`))))
    .join('/');
  const first = encoded.slice(0, encoded.indexOf('/') >>> 0);
  return first.includes(':') || first.startsWith('~') ? `./${encoded}` : encoded;
}

/** Backticks around `text` that no run of backticks in `within` can close: one more than its longest run (CommonMark 6.1). */
function codeSpan(text: string, within: string): string {
  let longest = 0;
  for (let i = within.indexOf('`'); i >= 0; i = within.indexOf('`', i)) {
    let end = i;
    while (within.charCodeAt(end) === 0x60) end++;
    longest = Math.max(longest, end - i);
    i = end;
  }
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

type Outcome = { replace: string; whole?: true } | { keep: true } | { unresolved: string; replace?: string; whole?: true };

/** A reference that leads outside the loadout, made inert (see the module comment) and reported. */
function neutralised(site: ReferenceSite, text: string, how: string): Outcome {
  if (site.kind === 'import') return { replace: codeSpan(`@${site.raw}`, text), whole: true, unresolved: `${how}: an agent would read a file outside the project, so it is written in a code span, which no agent imports` };
  const angled = site.raw.startsWith('<') && site.raw.endsWith('>');
  return { replace: angled ? '<#>' : '#', unresolved: `${how}: an agent would read a file outside the project, so its destination is written as "#"` };
}

const LEAVES: Record<'home' | 'absolute' | 'outside', string> = { home: 'is a path in the home folder', absolute: 'is an absolute path', outside: 'points outside the loadout' };

function rewriteSite(site: ReferenceSite, subject: RewriteSubject, context: RewriteContext, folders: Folders, text: string): Outcome {
  // `[#<n>](<url>)`: an angle-bracketed bare word is a template placeholder; `[x]()` names nothing.
  if (site.raw === '' || /^<[\w-]*>$/u.test(site.raw)) return { keep: true };
  const { path, anchor, query } = site.loose === true ? { path: site.raw, anchor: undefined, query: '' } : splitDestination(site.raw);
  if (path === '') return { keep: true };
  const leaves = referenceLeaves(subject.source, path, site.kind);
  if (leaves !== undefined) return neutralised(site, text, `${LEAVES[leaves.how]}${leaves.reading === path ? '' : ` (read as "${leaves.reading}")`}`);
  if (site.loose === true || (site.kind === 'link' && isExternal(path))) return { keep: true };
  const decoded = safeDecode(path);
  const resolved = posix.join(posix.dirname(subject.source), decoded).replace(/\/$/u, '');
  const suffix = `${query}${anchor === undefined ? '' : `#${anchor}`}`;
  const angled = site.raw.startsWith('<') && site.raw.endsWith('>');
  const written = (dest: string): string => (angled ? `<${dest}>` : dest);
  // An import path must not start with a bare dot (`@.gemini/…` is not read as an import): it gets `./`, as it does when the author wrote one.
  const dotted = (dest: string): string => (!dest.startsWith('./') && !dest.startsWith('../') && (decoded.startsWith('./') || dest.startsWith('.')) ? `./${dest}` : dest);
  // A link is a URL reference, an import a file path (see the module comment).
  const asWritten = (dest: string): string => (site.kind === 'import' ? dotted(dest) : encodeLinkPath(dest));
  if (!context.paths.has(resolved)) {
    if (resolved === '.' || resolved === '') return { keep: true };
    const isFolder = folders.all.has(resolved);
    if (isFolder && !folders.landings.has(resolved)) folders.landings.set(resolved, folderLanding(resolved, context));
    const folder = isFolder ? folders.landings.get(resolved) : undefined;
    // A folder is relative to the installed file's folder; its own folder is `.`.
    const rel = folder === undefined ? undefined : posix.relative(posix.dirname(subject.target), folder) || '.';
    if (rel !== undefined) return { replace: written(asWritten(`${rel}${path.endsWith('/') ? '/' : ''}`) + suffix) };
    return { unresolved: isFolder ? `${resolved}/ is a folder whose files do not land in one folder (expected a link to one of its files)` : `${resolved} is not a file of the loadout (expected an existing file)` };
  }
  const landing = context.landing(resolved);
  if (landing === undefined) {
    const raw = `${destinationOf(context.rawUrl(resolved))}${suffix}`;
    if (site.kind === 'import') return { replace: `[${decoded}](${raw})`, whole: true, unresolved: `imports ${resolved}, which is not installed as a file here: an agent imports local files only, so it became a link to ${raw}` };
    return { replace: written(raw) };
  }
  const sameFile = landing.target === subject.target;
  const fragment = anchor ?? landing.anchor;
  const relative = relativeTo(subject.target, landing.target);
  const dest = (path: string): string => (sameFile && fragment !== undefined ? `${query}#${fragment}` : `${path}${query}${fragment === undefined ? '' : `#${fragment}`}`);
  // An import of a file that became a section: the text is already in the agent's context, so a link to it says where.
  if (landing.anchor !== undefined && site.kind === 'import') return { replace: `[${decoded}](${dest(encodeLinkPath(relative))})`, whole: true };
  return { replace: written(site.kind === 'import' ? dotted(dest(relative)) : dest(encodeLinkPath(relative))) };
}

/**
 * Rewrites every relative reference of `text` (the file `subject.source`, installed at
 * `subject.target`) to where its target is for the reader (see the module comment). Returns the
 * new text and the references that could not be made to resolve. Pure; never throws.
 */
export function rewriteReferences(text: string, subject: RewriteSubject, context: RewriteContext): { text: string; unresolved: UnresolvedReference[] } {
  const prose = proseOf(text);
  const sites = scanReferences(prose, subject.imports).sort((a, b) => a.start - b.start);
  const unresolved: UnresolvedReference[] = [];
  const folders = foldersOf(context.paths);
  const lineOf = lineCounter(text);
  let out = '';
  let last = 0;
  for (const site of sites) {
    if (site.start < last) continue;
    const outcome = rewriteSite(site, subject, context, folders, text);
    if ('unresolved' in outcome) unresolved.push({ line: lineOf(site.at), written: site.raw, reason: outcome.unresolved });
    if (!('replace' in outcome) || outcome.replace === undefined) continue;
    // An import may be replaced whole (`@path` → `[path](address)`, or a code span); a link's destination only.
    const start = outcome.whole === true ? site.at : site.start;
    out += text.slice(last, start) + outcome.replace;
    last = site.end;
  }
  return { text: out + text.slice(last), unresolved };
}
