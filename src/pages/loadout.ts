/**
 * The page of one loadout, `loadouts/<id>/` (docs/http-api.md, "The pages"): what it is and whether
 * it passed its checks, what it can run (its capability list, the first panel under the summary:
 * capabilities.ts), the install box per agent, the compatibility matrix, requirements, every
 * file's content inline as escaped text with a copy button, the version history from
 * `versions.json` with what each version added to what it can run, and the verification table with its notices. Every loadout value is
 * escaped; addresses from the loadout (author, credits) are links only when they are http(s).
 */
import type { CliRoute, PublishedRecord } from '../tree-format/index.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { escapeHtml, formatBytes, linkOrText, plural, paragraphsHtml } from './html.js';
import { AGENT_NAMES, renderPage, rootOf } from './layout.js';
import { copyButton, encodePath, formatContext, renderInstallBox, type ContextCostView, type PluginPageView } from './loadout-install.js';
import { LOADOUT_SCRIPT_PATH } from './scripts/loadout.js';
import { renderLoadoutBundles } from './loadout-bundles.js';
import type { BundleMention } from '../tree-format/bundle.js';
import { renderVerificationTable, verificationBadge } from './verification.js';
import { renderCapabilities, renderVersionChange } from './capabilities.js';
import type { Capabilities } from '../tree-format/capabilities.js';

/** The parts of one `versions.json` entry the page reads (`tree-format/versions.ts` VersionEntry). */
export interface VersionView {
  version: string;
  date: string | null;
  commit: string | null;
  latest: boolean;
  files: { path: string; bytes: number; sha256: string }[];
  checks: { pass: number; fail: number; skip: number; not_applicable: number };
  /** The changelog, where the versions document has it. */
  changes?: string[];
  /** Context cost per agent, where the versions document has it. */
  context?: Partial<Record<Agent, ContextCostView>>;
  /** What the version can run, where the versions document has it (`tree-format/capabilities.ts`). */
  capabilities?: Capabilities;
}

/** The parts of `api/loadouts/<id>/versions.json` the page reads. */
export interface VersionsView {
  latest: string;
  versions: VersionView[];
}


