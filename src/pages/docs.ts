/**
 * The documentation page, `docs/` (spec "Address shapes"): the submission form at `#submit`
 * (the anchor the description document's `docs` points at), the field rules for API clients,
 * the HTTP API, the problem codes and the CLI. Loads only the form's own scripts; the form
 * loads the challenge widget when someone starts filling it in.
 */
import { ENDPOINTS, SUBMISSION_FIELDS } from '../tree/render/description.js';
import { problemAnchor, PROBLEM_TITLES, type ProblemCode } from '../tree-format/problem-codes.js';
import { renderGuideList, type Guide } from './guides.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { SUBMIT_SCRIPT_PATHS } from './scripts/submit.js';
import { renderSubmitForm } from './submit-form.js';

/** The docs page, listing `guides` (guides.ts) after the form. Pure. */
export function renderDocsPage(base: string, guides: readonly Guide[] = []): string {
  const endpoints = Object.entries(ENDPOINTS)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  const fields = Object.entries(SUBMISSION_FIELDS)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v.type)}</td><td>${v.required === true ? 'yes' : v.required === false ? 'optional' : escapeHtml(v.required)}</td><td>${escapeHtml(v.rule)}</td></tr>`)
    .join('');
  const problems = (Object.entries(PROBLEM_TITLES) as [ProblemCode, string][])
    .map(([code, title]) => `<dt id="${problemAnchor(code)}"><code>${code}</code></dt><dd>${escapeHtml(title)}</dd>`)
    .join('');
  const body = `<h1>Documentation</h1>
<nav aria-label="On this page" class="toc"><ul>
<li><a href="#submit">Submit a loadout</a></li>${guides.length > 0 ? '<li><a href="#guides">Guides</a></li>' : ''}<li><a href="#api">HTTP API</a></li><li><a href="#problems">Errors</a></li><li><a href="#cli">Command line</a></li>
</ul></nav>
<h2 id="submit">Submit a loadout</h2>
<p>No account needed. Your loadout goes through the same ten checks as the catalogue's own, then waits for a maintainer, who turns it into a pull request. You get a page that follows its status.</p>
${renderSubmitForm()}
<h3 id="submit-api">Submitting through the API</h3>
<p>POST a JSON body to <code>/api/v1/submissions</code>. Agents send <code>Authorization: Bearer &lt;API_KEY&gt;</code>; browsers send <code>form_token</code> (from <code>GET /api/v1/submissions/session</code>, which also says which challenge to solve: <code>challenge_provider</code>, <code>challenge_site_key</code>, <code>challenge_url</code>) and <code>challenge_token</code>, the widget's result, which passes once.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Submission fields"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Rule</th></tr></thead><tbody>${fields}</tbody></table></div>
${renderGuideList(guides)}
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
    description: 'Submit a loadout, and the HTTP API, errors and command line of the Loadout Catalogue.',
    base,
    path: 'docs/',
    current: 'docs',
    scripts: SUBMIT_SCRIPT_PATHS,
    body,
  });
}
