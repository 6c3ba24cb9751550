/**
 * The anchors a Markdown file offers: GitHub-style heading slugs (lower-case, punctuation
 * removed, spaces to hyphens, `-1`, `-2` … for repeats; as github-slugger does) and explicit
 * `id`/`name` attributes of HTML elements.
 */
import { blankRanges, findCodeBlocks } from '../text/markdown.js';

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

/** Every anchor of a Markdown text. Pure. */
export function collectAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const prose = blankRanges(text, findCodeBlocks(text));
  const lines = prose.split('\n');
  const addSlug = (heading: string): void => {
    const base = slugify(heading);
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  };
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*\r?$/u.exec(line);
    if (atx !== null) addSlug(atx[1] ?? '');
    else if (i > 0 && /^ {0,3}(?:=+|-+)[ \t]*\r?$/u.test(line) && (lines[i - 1] ?? '').trim() !== '' && !/^ {0,3}(?:[-*+]\s|#|>|\|)/u.test(lines[i - 1] ?? '')) addSlug((lines[i - 1] ?? '').trim());
  });
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
