/**
 * The anchors a Markdown file offers: GitHub-style heading slugs (lower-case, punctuation
 * removed, spaces to hyphens, `-1`, `-2` … for repeats; as github-slugger does) and explicit
 * `id`/`name` attributes of HTML elements.
 */
import { codeBlocksOf } from '../text/memo.js';
import { blankRanges } from '../text/markdown.js';

/** Slug of a heading's text, as GitHub renders it. */
export function slugify(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/gu, '$1') // links and images → their text
    .replace(/<[^>]+>/gu, '') // inline HTML
    .replace(/[`*]|(?<!\w)_+|_+(?!\w)/gu, ''); // code and emphasis markers
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /gu, '-');
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+([^\n]*?))?(?:[ \t]+#+)?[ \t]*\r?$/gmu;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]+([^\n]*?))?(?:[ \t]+#+)?[ \t]*\r?$|^ {0,3}([^\s>|#*+-][^\n]*)\r?\n {0,3}(?:=+|-+)[ \t]*\r?$/gmu;
const SETEXT_UNDERLINE = /\n {0,3}(?:=+|-+)[ \t]*\r?(?:\n|$)/u;

/** Every anchor of a Markdown text. Pure. */
export function collectAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const prose = blankRanges(text, codeBlocksOf(text));
  const addSlug = (heading: string): void => {
    const base = slugify(heading);
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  // ATX headings ("## Title") and setext headings ("Title" over "===" or "---"), in order.
  const heading = SETEXT_UNDERLINE.test(prose) ? HEADING : ATX_HEADING;
  heading.lastIndex = 0;
  for (let m = heading.exec(prose); m !== null; m = heading.exec(prose)) addSlug(m[2] !== undefined ? m[2].trim() : (m[1] ?? ''));
  for (const m of prose.matchAll(/\s(?:id|name)\s*=\s*["']([^"']+)["']/gu)) anchors.add(m[1] ?? '');
  return anchors;
}

/** True when `anchor` names one of `anchors`, comparing loosely (case, punctuation) to avoid false alarms. */
export function hasAnchor(anchors: ReadonlySet<string>, anchor: string): boolean {
  if (anchors.has(anchor) || anchors.has(anchor.toLowerCase())) return true;
  const loose = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const wanted = loose(anchor);
  for (const a of anchors) if (loose(a) === wanted) return true;
  return false;
}
