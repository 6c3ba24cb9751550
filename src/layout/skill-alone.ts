/**
 * A skill folder installed on its own (the skills layout: `npx skills add`, which installs the
 * folder alone, and the MCP server's `skill://` resources, which a client reads as that folder):
 * a link, image or `@` import to a file of the same skill stays as it is, and one that leaves
 * the skill points at its target's pinned raw address, since the target is not installed beside
 * it (the rule of `installed-files.ts` for an agent that does not install the target; issue 57
 * point 12).
 */
import { isMarkdownPath } from '../catalogue/markdown.js';
import { rewriteReferences } from './link-rewrite.js';

/** A file of the version the skill belongs to: its loadout path and pinned raw address (`raw_url` of the record or of `versions.json`). */
export interface VersionFileAddress {
  path: string;
  raw_url: string;
}

/**
 * The text of the skill file `path` (at `rel` inside the folder of `skill`) as the skill folder
 * installed alone holds it: links out of the folder rewritten to the pinned raw address of their
 * target among `files` (the version's files). A file that is not Markdown is returned as it is.
 * Pure; never throws.
 */
export function skillFileInstalledAlone(files: readonly VersionFileAddress[], skill: string, path: string, rel: string, content: string): string {
  if (!isMarkdownPath(path)) return content;
  const prefix = path.slice(0, path.length - rel.length);
  const raw = new Map(files.map((f) => [f.path, f.raw_url]));
  const context = { paths: new Set(raw.keys()), rawUrl: (p: string) => raw.get(p) ?? p, landing: (p: string) => (p.startsWith(prefix) ? { target: `${skill}/${p.slice(prefix.length)}` } : undefined) };
  return rewriteReferences(content, { source: path, target: `${skill}/${rel}`, imports: false }, context).text;
}
