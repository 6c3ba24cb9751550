/**
 * The section of a loadout's page that lists the bundles it is in (issue 56, point 2: "each
 * loadout's page lists the bundles it is in"), each with the range of versions it accepts.
 * Its own file, so that the loadout page (loadout.ts) only places it. Pure; every value escaped.
 */
import type { BundleMention } from '../tree-format/bundle.js';
import { escapeHtml } from './html.js';

/** The section for `bundles` (the bundles that name the loadout, in id order); '' when there are none. `root` leads back to the tree's root. */
export function renderLoadoutBundles(bundles: readonly BundleMention[], root: string): string {
  if (bundles.length === 0) return '';
  const items = bundles.map((b) => `<li><a href="${escapeHtml(`${root}bundles/${b.id}/`)}">${escapeHtml(b.title)}</a> <span class="small muted">(<code>${escapeHtml(b.id)}</code>, versions <code>${escapeHtml(b.range)}</code>)</span></li>`).join('');
  return `<h2 id="bundles">In bundles</h2>
<p class="small">Bundles install this loadout with others, at the versions they accept.</p>
<ul id="loadout-bundles">${items}</ul>`;
}
