/**
 * What the build writes for the pages besides each loadout's own page (which
 * `tree/render/loadout-output.ts` writes with its other outputs): the stylesheet and the page
 * scripts, the challenge widget's files copied from the installed `altcha` package (served
 * from the catalogue's own origin, never a CDN), the home and docs pages, `sitemap.xml` and
 * the Atom feed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OutputTree, TreeData } from '../tree/write/tree-files.js';
import { renderDocsPage } from './docs.js';
import { renderSubmitPage, SUBMIT_PAGE_PATH } from './submit-page.js';
import { renderGuidePage, type Guide, type GuideImage } from './guides.js';
import { renderAtomFeed, renderSitemap, type FeedRecord } from './feeds.js';
import { homePagePieces, type HomeRecord } from './home.js';
import { FEED_PATH, SITEMAP_PATH } from './layout.js';
import { HOME_SCRIPT, HOME_SCRIPT_PATH } from './scripts/home.js';
import { LOADOUT_SCRIPT, LOADOUT_SCRIPT_PATH } from './scripts/loadout.js';
import { SUBMIT_SCRIPT, SUBMIT_SCRIPT_PATH } from './scripts/submit.js';
import { ALTCHA_ASSETS, SUBMIT_CHALLENGE_SCRIPT, SUBMIT_CHALLENGE_SCRIPT_PATH } from './scripts/submit-challenge.js';
import { SUBMIT_FILES_SCRIPT, SUBMIT_FILES_SCRIPT_PATH } from './scripts/submit-files.js';
import { STYLESHEET, STYLESHEET_PATH } from './style.js';

/** The fields of a record the catalogue-wide pages read (records come without file contents). */
export type CataloguePageRecord = HomeRecord & FeedRecord;

let altchaDist: string | undefined;

/** `node_modules/altcha/dist` of the installed widget. */
function altchaDistDir(): string {
  // The package's `exports` hide package.json; resolve its CommonJS entry (dist/main/…) and step up.
  altchaDist ??= join(dirname(createRequire(import.meta.url).resolve('altcha')), '..');
  return altchaDist;
}

/**
 * Writes the shared assets, the home, docs and submission pages, the guides' pages and pictures
 * (guides.ts: `docs/<name>/`, `docs/images/…`), the sitemap and the feed into `tree`.
 * `writeListed` writes the three made from `records` alone (the home page, the sitemap, the feed),
 * by default as `tree.write` does; a rebuild's writer may link them from the live tree instead when
 * no record changed (tree/render/previous-documents.ts).
 * @throws LoadoutError `internal` from the tree on a bad path; the file system's error when
 *   the `altcha` package is not installed.
 */
export async function writeCataloguePages(
  tree: OutputTree,
  base: string,
  records: readonly CataloguePageRecord[],
  docs: { guides: readonly Guide[]; images: readonly GuideImage[] } = { guides: [], images: [] },
  writeListed: (path: string, data: TreeData) => Promise<void> = (path, data) => tree.write(path, data),
): Promise<void> {
  const scripts: [string, string][] = [
    [STYLESHEET_PATH, STYLESHEET],
    [HOME_SCRIPT_PATH, HOME_SCRIPT],
    [LOADOUT_SCRIPT_PATH, LOADOUT_SCRIPT],
    [SUBMIT_FILES_SCRIPT_PATH, SUBMIT_FILES_SCRIPT],
    [SUBMIT_CHALLENGE_SCRIPT_PATH, SUBMIT_CHALLENGE_SCRIPT],
    [SUBMIT_SCRIPT_PATH, SUBMIT_SCRIPT],
  ];
  for (const [path, text] of scripts) await tree.write(path, text);
  for (const asset of ALTCHA_ASSETS) await tree.write(asset.path, readFileSync(join(altchaDistDir(), asset.from)));
  await writeListed('index.html', () => homePagePieces(base, records));
  await tree.write('docs/index.html', renderDocsPage(base, docs.guides));
  await tree.write(`${SUBMIT_PAGE_PATH}index.html`, renderSubmitPage(base));
  for (const guide of docs.guides) await tree.write(`docs/${guide.name}/index.html`, renderGuidePage(base, guide, docs.guides));
  for (const image of docs.images) await tree.write(image.path, image.bytes);
  await writeListed(SITEMAP_PATH, () => renderSitemap(base, records));
  await writeListed(FEED_PATH, () => renderAtomFeed(base, records));
}
