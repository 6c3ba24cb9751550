/**
 * The pages of bundles (issue 56, point 2; docs/http-api.md, "The pages"): `bundles/<id>/`, what a
 * bundle brings (each loadout with its range, the version that range resolves to and what it
 * costs), the combined context cost per agent and the combined capability list, how to install
 * it, and its versions; and `bundles/`, the list of bundles. Every value from a bundle or a
 * loadout is escaped; addresses from them are links only when they are http(s).
 */
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import type { BundleRecord } from '../tree-format/bundle.js';
import { escapeHtml, linkOrText, plural, paragraphsHtml } from './html.js';
import { AGENT_NAMES, renderPage, rootOf } from './layout.js';
import { copyButton, formatContext } from './loadout-install.js';
import { LOADOUT_SCRIPT_PATH } from './scripts/loadout.js';

/** Where the catalogue's Claude Code marketplace is, for the bundle's install commands. */
export interface BundleMarketplaceView {
  /** `{base_url}/plugins/claude-marketplace.json`. */
  url: string;
}


/** A command with its copy button (the loadout page's script copies the `<pre>` of the id). */
function command(id: string, text: string, label: string): string {
  return `<div class="command"><pre id="${escapeHtml(id)}" tabindex="0"><code>${escapeHtml(text)}</code></pre>${copyButton(id, label)}</div>`;
}

