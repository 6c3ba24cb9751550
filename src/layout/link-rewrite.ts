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
 * Links with a scheme, template placeholders and links to a heading of the same file stay as
 * they are. A link the rewrite cannot make resolve (a path outside the loadout, an absolute
 * path, a file the loadout does not have, a folder whose files do not land together) stays as
 * written and is reported. The destinations are found by `catalogue/markdown-references.ts`,
 * outside code blocks and code spans. Pure: text in, text out.
 */
import { posix } from 'node:path';
import { proseOf } from '../catalogue/markdown.js';
import { isExternal, safeDecode, scanReferences, splitDestination, type ReferenceSite } from '../catalogue/markdown-references.js';

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
  return `https://loadout.invalid/raw/${id}/${version}/${path}`;
}

/** `to` relative to the folder of `from` (both project-relative); a file's own name when they are equal. */
export function relativeTo(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to);
  return rel === '' ? posix.basename(to) : rel;
}

/** The 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
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

type Outcome = { replace: string } | { keep: true } | { unresolved: string; replace?: string };

function rewriteSite(site: ReferenceSite, subject: RewriteSubject, context: RewriteContext): Outcome {
  // `[#<n>](<url>)`: an angle-bracketed bare word is a template placeholder; `[x]()` names nothing.
  if (site.raw === '' || /^<[\w-]*>$/u.test(site.raw)) return { keep: true };
  const { path, anchor, query } = splitDestination(site.raw);
  if (path === '' || (site.kind === 'link' && isExternal(path))) return { keep: true };
  const decoded = safeDecode(path);
  if (decoded.startsWith('/') || decoded.startsWith('~/')) return { unresolved: 'an absolute path, which no install can make resolve (expected a path relative to the file)' };
  const resolved = posix.join(posix.dirname(subject.source), decoded).replace(/\/$/u, '');
  if (resolved === '..' || resolved.startsWith('../')) return { unresolved: 'points outside the loadout (expected a file of the loadout)' };
  const suffix = `${query}${anchor === undefined ? '' : `#${anchor}`}`;
  const angled = site.raw.startsWith('<') && site.raw.endsWith('>');
  const written = (dest: string): string => (angled ? `<${dest}>` : dest);
  // An import path must not start with a bare dot (`@.gemini/…` is not read as an import): it gets `./`, as it does when the author wrote one.
  const dotted = (dest: string): string => (site.kind === 'import' && !dest.startsWith('./') && !dest.startsWith('../') && (decoded.startsWith('./') || dest.startsWith('.')) ? `./${dest}` : dest);
  if (!context.paths.has(resolved)) {
    if (resolved === '.' || resolved === '') return { keep: true };
    const isFolder = [...context.paths].some((p) => p.startsWith(`${resolved}/`));
    const folder = isFolder ? folderLanding(resolved, context) : undefined;
    // A folder is relative to the installed file's folder; its own folder is `.`.
    const rel = folder === undefined ? undefined : posix.relative(posix.dirname(subject.target), folder) || '.';
    if (rel !== undefined) return { replace: written(dotted(`${rel}${path.endsWith('/') ? '/' : ''}`) + suffix) };
    return { unresolved: isFolder ? `${resolved}/ is a folder whose files do not land in one folder (expected a link to one of its files)` : `${resolved} is not a file of the loadout (expected an existing file)` };
  }
  const landing = context.landing(resolved);
  if (landing === undefined) {
    const raw = `${context.rawUrl(resolved)}${suffix}`;
    if (site.kind === 'import') return { replace: `[${decoded}](${raw})`, unresolved: `imports ${resolved}, which is not installed as a file here: an agent imports local files only, so it became a link to ${raw}` };
    return { replace: written(raw) };
  }
  const sameFile = landing.target === subject.target;
  const fragment = anchor ?? landing.anchor;
  const dest = sameFile && fragment !== undefined ? `${query}#${fragment}` : `${relativeTo(subject.target, landing.target)}${query}${fragment === undefined ? '' : `#${fragment}`}`;
  // An import of a file that became a section: the text is already in the agent's context, so a link to it says where.
  if (landing.anchor !== undefined && site.kind === 'import') return { replace: `[${decoded}](${dest})` };
  return { replace: written(site.kind === 'import' ? dotted(dest) : dest) };
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
  let out = '';
  let last = 0;
  for (const site of sites) {
    if (site.start < last) continue;
    const outcome = rewriteSite(site, subject, context);
    if ('unresolved' in outcome) unresolved.push({ line: lineAt(text, site.at), written: site.raw, reason: outcome.unresolved });
    if (!('replace' in outcome) || outcome.replace === undefined) continue;
    // An import is replaced whole (`@path` → `[path](address)`); a link's destination only.
    const start = site.kind === 'import' && outcome.replace.startsWith('[') ? site.at : site.start;
    out += text.slice(last, start) + outcome.replace;
    last = site.end;
  }
  return { text: out + text.slice(last), unresolved };
}
