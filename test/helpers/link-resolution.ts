/**
 * The link-resolution checker of installed projects (issue 33, point 1): every relative
 * Markdown link, image, reference definition, HTML `href`/`src` and `@` import in every
 * Markdown file an install wrote (the targets its lock records) must name a file or folder
 * that exists in the project, and an anchor into a Markdown file must name one of its
 * headings. Links with a scheme (the pinned raw addresses) are not followed: they are
 * absolute, so nothing in the project can make them dangle.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { collectAnchors, hasAnchor } from '../../src/verify/references/anchors.js';
import { expandsImports, findMarkdownReferences, isExternal, referenceLeaves, safeDecode } from '../../src/verify/references/links.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';

/** One reference that does not resolve in the project. */
export interface DanglingLink {
  /** The installed file (project-relative) and the 1-based line. */
  file: string;
  line: number;
  /** The reference as written. */
  written: string;
  /** `file`: no file or folder there; `anchor`: the file has no such heading; `outside`: it leaves the project or is absolute. */
  problem: 'file' | 'anchor' | 'outside';
}

const isMarkdown = (path: string): boolean => /\.(?:md|mdc|markdown)$/iu.test(path);

/** The project-relative Markdown files the installs of `project`'s lock hold. */
export function installedMarkdown(project: string): string[] {
  const lockPath = join(project, LOCK_FILE);
  if (!existsSync(lockPath)) return [];
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as LockFile;
  return [...new Set(lock.installs.flatMap((e) => e.files.map((f) => f.target)))].filter(isMarkdown).sort();
}

/** Every reference of `files` (project-relative) that does not resolve inside `project`. */
export function findDanglingLinks(project: string, files: readonly string[] = installedMarkdown(project)): DanglingLink[] {
  const dangling: DanglingLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  for (const file of files) {
    const full = join(project, ...file.split('/'));
    if (!existsSync(full)) continue;
    const text = readFileSync(full, 'utf8');
    for (const ref of findMarkdownReferences(text, undefined, { imports: expandsImports(file) })) {
      const written = `${ref.target}${ref.anchor === undefined ? '' : `#${ref.anchor}`}`;
      const at = { file, line: ref.line, written };
      // An `@` token that is no import of a document, and a URL, count only when they lead out of the project.
      const leaves = ref.kind !== 'skill-path' && referenceLeaves(file, ref.target, ref.kind) !== undefined;
      if (!leaves && (ref.loose === true || (ref.kind === 'link' && isExternal(ref.target)))) continue;
      const target = safeDecode(ref.target);
      if (leaves || target.startsWith('/') || target.startsWith('~/')) {
        dangling.push({ ...at, problem: 'outside' });
        continue;
      }
      const resolved = target === '' ? file : posix.join(posix.dirname(file), target).replace(/\/$/u, '');
      if (resolved === '..' || resolved.startsWith('../')) {
        dangling.push({ ...at, problem: 'outside' });
        continue;
      }
      const path = join(project, ...resolved.split('/'));
      if (!existsSync(path)) {
        dangling.push({ ...at, problem: 'file' });
        continue;
      }
      if (ref.anchor === undefined || ref.anchor === '' || !isMarkdown(resolved) || !statSync(path).isFile()) continue;
      let anchors = anchorsOf.get(resolved);
      if (anchors === undefined) {
        anchors = collectAnchors(readFileSync(path, 'utf8'));
        anchorsOf.set(resolved, anchors);
      }
      if (!hasAnchor(anchors, ref.anchor)) dangling.push({ ...at, problem: 'anchor' });
    }
  }
  return dangling;
}
