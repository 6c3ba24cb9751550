/**
 * The documentation page, `docs/` (spec "Address shapes"): the guides first (issue 36, point
 * 13), then how to submit a loadout at `#submit` (the anchor the description document's `docs`
 * points at; the form has its own page, submit-page.ts), the HTTP API, the problem codes and
 * the CLI. Loads no script.
 */
import { ENDPOINTS } from '../tree/render/description.js';
import { problemAnchor, PROBLEM_TITLES, type ProblemCode } from '../tree-format/problem-codes.js';
import { renderGuideList, type Guide } from './guides.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';

/** The docs page, listing `guides` (guides.ts) first. Pure. */
export function renderDocsPage(base: string, guides: readonly Guide[] = []): string {
  const endpoints = Object.entries(ENDPOINTS)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  const problems = (Object.entries(PROBLEM_TITLES) as [ProblemCode, string][])
    .map(([code, title]) => `<dt id="${problemAnchor(code)}"><code>${code}</code></dt><dd>${escapeHtml(title)}</dd>`)
    .join('');
  const body = `<h1>Documentation</h1>
<nav aria-label="On this page" class="toc"><ul>
${guides.length > 0 ? '<li><a href="#guides">Guides</a></li>' : ''}<li><a href="#submit">Submit a loadout</a></li><li><a href="#api">HTTP API</a></li><li><a href="#problems">Errors</a></li><li><a href="#cli">Command line</a></li>
</ul></nav>
${renderGuideList(guides)}
<h2 id="submit">Submit a loadout</h2>
<p>No account needed: fill in <a href="../submit/">the submission form</a>, or POST the same fields as JSON to <code>/api/v1/submissions</code> (<a href="../submit/#submit-api">the fields and their rules</a>). A submission goes through the ten checks, then waits for a maintainer, who turns it into a pull request.</p>
<h2 id="api">HTTP API</h2>
<p>Base address: <code>${escapeHtml(base)}</code>. The description document is at <a href="../api/v1/index.json"><code>/api/v1</code></a>. Errors are RFC 9457 problem details.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Endpoints"><table><thead><tr><th scope="col">Endpoint</th><th scope="col">What</th></tr></thead><tbody>${endpoints}</tbody></table></div>
<h2 id="problems">Errors</h2>
<p>Every error is an RFC 9457 problem (<code>application/problem+json</code>) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and a stable <code>code</code>; a 422 adds <code>errors: [{pointer, message}]</code>, one per field.</p>
<dl>${problems}</dl>
<h2 id="cli">Command line</h2>
<pre tabindex="0"><code>loadout new &lt;id&gt;
loadout validate [id…] [--json]
loadout adapters [id…] [--check]
loadout verify [id…] [--json]
loadout build [--out dist] [--base-url URL]
loadout serve [--port 8787] [--host 127.0.0.1] [--out dist]
loadout search &lt;query…&gt; [--agent A] [--tags T] [--json]
loadout install &lt;id&gt; --agent A [--dir .] [--from URL|DIR]</code></pre>`;
  return renderPage({
    title: 'Docs · Loadout Catalogue',
    description: 'The guides, the HTTP API, errors and command line of the Loadout Catalogue, and how to submit a loadout.',
    base,
    path: 'docs/',
    current: 'docs',
    body,
  });
}
