/**
 * The frame every page shares: document head, skip link, header with navigation, main
 * landmark and footer. Links inside the site are relative to the page (`root` is `''`,
 * `'../'` or `'../../'`), so a built tree works from any host and any path prefix (a mirror, a
 * folder, object storage); only the canonical address and the feed use `{base_url}`.
 */
import { STYLESHEET_PATH } from './style.js';
import { escapeHtml } from './html.js';

/** Where the Atom feed and the sitemap go, relative to the tree. */
export const FEED_PATH = 'feed.atom';
export const SITEMAP_PATH = 'sitemap.xml';

/** Display names of the agents (vendors' own spelling): the vocabulary's. */
export { AGENT_NAMES } from '../catalogue/vocabulary.js';

/** The site icon, inline (the pages' CSP allows `data:` images): a stacked-layers mark, so browsers ask for no favicon.ico. */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect x='1' y='9' width='14' height='5' rx='1' fill='%230b57d0'/%3E%3Crect x='3' y='2' width='10' height='5' rx='1' fill='%2357606a'/%3E%3C/svg%3E";

/** What {@link renderPage} needs. */
export interface PageOptions {
  /** The document title (escaped here). */
  title: string;
  /** `<meta name="description">` (escaped here). */
  description: string;
  /** `{base_url}`, no trailing slash. */
  base: string;
  /** This page's path in the tree, e.g. `''`, `'docs/'`, `'loadouts/<id>/'`; gives the canonical address and `root`. */
  path: string;
  /** Which navigation entry is current. */
  current?: 'home' | 'docs' | 'submit';
  /** Scripts to load (paths relative to the tree), in order, deferred. */
  scripts?: string[];
  /** The content of `<main>`: HTML already escaped by the caller. */
  body: string;
}

/** The relative path from the page at `path` (`'loadouts/x/'`) back to the tree's root (`'../../'`). Pure. */
export function rootOf(path: string): string {
  return '../'.repeat(path.split('/').length - 1);
}

/** A whole HTML document. Pure. */
export function renderPage(options: PageOptions): string {
  const root = rootOf(options.path);
  const here = (name: 'home' | 'docs' | 'submit'): string => (options.current === name ? ' aria-current="page"' : '');
  const scripts = (options.scripts ?? []).map((src) => `<script src="${escapeHtml(root + src)}" defer></script>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>
<meta name="description" content="${escapeHtml(options.description)}">
<link rel="canonical" href="${escapeHtml(`${options.base}/${options.path}`)}">
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${escapeHtml(root + STYLESHEET_PATH)}">
<link rel="alternate" type="application/atom+xml" title="New and updated loadouts" href="${escapeHtml(root + FEED_PATH)}">
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="bar">
<a class="brand" href="${escapeHtml(root || './')}">Loadout Catalogue</a>
<nav aria-label="Site"><ul>
<li><a href="${escapeHtml(root || './')}"${here('home')}>Loadouts</a></li>
<li><a href="${escapeHtml(root)}docs/"${here('docs')}>Docs</a></li>
<li><a href="${escapeHtml(root)}submit/"${here('submit')}>Submit a loadout</a></li>
<li><a href="${escapeHtml(root)}api/v1/index.json">API</a></li>
</ul></nav>
</div></header>
<main id="main">
${options.body}
</main>
<footer class="site">
<p>Loadouts are checked by ten automated checks on their files; no AI agent is run. <a href="${escapeHtml(root + FEED_PATH)}">Atom feed</a> · <a href="${escapeHtml(root + SITEMAP_PATH)}">Sitemap</a> · <a href="${escapeHtml(root)}api/loadouts.json">JSON</a></p>
</footer>
</body>
</html>
`;
}