function compatibilityMatrix(r: PublishedRecord, latest: VersionView | undefined): string {
  const rows = PUBLISHED_AGENTS.map((a) => {
    const cost = latest?.context?.[a];
    return `<tr><th scope="row">${escapeHtml(AGENT_NAMES[a])}</th><td data-label="Compatibility">${escapeHtml(r.compatibility[a])}</td><td data-label="Tested">${escapeHtml(r.tested.per_agent[a])}</td><td data-label="Files">${r.install[a].files.length}</td><td data-label="Manual steps">${r.install[a].manual_steps.length}</td><td data-label="Context at start">${cost === undefined ? '—' : escapeHtml(formatContext(cost.always))}</td></tr>`;
  }).join('');
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Compatibility"><table class="stack">
<thead><tr><th scope="col">Agent</th><th scope="col">Compatibility</th><th scope="col">Tested</th><th scope="col">Files</th><th scope="col">Manual steps</th><th scope="col">Context at start</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function requirements(r: PublishedRecord): string {
  const list = (label: string, values: readonly string[]): string => `<li>${label}: ${values.length === 0 ? 'none' : values.map((v) => `<code>${escapeHtml(v)}</code>`).join(', ')}</li>`;
  const s = r.security;
  // "clean, by loadout verify (safety check)": the scanner's name may hold parentheses of its own.
  const verdict = s.verdict === undefined ? 'not scanned' : `${s.verdict}${s.scanner === undefined ? '' : `, by ${s.scanner}`}`;
  return `<ul>
${list('Tools', r.requires.tools)}
${list('Environment variables', r.requires.env)}
${list('MCP servers', r.requires.mcp)}
<li>Uses the network: ${s.network ? 'yes' : 'no'}</li>
${list('Scripts', s.scripts)}
<li>Security scan: ${escapeHtml(verdict)}</li>
${s.notes === undefined ? '' : `<li>Notes: ${escapeHtml(s.notes)}</li>`}
</ul>`;
}

function fileList(r: PublishedRecord, root: string): string {
  return r.files
    .map((f, i) => {
      const id = `content-${i}`;
      return `<details class="file" id="file-${i}"><summary><code>${escapeHtml(f.path)}</code> <span class="small muted">${escapeHtml(f.role)} · ${formatBytes(f.bytes)}</span><br><span class="small">${escapeHtml(f.description)}</span></summary>
<div><p class="tools">${copyButton(id, `Copy the content of ${f.path}`)}<a href="${escapeHtml(`${root}raw/${r.id}/latest/${encodePath(f.path)}`)}">Raw</a><span class="small muted">sha256 <code>${escapeHtml(f.sha256.slice(0, 16))}…</code></span></p>
<pre id="${id}" tabindex="0"><code>${escapeHtml(f.content)}</code></pre></div></details>`;
    })
    .join('\n');
}

function versionHistory(r: PublishedRecord, versions: VersionsView | undefined, root: string): string {
  if (versions === undefined || versions.versions.length === 0) return '<p>No version history.</p>';
  // Oldest first in the document: each version is compared with the one before it.
  const before = new Map(versions.versions.map((v, i) => [v, versions.versions[i - 1]]));
  const rows = [...versions.versions]
    .reverse()
    .map((v) => {
      const bytes = v.files.reduce((n, f) => n + f.bytes, 0);
      const changes = (v.changes ?? []).slice(0, 5).map((c) => `<li>${escapeHtml(c)}</li>`).join('');
      const agents = v.files.some((f) => f.path === 'AGENTS.md') ? ` · <a href="${escapeHtml(`${root}raw/${r.id}/${v.version}/AGENTS.md`)}">AGENTS.md</a>` : '';
      return `<tr><th scope="row">${escapeHtml(v.version)}${v.latest ? ' <span class="badge ok">latest</span>' : ''}</th><td data-label="Date">${escapeHtml(v.date ?? 'not committed')}</td><td data-label="Commit"><code>${escapeHtml((v.commit ?? '').slice(0, 12))}</code></td><td data-label="Files">${plural(v.files.length, 'file')}, ${formatBytes(bytes)}${agents}</td><td data-label="Checks">${v.checks.pass} pass, ${v.checks.fail} fail</td><td data-label="Changes">${changes === '' ? 'none recorded' : `<ul>${changes}</ul>`}</td><td data-label="What it can run">${renderVersionChange(before.get(v), v)}</td></tr>`;
    })
    .join('\n');
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Versions"><table class="stack">
<thead><tr><th scope="col">Version</th><th scope="col">Date</th><th scope="col">Commit</th><th scope="col">Files</th><th scope="col">Checks</th><th scope="col">Changes</th><th scope="col">What it can run</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="small"><a href="${escapeHtml(`${root}api/loadouts/${r.id}/versions.json`)}">versions.json</a>: every version with its file hashes.</p>`;
}

/**
 * The place where the page's script says that these versions are signed (with the key id
 * and the snapshot's date, read from the catalogue's signed snapshot: the page is written once
 * per loadout version, the snapshot every build; docs/signing.md). Hidden when the catalogue
 * is unsigned or the script does not run.
 */
function signingNote(r: PublishedRecord, root: string): string {
  return `<p id="signing" class="small" hidden data-description="${escapeHtml(`${root}api/v1/index.json`)}" data-snapshot="${escapeHtml(`${root}api/v1/snapshot.dsse.json`)}" data-document="${escapeHtml(`api/loadouts/${r.id}/versions.json`)}"></p>`;
}

/**
 * The loadout page of `r`, with the versions document when there is one; `route` says how the
 * install commands run the consumer CLI (loadout-install.ts; default: the catalogue's own), and
 * `plugins` what each agent's plugin manager installs of it, `bundles` the bundles it is in. Pure.
 */
export function renderLoadoutPage(base: string, r: PublishedRecord, versions?: VersionsView, route?: CliRoute, plugins?: PluginPageView, bundles: readonly BundleMention[] = []): string {
  const path = `loadouts/${r.id}/`;
  const root = rootOf(path);
  const latest = versions?.versions.find((v) => v.latest);
  const marks = [verificationBadge(r.verification.verified), r.featured ? '<span class="badge star">★ Featured</span>' : '', r.deprecated ? '<span class="badge bad">Deprecated</span>' : ''].filter((m) => m !== '').join(' ');
  const author = r.author.url !== undefined ? linkOrText(r.author.url, r.author.name) : r.author.github !== undefined ? linkOrText(`https://github.com/${r.author.github}`, r.author.name) : escapeHtml(r.author.name);
  const credits = r.credits.length === 0 ? '' : `<p class="small">Credits: ${r.credits.map((c) => linkOrText(c.url, c.title)).join(' · ')}</p>`;
  const body = `<nav aria-label="Breadcrumb" class="small"><a href="${escapeHtml(root)}">Loadouts</a> › ${escapeHtml(r.title)}</nav>
<h1>${escapeHtml(r.title)}</h1>
<p class="marks">${marks}</p>
<p class="lead">${escapeHtml(r.summary)}</p>
<ul class="meta">
<li>Version ${escapeHtml(r.version)}</li><li>${escapeHtml(r.license)}</li><li>by ${author}</li>${r.updated === undefined ? '' : `<li>updated ${escapeHtml(r.updated)}</li>`}
<li><a href="${escapeHtml(`${root}api/loadouts/${r.id}.json`)}">JSON record</a></li><li><a href="${escapeHtml(`${root}download/${r.id}/source.zip`)}">source.zip</a></li>
</ul>
<p>${[...r.categories, ...r.stacks].map((t) => `<span class="tag">${escapeHtml(t)}</span>`).join('')}</p>
<nav aria-label="On this page" class="toc small"><ul><li><a href="#capabilities">What it can run</a></li><li><a href="#install">Install</a></li><li><a href="#about">What it does</a></li><li><a href="#compatibility">Compatibility</a></li><li><a href="#files">Files</a></li><li><a href="#versions">Versions</a></li><li><a href="#verification">Verification</a></li></ul></nav>
<h2 id="capabilities">What it can run</h2>
${renderCapabilities(r.capabilities)}
<h2 id="install">Install</h2>
${renderInstallBox(r, base, root, latest?.context, route, plugins)}
<h2 id="about">What it does</h2>
${paragraphsHtml(r.description)}
<ul>${r.highlights.map((h) => `<li>${escapeHtml(h)}</li>`).join('')}</ul>
${credits}
${renderLoadoutBundles(bundles, root)}
<h2 id="compatibility">Compatibility</h2>
${compatibilityMatrix(r, latest)}
<h2 id="requirements">Requirements and security</h2>
${requirements(r)}
<h2 id="files">Files</h2>
<p class="small muted">${plural(r.files.length, 'file')}, ${formatBytes(r.files.reduce((n, f) => n + f.bytes, 0))}. Contents are shown as text.</p>
${fileList(r, root)}
<h2 id="versions">Versions</h2>
${versionHistory(r, versions, root)}
${signingNote(r, root)}
<h2 id="verification">Verification</h2>
${renderVerificationTable(r.verification)}
<p id="copy-status" class="vh" role="status" aria-live="polite"></p>`;
  return renderPage({ title: `${r.title} · Loadout Catalogue`, description: r.summary, base, path, scripts: [LOADOUT_SCRIPT_PATH], body });
}
