/**
 * The guides as pages of the site: each `docs/<name>.md` of the catalogue's repository becomes
 * `docs/<name>/` in the tree, rendered by markdown-it (CommonMark with GitHub's tables) into
 * the site's layout. Raw HTML in the Markdown is escaped, not passed through, so the pages'
 * strict CSP (server/static.ts `PAGE_CSP`) holds whatever a guide says. Headings get GitHub's
 * slugs as ids (the same slugs the `references` check resolves anchors against), and links
 * between guides are rewritten to the pages' addresses, so a link that works on GitHub works
 * on the site.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import markdownItFactory, { type MarkdownIt, type Token } from 'markdown-it';
import { slugify } from '../verify/references/anchors.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';

/** One guide: `docs/<name>.md`, its first heading as the title and its first paragraph as the lead. */
export interface Guide {
  /** The file name without `.md`, a slug (`installing`); the page is `docs/<name>/`. */
  name: string;
  /** The text of the first `#` heading, or the name when there is none. */
  title: string;
  /** The first paragraph, as plain text (the page's description and the docs page's list). */
  lead: string;
  /** The whole Markdown text. */
  markdown: string;
}

/** A picture a guide shows: `docs/images/<file>`, copied to the same path in the tree. */
export interface GuideImage {
  path: string;
  bytes: Buffer;
}

const GUIDE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/u;
const IMAGE_FILE = /^[a-z0-9][a-z0-9._-]*\.(?:png|svg)$/u;

/**
 * Reads the guides in `dir` (the repository's `docs/`), sorted by name, and the pictures in
 * `dir/images/`. A catalogue without a `docs/` folder has none. Files whose names are not
 * slugs are left out. Reads the file system; @throws the file system's error on an unreadable file.
 */
export function readGuides(dir: string): { guides: Guide[]; images: GuideImage[] } {
  if (!existsSync(dir)) return { guides: [], images: [] };
  const guides = readdirSync(dir)
    .filter((file) => file.endsWith('.md') && GUIDE_NAME.test(file.slice(0, -3)))
    .sort()
    .map((file) => parseGuide(file.slice(0, -3), readFileSync(join(dir, file), 'utf8')));
  const imagesDir = join(dir, 'images');
  const images = existsSync(imagesDir)
    ? readdirSync(imagesDir)
        .filter((file) => IMAGE_FILE.test(file))
        .sort()
        .map((file) => ({ path: `docs/images/${file}`, bytes: readFileSync(join(imagesDir, file)) }))
    : [];
  return { guides, images };
}

/** The title and lead of a guide's Markdown. Pure. */
export function parseGuide(name: string, markdown: string): Guide {
  const tokens = markdownIt().parse(markdown, {});
  const titleAt = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1');
  const leadAt = tokens.findIndex((t) => t.type === 'paragraph_open');
  return {
    name,
    title: titleAt >= 0 ? plainText(tokens[titleAt + 1]) : name,
    lead: leadAt >= 0 ? plainText(tokens[leadAt + 1]) : '',
    markdown,
  };
}

/** The text of an inline token without its markup. */
function plainText(inline: Token | undefined): string {
  // A line break in the source is a space in the text ("what they read\nis" is "what they read is").
  return (inline?.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : '')).join('');
}

/** markdown-it as the guides use it: no raw HTML, GitHub's tables, headings with slugs. */
function markdownIt(): MarkdownIt {
  const md = markdownItFactory({ html: false, linkify: false, typographer: false });
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const base = slugify(plainText(state.tokens[i + 1]));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      token.attrSet('id', count === 0 ? base : `${base}-${count}`);
    });
  });
  return md;
}

/**
 * Where a link written in `docs/<name>.md` leads from the page `docs/<name>/`: another guide
 * (`cli.md#x` → `../cli/#x`), a picture (`images/a.png` → `../images/a.png`), the README (→
 * the docs page), an anchor or an absolute address as written; `null` for a file of the
 * repository that the site does not publish (its text stays, without a link). Pure.
 */
