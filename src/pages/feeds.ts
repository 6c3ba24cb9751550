/**
 * `sitemap.xml` (sitemaps.org protocol 0.9: `<urlset>` of `<url><loc>`, `<lastmod>` as a W3C
 * date) and `feed.atom`, an Atom feed (RFC 4287) of new and updated loadouts: one entry per
 * loadout, the most recently updated first, at most {@link FEED_ENTRIES}; an entry's
 * `updated` is the loadout's `updated` date, so feed readers show a changed loadout again.
 * Absolute addresses from `{base_url}`; every value escaped for XML. Pure.
 */
import type { PublishedRecord } from '../tree-format/index.js';
import { escapeXml } from './html.js';
import { FEED_PATH } from './layout.js';

/** Most entries in the feed. */
export const FEED_ENTRIES = 50;

/** The fields of a record the feed and sitemap read. */
export type FeedRecord = Pick<PublishedRecord, 'id' | 'title' | 'summary' | 'version' | 'categories' | 'stacks' | 'updated' | 'published' | 'author' | 'url'>;

/** `YYYY-MM-DD` → RFC 3339 midnight UTC; undefined stays undefined. */
const timeOf = (date: string | undefined): string | undefined => (date === undefined || !/^\d{4}-\d{2}-\d{2}$/u.test(date) ? undefined : `${date}T00:00:00Z`);

/** The sitemap: home, docs, the submission page and every loadout page. */
export function renderSitemap(base: string, records: readonly FeedRecord[]): string {
  const url = (loc: string, lastmod?: string): string => `<url><loc>${escapeXml(loc)}</loc>${lastmod === undefined || timeOf(lastmod) === undefined ? '' : `<lastmod>${escapeXml(lastmod)}</lastmod>`}</url>`;
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${[url(`${base}/`), url(`${base}/docs/`), url(`${base}/submit/`), ...sorted.map((r) => url(r.url, r.updated))].join('\n')}
</urlset>
`;
}

/**
 * The Atom feed. Its `updated` is the newest entry's; with no dated loadout, the Unix epoch
 * (the build's output depends on its inputs only).
 */
export function renderAtomFeed(base: string, records: readonly FeedRecord[]): string {
  const dated = [...records].sort((a, b) => {
    const au = a.updated ?? '';
    const bu = b.updated ?? '';
    return au !== bu ? (au < bu ? 1 : -1) : a.id < b.id ? -1 : 1;
  });
  const entries = dated.slice(0, FEED_ENTRIES);
  const feedUpdated = timeOf(entries.find((r) => r.updated !== undefined)?.updated) ?? '1970-01-01T00:00:00Z';
  const entry = (r: FeedRecord): string => {
    const updated = timeOf(r.updated) ?? feedUpdated;
    const published = timeOf(r.published);
    return `<entry>
<id>${escapeXml(r.url)}</id>
<title>${escapeXml(`${r.title} ${r.version}`)}</title>
<link rel="alternate" type="text/html" href="${escapeXml(r.url)}"/>
<updated>${updated}</updated>${published === undefined ? '' : `\n<published>${published}</published>`}
<author><name>${escapeXml(r.author.name)}</name></author>
<summary>${escapeXml(r.summary)}</summary>
${[...r.categories, ...r.stacks].map((t) => `<category term="${escapeXml(t)}"/>`).join('')}
</entry>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${escapeXml(`${base}/`)}</id>
<title>Loadout Catalogue: new and updated loadouts</title>
<link rel="self" type="application/atom+xml" href="${escapeXml(`${base}/${FEED_PATH}`)}"/>
<link rel="alternate" type="text/html" href="${escapeXml(`${base}/`)}"/>
<updated>${feedUpdated}</updated>
<generator>loadout build</generator>
${entries.map(entry).join('\n')}
</feed>
`;
}
