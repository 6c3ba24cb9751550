/**
 * `references`: relative Markdown links, `@` imports and the reference paths that skills
 * mention resolve to files (or folders) inside the loadout, and anchors resolve where the
 * target is Markdown (spec "Verification": "references between files resolve"; DESIGN.md
 * section 4). Links with a scheme (`https:`, `mailto:`) are not checked, but a `file:` URL,
 * and any link or `@` token that leads outside the loadout, fails, whatever its spelling
 * (`referenceLeaves`: home-relative, absolute, or climbing out with `../`, `./../`, `%2e%2e`,
 * `\`, escapes or character references): an agent would read it from outside the project
 * (issue 35: `@~/.aws/credentials`; issue 53: `@../../.aws/credentials`). `@` imports are read
 * only in the files an agent expands them in (`expandsImports`); anchors are heading slugs and
 * explicit ids (`collectAnchors`). Then, per agent, the links as an install rewrites them
 * (`layout/installed-files.ts`, issue 33): a reference that resolves in the loadout but cannot
 * be made to resolve for some agent (an `@` import of a file that agent does not install as a
 * file) is reported once, naming the agents.
 */
import { posix } from 'node:path';
import { judge, plural, pluralWithVerb, type Check, type CheckContext, type Finding } from '../check.js';
import { collectAnchors, hasAnchor } from '../references/anchors.js';
import { expandsImports, findMarkdownReferences, findSkillPaths, isExternal, referenceLeaves, safeDecode, type Reference } from '../references/links.js';
import { isMarkdownPath } from '../../catalogue/markdown.js';
import type { LeavingReference } from '../../catalogue/markdown-references.js';
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';

export const references: Check = {
  id: 'references',
  name: 'References resolve',
  run(context) {
    const findings: Finding[] = [];
    const anchorCache = new Map<string, Set<string>>();
    const folders = folderSet(context.source.files.keys());
    let count = 0;
    for (const path of context.source.files.keys()) {
      if (!isMarkdownPath(path)) continue;
      const view = context.view(path);
      if (view === undefined) continue;
      const { text } = view;
      const skill = /^skills\/([^/]+)\/SKILL\.md$/u.exec(path)?.[1];
      const refs: Reference[] = [...findMarkdownReferences(text, view, { imports: expandsImports(path) }), ...(skill !== undefined ? findSkillPaths(text, view) : [])];
      const seen = new Set<string>();
      for (const ref of refs) {
        const key = `${ref.line}\u0000${ref.target}\u0000${ref.anchor ?? ''}`;
        if (seen.has(key) || (ref.kind === 'skill-path' && seen.has(`${ref.line}\u0000${ref.target}\u0000`))) continue;
        seen.add(key);
        const leaves = ref.kind === 'skill-path' ? undefined : referenceLeaves(path, ref.target, ref.kind);
        // A URL or placeholder, and an `@` token that names no document, are judged only for where they lead.
        if (leaves === undefined && ((ref.kind === 'link' && isExternal(ref.target)) || ref.loose === true)) continue;
        count++;
        const problem = leaves !== undefined ? leavingProblem(path, ref, leaves) : resolve(context, path, skill, ref, folders, anchorCache);
        if (problem !== undefined) findings.push({ file: path, line: ref.line, message: problem });
      }
    }
    findings.push(...perAgentFindings(context, findings));
    return judge(findings, `${pluralWithVerb(count, 'reference', ['resolves', 'resolve'])} inside the loadout`, (n) => plural(n, 'broken reference'));
  },
};