export function guideHref(href: string, names: ReadonlySet<string>): string | null {
  if (href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/iu.test(href)) return href;
  const [path = '', anchor] = href.split('#', 2);
  const suffix = anchor === undefined ? '' : `#${anchor}`;
  const guide = /^(?:\.\/)?([a-z0-9-]+)\.md$/u.exec(path);
  if (guide !== null && names.has(guide[1] as string)) return `../${guide[1]}/${suffix}`;
  if (/^(?:\.\/)?images\/[^/]+$/u.test(path)) return `../${path.replace(/^\.\//u, '')}`;
  if (path === '../README.md') return `../${suffix}`;
  return null;
}

/** The HTML of a guide's Markdown, links rewritten by {@link guideHref}. Pure. */
export function renderGuideHtml(guide: Guide, names: ReadonlySet<string>): string {
  const md = markdownIt();
  const tokens = md.parse(guide.markdown, {});
  for (const token of tokens) {
    for (const child of token.children ?? []) {
      const attr = child.type === 'link_open' ? 'href' : child.type === 'image' ? 'src' : null;
      if (attr === null) continue;
      const target = guideHref(String(child.attrGet(attr) ?? ''), names);
      if (target !== null) child.attrSet(attr, target);
      else if (child.type === 'link_open') Object.assign(child, { type: 'unlinked_open', tag: '' });
    }
  }
  md.renderer.rules['unlinked_open'] = () => '';
  md.renderer.rules['link_close'] = (list, i) => (isUnlinked(list, i) ? '' : '</a>');
  // Wide tables and code scroll inside regions that the keyboard can reach (WCAG 2.1.1), as
  // the other pages' do; each table region gets a name of its own (landmarks must differ).
  let tables = 0;
  md.renderer.rules['table_open'] = () => `<div class="table-wrap" tabindex="0" role="region" aria-label="Table ${(tables += 1)}"><table>\n`;
  md.renderer.rules['table_close'] = () => '</table></div>\n';
  const fence = md.renderer.rules['fence'];
  const codeBlock = md.renderer.rules['code_block'];
  md.renderer.rules['fence'] = (...args) => (fence?.(...args) ?? '').replace(/^<pre>/u, '<pre tabindex="0">');
  md.renderer.rules['code_block'] = (...args) => (codeBlock?.(...args) ?? '').replace(/^<pre>/u, '<pre tabindex="0">');
  return md.renderer.render(tokens, md.options, {});
}

/** True when the `link_close` at `i` closes a link that {@link renderGuideHtml} unlinked. */
function isUnlinked(tokens: Token[], i: number): boolean {
  let depth = 0;
  for (let j = i - 1; j >= 0; j -= 1) {
    const t = tokens[j] as Token;
    if (t.type === 'link_close') depth += 1;
    else if (t.type === 'link_open' || t.type === 'unlinked_open') {
      if (depth === 0) return t.type === 'unlinked_open';
      depth -= 1;
    }
  }
  return false;
}

/** The page `docs/<name>/` of `guide`, with every guide in its navigation. Pure. */
export function renderGuidePage(base: string, guide: Guide, guides: readonly Guide[]): string {
  const names = new Set(guides.map((g) => g.name));
  const nav = guides
    .map((g) => `<li><a href="../${g.name}/"${g.name === guide.name ? ' aria-current="page"' : ''}>${escapeHtml(g.title)}</a></li>`)
    .join('');
  return renderPage({
    title: `${guide.title} · Loadout Catalogue`,
    description: guide.lead,
    base,
    path: `docs/${guide.name}/`,
    current: 'docs',
    body: `<nav aria-label="Guides" class="toc"><ul><li><a href="../">Docs</a></li>${nav}</ul></nav>\n<article class="guide">\n${renderGuideHtml(guide, names)}</article>`,
  });
}

/** The list of guides on the docs page (`docs/`), each with its lead. Pure. */
export function renderGuideList(guides: readonly Guide[]): string {
  if (guides.length === 0) return '';
  const items = guides.map((g) => `<li><a href="${g.name}/">${escapeHtml(g.title)}</a>: ${escapeHtml(g.lead)}</li>`).join('\n');
  return `<h2 id="guides">Guides</h2>\n<ul class="guides">\n${items}\n</ul>`;
}