function members(r: BundleRecord, root: string): string {
  const rows = r.loadouts
    .map((m) => {
      const outside = m.latest === m.resolved ? '' : ` <span class="small muted">(latest ${escapeHtml(m.latest)} is outside the range)</span>`;
      const agents = m.agents === null ? 'every agent' : m.agents.map((a) => AGENT_NAMES[a]).join(', ');
      const starts = Math.max(...PUBLISHED_AGENTS.map((a) => m.context[a].always.tokens));
      return `<tr><th scope="row"><a href="${escapeHtml(`${root}loadouts/${m.id}/`)}">${escapeHtml(m.title)}</a><br><code class="small">${escapeHtml(m.id)}</code></th><td data-label="Versions"><code>${escapeHtml(m.range)}</code></td><td data-label="Resolves to">${escapeHtml(m.resolved)}${outside}</td><td data-label="For">${escapeHtml(agents)}</td><td data-label="Context at start">up to ~${starts.toLocaleString('en')} tokens</td><td data-label="Runs">${m.capabilities.runs === 'nothing' ? 'nothing' : 'something: see below'}</td></tr>`;
    })
    .join('\n');
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Loadouts of the bundle"><table class="stack" id="bundle-loadouts">
<thead><tr><th scope="col">Loadout</th><th scope="col">Versions</th><th scope="col">Resolves to</th><th scope="col">For</th><th scope="col">Context at start</th><th scope="col">Runs</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function contextTable(r: BundleRecord): string {
  const rows = PUBLISHED_AGENTS.map((a) => `<tr><th scope="row">${escapeHtml(AGENT_NAMES[a])}</th><td data-label="At every session start">${escapeHtml(formatContext(r.context[a].always))}</td><td data-label="On demand">${escapeHtml(formatContext(r.context[a].on_demand))}</td></tr>`).join('');
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Combined context cost"><table class="stack" id="bundle-context">
<thead><tr><th scope="col">Agent</th><th scope="col">At every session start</th><th scope="col">On demand</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function capabilities(r: BundleRecord): string {
  const sections = describeCapabilities(r.capabilities)
    .map((s) => `<h3>${escapeHtml(s.title)}</h3>\n<ul>${s.lines.map((l) => `<li>${escapeHtml(l.text)}${l.consent === null ? '' : ` <span class="badge note">asks your consent: ${escapeHtml(l.consent)}</span>`}</li>`).join('')}</ul>`)
    .join('\n');
  return `<p id="bundle-runs">Its loadouts together: ${escapeHtml(summarizeCapabilities(r.capabilities))}.</p>\n${sections}`;
}

function install(r: BundleRecord, marketplace: BundleMarketplaceView | undefined, root: string): string {
  const perLoadout = `<p>Or install each loadout from its page, at the version above: ${r.loadouts.map((m) => `<a href="${escapeHtml(`${root}loadouts/${m.id}/`)}">${escapeHtml(m.id)}</a>`).join(', ')}.</p>`;
  if (r.plugin === null || marketplace === undefined) return perLoadout;
  const claude = r.loadouts.filter((m) => m.agents === null || m.agents.includes('claude-code')).map((m) => m.id);
  return `<p>In Claude Code (2.1.110 or later), the bundle's plugin installs the plugin of each of its loadouts for Claude Code (${escapeHtml(claude.join(', ') || 'none')}) through its <code>dependencies</code>:</p>
${command('bundle-marketplace', `claude plugin marketplace add ${marketplace.url}`, 'Copy the command that adds the marketplace')}
${command('bundle-install', r.plugin.install, 'Copy the command that installs the bundle')}
<p class="small">The other agents' plugin managers install no dependencies: the plugin's README lists the command for each loadout.</p>
${perLoadout}`;
}

function versions(r: BundleRecord): string {
  const rows = [...r.versions]
    .reverse()
    .map((v) => `<tr><th scope="row">${escapeHtml(v.version)}${v.latest ? ' <span class="badge ok">latest</span>' : ''}</th><td data-label="Date">${escapeHtml(v.date ?? 'not committed')}</td><td data-label="Commit"><code>${escapeHtml((v.commit ?? '').slice(0, 12))}</code></td><td data-label="Loadouts">${v.loadouts.map((m) => `${escapeHtml(m.id)} <code>${escapeHtml(m.range)}</code>`).join(', ')}</td></tr>`)
    .join('\n');
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Versions"><table class="stack">
<thead><tr><th scope="col">Version</th><th scope="col">Date</th><th scope="col">Commit</th><th scope="col">Loadouts</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The page of bundle `r`, `bundles/<id>/`; `marketplace` when the build wrote plugins. Pure. */
export function renderBundlePage(base: string, r: BundleRecord, marketplace?: BundleMarketplaceView): string {
  const path = `bundles/${r.id}/`;
  const root = rootOf(path);
  const author = r.author.url !== undefined ? linkOrText(r.author.url, r.author.name) : r.author.github !== undefined ? linkOrText(`https://github.com/${r.author.github}`, r.author.name) : escapeHtml(r.author.name);
  const body = `<nav aria-label="Breadcrumb" class="small"><a href="${escapeHtml(root)}">Loadouts</a> › <a href="${escapeHtml(`${root}bundles/`)}">Bundles</a> › ${escapeHtml(r.title)}</nav>
<h1>${escapeHtml(r.title)}</h1>
<p class="marks"><span class="badge">Bundle of ${plural(r.loadouts.length, 'loadout')}</span></p>
<p class="lead">${escapeHtml(r.summary)}</p>
<ul class="meta">
<li>Version ${escapeHtml(r.version)}</li><li>${escapeHtml(r.license)}</li><li>by ${author}</li>${r.updated === null ? '' : `<li>updated ${escapeHtml(r.updated)}</li>`}
<li><a href="${escapeHtml(`${root}api/bundles/${r.id}.json`)}">JSON record</a></li>
</ul>
<nav aria-label="On this page" class="toc small"><ul><li><a href="#brings">What it brings</a></li><li><a href="#install">Install</a></li><li><a href="#context">Context cost</a></li><li><a href="#capabilities">What it can run</a></li><li><a href="#versions">Versions</a></li></ul></nav>
<h2 id="brings">What it brings</h2>
${members(r, root)}
${paragraphsHtml(r.description)}
<h2 id="install">Install</h2>
${install(r, marketplace, root)}
<h2 id="context">Context cost</h2>
<p class="small">The loadouts' costs added up, each counted for the agents it is for.</p>
${contextTable(r)}
<h2 id="capabilities">What it can run</h2>
${capabilities(r)}
<h2 id="versions">Versions</h2>
${versions(r)}
<p id="copy-status" class="vh" role="status" aria-live="polite"></p>`;
  return renderPage({ title: `${r.title} · Bundles · Loadout Catalogue`, description: r.summary, base, path, scripts: [LOADOUT_SCRIPT_PATH], body });
}

/** The list of bundles, `bundles/`: each with its summary and loadouts. Pure. */
export function renderBundleListPage(base: string, records: readonly BundleRecord[]): string {
  const path = 'bundles/';
  const root = rootOf(path);
  const items = records
    .map((r) => `<li class="card"><h2><a href="${escapeHtml(`${r.id}/`)}">${escapeHtml(r.title)}</a></h2>
<p class="marks"><span class="small muted">v${escapeHtml(r.version)}</span></p>
<p>${escapeHtml(r.summary)}</p>
<p class="small">${r.loadouts.map((m) => `<a href="${escapeHtml(`${root}loadouts/${m.id}/`)}">${escapeHtml(m.id)}</a> <code>${escapeHtml(m.range)}</code>`).join(' · ')}</p></li>`)
    .join('\n');
  const body = `<nav aria-label="Breadcrumb" class="small"><a href="${escapeHtml(root)}">Loadouts</a> › Bundles</nav>
<h1>Bundles</h1>
<p class="lead">Sets of loadouts that go together, each at a range of versions, installed as one.</p>
${records.length === 0 ? '<p>No bundles yet.</p>' : `<ul class="cards" id="bundles">\n${items}\n</ul>`}
<p class="small"><a href="${escapeHtml(`${root}api/bundles.json`)}">api/bundles.json</a>: every bundle as JSON.</p>`;
  return renderPage({ title: 'Bundles · Loadout Catalogue', description: 'Sets of loadouts that go together, installed as one.', base, path, body });
}