/** References that resolve in the loadout but not as installed for some agents (`layoutInstall`'s `unresolved`), one finding per reference naming the agents. */
function perAgentFindings(context: CheckContext, found: readonly Finding[]): Finding[] {
  const known = new Set(found.map((f) => `${f.file}\u0000${f.line ?? 0}`));
  const byReference = new Map<string, { finding: Finding; agents: string[] }>();
  for (const agent of PUBLISHED_AGENTS) {
    for (const u of context.installedAs(agent)?.unresolved ?? []) {
      if (known.has(`${u.file}\u0000${u.line}`)) continue;
      const key = `${u.file}\u0000${u.line}\u0000${u.written}\u0000${u.reason}`;
      const seen = byReference.get(key) ?? { finding: { file: u.file, line: u.line, message: `"${u.written}" ${u.reason}` }, agents: [] };
      seen.agents.push(agent);
      byReference.set(key, seen);
    }
  }
  return [...byReference.values()].map(({ finding, agents }) => ({ ...finding, message: `for ${agents.join(', ')}: ${finding.message}` }));
}

const DESCRIBE: Record<Reference['kind'], string> = { link: 'link', import: '@ import', 'skill-path': 'skill file reference' };

function resolve(context: CheckContext, from: string, skill: string | undefined, ref: Reference, folders: ReadonlySet<string>, anchors: Map<string, Set<string>>): string | undefined {
  const what = DESCRIBE[ref.kind];
  const shown = `${ref.target}${ref.anchor === undefined ? '' : `#${ref.anchor}`}`;
  let target = safeDecode(ref.target);
  if (target === '') {
    if (ref.anchor === undefined || ref.anchor === '') return undefined;
    return anchorProblem(context, from, ref.anchor, anchors, what, shown);
  }
  if (ref.kind === 'skill-path' && skill !== undefined) target = posix.join('skills', skill, target);
  else target = posix.join(posix.dirname(from), target);
  target = target.replace(/\/$/u, '');
  if (target === '..' || target.startsWith('../')) return `${what} "${shown}" points outside the loadout (expected a file of the loadout)`;
  if (target === '.' || target === '' || folders.has(target)) return undefined;
  if (!context.source.files.has(target)) return `${what} "${shown}" does not resolve: ${target} is not a file of the loadout (expected an existing file)`;
  // Present but undeclared: the listing check names the file; this names the reference, in the same words (issue 57, point 15).
  if (context.manifest !== undefined && !context.manifest.files.some((f) => f.path === target)) {
    return `${what} "${shown}" does not resolve once published: ${target} is present but not declared in loadout.yaml files (expected a files[] entry for it; an undeclared file is neither published nor installed)`;
  }
  if (ref.anchor !== undefined && ref.anchor !== '' && isMarkdownPath(target)) return anchorProblem(context, target, ref.anchor, anchors, what, shown);
  return undefined;
}

/** The finding of a reference that leads outside the loadout (`referenceLeaves`), naming the reading that does when it is not the text as written. */
function leavingProblem(from: string, ref: Reference, leaves: LeavingReference): string {
  const what = DESCRIBE[ref.kind];
  const shown = `"${ref.target}${ref.anchor === undefined ? '' : `#${ref.anchor}`}"${leaves.reading === ref.target ? '' : ` (read as "${leaves.reading}")`}`;
  if (leaves.how === 'outside') return `${what} ${shown} points outside the loadout: an agent would read a file outside the project (expected a file of the loadout)`;
  const kind = leaves.how === 'home' ? 'a path in the home folder' : 'an absolute path';
  return `${what} ${shown} is ${kind}: an agent would read a file outside the project, such as the user's credentials (expected a path relative to ${from}, inside the loadout${ref.kind === 'import' ? '; write a path that is not an import in a code span' : ''})`;
}

function anchorProblem(context: CheckContext, target: string, anchor: string, cache: Map<string, Set<string>>, what: string, shown: string): string | undefined {
  let anchors = cache.get(target);
  if (anchors === undefined) {
    const view = context.view(target);
    anchors = view === undefined ? new Set<string>() : collectAnchors(view.text, view);
    cache.set(target, anchors);
  }
  if (hasAnchor(anchors, anchor)) return undefined;
  return `${what} "${shown}": ${target} has no heading or anchor "${anchor}" (expected one of its headings as a slug, e.g. "#${[...anchors][0] ?? 'section'}")`;
}

function folderSet(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) folders.add(path.slice(0, i));
  }
  return folders;
}
