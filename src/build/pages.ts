/**
 * The HTML pages of the static tree: the home page (every loadout), one page per loadout
 * (`/loadouts/<id>/`) and the documentation (`/docs/`, with the `#submit` anchor the
 * description document points at). Plain server-rendered HTML; every interpolated value is
 * escaped, and file contents are shown as text only.
 */
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { PROBLEM_TITLES } from '../server/problem.js';
import { ENDPOINTS, SUBMISSION_FIELDS } from './description.js';
import type { PublishedRecord } from './record.js';
import { CLIENT_SCRIPT_PATH, MINISEARCH_SCRIPT_PATH } from '../search/client-script.js';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
a{color:#0b57d0}code,pre{font:14px ui-monospace,monospace}pre{background:#f4f5f7;padding:1rem;overflow:auto;white-space:pre-wrap}
.tag{display:inline-block;background:#eef;border-radius:4px;padding:0 .4rem;margin:0 .2rem .2rem 0;font-size:14px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
li{margin:.4rem 0}.pass{color:#137333}.fail{color:#b3261e}`;

function layout(title: string, body: string, base: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<nav><a href="${escapeHtml(base)}/">Loadout Catalogue</a> · <a href="${escapeHtml(base)}/docs/">Docs</a> · <a href="${escapeHtml(base)}/api/loadouts.json">API</a></nav>
${body}
</body>
</html>
`;
}

const tags = (values: readonly string[]): string => values.map((v) => `<span class="tag">${escapeHtml(v)}</span>`).join('');

/** The home page: every loadout with its summary, and client-side search (`src/search/client-script.ts`). */
export function renderIndexPage(base: string, records: readonly PublishedRecord[]): string {
  const items = records
    .map((r) => `<li><a href="${escapeHtml(r.url)}"><strong>${escapeHtml(r.title)}</strong></a> <small>${escapeHtml(r.version)}${r.featured ? ' · featured' : ''}${r.deprecated ? ' · deprecated' : ''}</small><br>${escapeHtml(r.summary)}<br>${tags([...r.categories, ...r.stacks])}</li>`)
    .join('\n');
  return layout(
    'Loadout Catalogue',
    `<h1>Loadout Catalogue</h1>
<p>Versioned bundles of instructions, rules, skills and MCP configuration for coding agents. ${records.length} loadouts.</p>
<form action="${escapeHtml(base)}/api/v1/search" method="get" role="search"><label>Search <input id="search" name="q" type="search" autocomplete="off"></label> <button>Search</button></form>
<p id="search-status" role="status" aria-live="polite"></p>
<ol id="search-results" hidden></ol>
<ul id="loadouts">
${items}
</ul>
<script src="${MINISEARCH_SCRIPT_PATH}" defer></script>
<script src="${CLIENT_SCRIPT_PATH}" defer></script>`,
    base,
  );
}

/** The page of one loadout: summary, install per agent, verification and files. */
export function renderLoadoutPage(base: string, r: PublishedRecord): string {
  const install = PUBLISHED_AGENTS.map((agent) => {
    const entry = r.install[agent];
    const files = entry.files.map((f) => `<li><code>${escapeHtml(f.target)}</code> ← <a href="${escapeHtml(f.raw_url)}">${escapeHtml(f.path)}</a></li>`).join('');
    const steps = entry.manual_steps.map((s) => `<li>${escapeHtml(s.path)}: <pre>${escapeHtml(s.text)}</pre></li>`).join('');
    return `<h3 id="install-${agent}">${escapeHtml(agent)} <small>(${escapeHtml(r.compatibility[agent])})</small></h3>
<p><code>loadout install ${escapeHtml(r.id)} --agent ${agent}</code> or <a href="${escapeHtml(entry.zip_url)}">download ${agent}.zip</a></p>
<ul>${files}</ul>${steps === '' ? '' : `<p>Manual steps:</p><ul>${steps}</ul>`}`;
  }).join('\n');
  const checks = r.verification.checks
    .map((c) => `<tr><td>${escapeHtml(c.id)}</td><td class="${c.status === 'fail' ? 'fail' : 'pass'}">${escapeHtml(c.status)}</td><td>${escapeHtml(c.summary)}</td></tr>`)
    .join('');
  const files = r.files
    .map((f) => `<details><summary><code>${escapeHtml(f.path)}</code> (${escapeHtml(f.role)}, ${f.bytes} bytes) — ${escapeHtml(f.description)}</summary><pre>${escapeHtml(f.content)}</pre></details>`)
    .join('\n');
  return layout(
    `${r.title} · Loadout Catalogue`,
    `<h1>${escapeHtml(r.title)}</h1>
<p>${escapeHtml(r.summary)}</p>
<p>${tags([...r.categories, ...r.stacks])}</p>
<p>Version ${escapeHtml(r.version)} · ${escapeHtml(r.license)} · by ${escapeHtml(r.author.name)}${r.updated === undefined ? '' : ` · updated ${escapeHtml(r.updated)}`} · <a href="${escapeHtml(r.api_url)}">JSON record</a> · <a href="${escapeHtml(r.source_zip_url)}">source.zip</a></p>
<p>${escapeHtml(r.description)}</p>
<ul>${r.highlights.map((h) => `<li>${escapeHtml(h)}</li>`).join('')}</ul>
<h2 id="verification">Verification: ${escapeHtml(r.verification.label)}</h2>
<p>${escapeHtml(r.verification.meaning)}</p>
<table><tr><th>Check</th><th>Status</th><th>Summary</th></tr>${checks}</table>
<h2 id="install">Install</h2>
${install}
<h2 id="files">Files</h2>
${files}`,
    base,
  );
}

/** The documentation page: API, submission fields (anchor `#submit`) and the CLI. */
export function renderDocsPage(base: string): string {
  const endpoints = Object.entries(ENDPOINTS).map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v)}</td></tr>`).join('');
  const fields = Object.entries(SUBMISSION_FIELDS)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v.type)}</td><td>${v.required === true ? 'yes' : v.required === false ? 'optional' : escapeHtml(v.required)}</td><td>${escapeHtml(v.rule)}</td></tr>`)
    .join('');
  const problems = Object.entries(PROBLEM_TITLES).map(([code, title]) => `<dt id="problem-${code}"><code>${code}</code></dt><dd>${escapeHtml(title)}</dd>`).join('');
  return layout(
    'Docs · Loadout Catalogue',
    `<h1>Documentation</h1>
<h2 id="api">HTTP API</h2>
<p>Base address: <code>${escapeHtml(base)}</code>. The description document is at <a href="${escapeHtml(base)}/api/v1"><code>/api/v1</code></a>. Errors are RFC 9457 problem details.</p>
<table><tr><th>Endpoint</th><th>What</th></tr>${endpoints}</table>
<h2 id="submit">Submitting a loadout</h2>
<p>POST a JSON body to <code>/api/v1/submissions</code>. Browsers send <code>form_token</code> (from <code>/api/v1/submissions/session</code>) and <code>challenge_token</code>; agents send <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>
<table><tr><th>Field</th><th>Type</th><th>Required</th><th>Rule</th></tr>${fields}</table>
<h2 id="problems">Errors</h2>
<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and a stable <code>code</code>; a 422 adds <code>errors: [{pointer, message}]</code>, one per field.</p>
<dl>${problems}</dl>
<h2 id="cli">CLI</h2>
<pre>loadout new &lt;id&gt;
loadout validate [id…] [--json]
loadout adapters [id…] [--check]
loadout verify [id…] [--json]
loadout build [--out dist] [--base-url URL]
loadout serve [--port 8787] [--host 127.0.0.1] [--out dist]</pre>`,
    base,
  );
}
