/**
 * The home page (docs/http-api.md, "The pages"): every loadout as a card (title, summary, the
 * agents it supports, its verification badge, counts of rules, skills and MCP servers, featured and
 * deprecated marks), in the order of the search API's empty query (featured, then newest update,
 * then id). Without JavaScript the full list shows; with it, `assets/home.js` shows the filter bar
 * (agent, category, stack, verified, has, runs) and search as you type, kept in the URL with the search
 * API's own parameter names (`q`, `agent`, `category`, `tags`, `verified`, `has`, `runs`), so a filtered
 * view can be shared and maps onto `GET /api/v1/search`.
 */
import { CATEGORIES, HAS_VALUES, PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import type { PublishedRecord } from '../tree-format/index.js';
import type { CapabilitySummary } from '../tree-format/capabilities.js';
import { rowHas } from '../search/document.js';
import { escapeHtml, plural } from './html.js';
import { AGENT_NAMES, renderPage } from './layout.js';
import { HOME_SCRIPT_PATH } from './scripts/home.js';
import { verificationBadge } from './verification.js';

/** The fields of a record the home page reads (the build passes records without file contents). */
export type HomeRecord = Pick<PublishedRecord, 'id' | 'title' | 'summary' | 'version' | 'categories' | 'stacks' | 'compatibility' | 'counts' | 'featured' | 'deprecated' | 'updated'> & {
  verification: Pick<PublishedRecord['verification'], 'verified'>;
  /** What its capability list runs and how many hooks and scripts it brings (the search row's), for the `has` and `runs` filters. */
  capabilities: CapabilitySummary;
};

/** Order of the search API without a query: featured first, then updated (newest first, undated last), then id. Pure. */
export function listingOrder(a: HomeRecord, b: HomeRecord): number {
  if (a.featured !== b.featured) return a.featured ? -1 : 1;
  const au = a.updated ?? null;
  const bu = b.updated ?? null;
  if (au !== bu) {
    if (au === null) return 1;
    if (bu === null) return -1;
    return au < bu ? 1 : -1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The agents a loadout supports: every agent whose compatibility is not `unsupported`. */
export function supportedAgents(r: Pick<HomeRecord, 'compatibility'>): Agent[] {
  return PUBLISHED_AGENTS.filter((a) => r.compatibility[a] !== 'unsupported');
}

const HAS_LABELS: Record<(typeof HAS_VALUES)[number], string> = { skills: 'Skills', mcp: 'MCP servers', rules: 'Rules', hooks: 'Hooks', scripts: 'Scripts' };

/**
 * Appends one loadout's card (`<li>`: title, marks, summary, the agents it supports, its counts
 * and tags, and the `data-` attributes the filters read) to `out` as pieces, joined once per
 * card (a tree of concatenations per card cost the page's garbage collection more than its text;
 * the page is rendered on every rebuild, DESIGN.md section 7).
 */
function pushCard(out: string[], r: HomeRecord): void {
  const agents = supportedAgents(r);
  const verified = r.verification.verified;
  // <li class="card[ deprecated]" data-id data-agents data-categories data-stacks data-verified data-has data-runs>
  out.push(r.deprecated ? '<li class="card deprecated" data-id="' : '<li class="card" data-id="', escapeHtml(r.id));
  out.push('" data-agents="', escapeHtml(agents.join(' ')), '" data-categories="', escapeHtml(r.categories.join(' ')), '" data-stacks="', escapeHtml(r.stacks.join(' ')));
  out.push(verified ? '" data-verified="true" data-has="' : '" data-verified="false" data-has="', escapeHtml(HAS_VALUES.filter((h) => rowHas(r, h)).join(' ')), '" data-runs="', escapeHtml(r.capabilities.runs), '">\n');
  out.push('<h2><a href="loadouts/', escapeHtml(r.id), '/">', escapeHtml(r.title), '</a></h2>\n');
  // The marks: verification, featured, deprecated, version.
  out.push('<p class="marks">', verificationBadge(verified));
  if (r.featured) out.push(' <span class="badge star">★ Featured</span>');
  if (r.deprecated) out.push(' <span class="badge bad">Deprecated</span>');
  out.push(' <span class="small muted">v', escapeHtml(r.version), '</span></p>\n');
  out.push('<p>', escapeHtml(r.summary), '</p>\n');
  const agentText = agents.length === PUBLISHED_AGENTS.length ? 'All six agents' : agents.map((a) => AGENT_NAMES[a]).join(', ') || 'No agent';
  out.push('<p class="agents"><span class="vh">Agents: </span>', escapeHtml(agentText), '</p>\n');
  out.push('<p class="counts">', plural(r.counts.rules, 'rule'), ' · ', plural(r.counts.skills, 'skill'), ' · ', plural(r.counts.mcp, 'MCP server'), r.capabilities.runs === 'nothing' ? ' · runs nothing' : '', '</p>\n');
  out.push('<p>');
  for (const t of r.categories) out.push('<span class="tag">', escapeHtml(t), '</span>');
  for (const t of r.stacks) out.push('<span class="tag">', escapeHtml(t), '</span>');
  out.push('</p>\n</li>');
}

const option = (value: string, label: string): string => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`;

/** Stands for the cards in the page's layout: a NUL, which no text of the page holds (HTML text never has one). */
const CARDS = '\u0000cards\u0000';

/**
 * The home page for `records` (any order; sorted here) a card at a time (tree-files.ts `ContentPieces`): 7 MB at
 * 10,000 loadouts, never made as one string. Pure.
 */
export function* homePagePieces(base: string, records: readonly HomeRecord[]): Generator<string, void, undefined> {
  const sorted = [...records].sort(listingOrder);
  const stackCounts = new Map<string, number>();
  const used = new Set<string>();
  for (const r of records) {
    for (const s of r.stacks) stackCounts.set(s, (stackCounts.get(s) ?? 0) + 1);
    for (const c of r.categories) used.add(c);
  }
  const stacks = [...stackCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const categories = CATEGORIES.filter((c) => used.has(c));
  const filters = `<form class="filters" id="filters" role="search" aria-label="Find a loadout" hidden>
<div class="search"><label for="q">Search loadouts</label><input id="q" name="q" type="search" autocomplete="off" maxlength="200" placeholder="e.g. nextjs, fastapi tests, godot" aria-describedby="results-status"></div>
<div><label for="f-agent">Agent</label><select id="f-agent" name="agent">${option('', 'Any agent')}${PUBLISHED_AGENTS.map((a) => option(a, AGENT_NAMES[a])).join('')}</select></div>
<div><label for="f-category">Category</label><select id="f-category" name="category">${option('', 'Any category')}${categories.map((c) => option(c, c)).join('')}</select></div>
<div><label for="f-tags">Stack</label><select id="f-tags" name="tags">${option('', 'Any stack')}${stacks.map(([s, n]) => option(s, `${s} (${n})`)).join('')}</select></div>
<div><label for="f-verified">Checks</label><select id="f-verified" name="verified">${option('', 'Any')}${option('true', 'Verified only')}${option('false', 'Failed checks')}</select></div>
<div><label for="f-has">Has</label><select id="f-has" name="has">${option('', 'Anything')}${HAS_VALUES.map((h) => option(h, HAS_LABELS[h])).join('')}</select></div>
<div><label for="f-runs">Runs</label><select id="f-runs" name="runs">${option('', 'Anything')}${option('nothing', 'Nothing: no server, hook, script or grant')}${option('something', 'Something')}</select></div>
<div><button type="button" id="clear">Clear filters</button></div>
</form>`;
  const body = `<h1>Loadout Catalogue</h1>
<p class="lead">Versioned bundles of instructions, rules, skills and MCP configuration for coding agents: find one for your stack and agent, see what it installs and whether it passed its checks, and install it.</p>
${filters}
<p id="results-status" class="muted" role="status" aria-live="polite">${plural(records.length, 'loadout')}</p>
<ul class="cards" id="loadouts">
${CARDS}
</ul>
<p id="no-results" hidden>No loadout matches. Try fewer filters or other words.</p>
<p id="suggestions" hidden>Did you mean <span id="suggestion-list"></span>?</p>`;
  const page = renderPage({
    title: 'Loadout Catalogue',
    description: 'Find a loadout (instructions, rules, skills and MCP configuration) for your coding agent and stack, and install it.',
    base,
    path: '',
    current: 'home',
    scripts: [HOME_SCRIPT_PATH],
    body,
  });
  const at = page.indexOf(CARDS);
  yield page.slice(0, at);
  const card: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    card.length = 0;
    if (i > 0) card.push('\n');
    pushCard(card, sorted[i] as HomeRecord);
    yield card.join('');
  }
  yield page.slice(at + CARDS.length);
}
