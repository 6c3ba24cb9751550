/**
 * The submission page, `submit/`: the form (submit-form.ts) and how to submit through the API,
 * on a page of its own so that the documentation opens on its guides (issue 36, point 13).
 * `docs/#submit`, the anchor the description document's `docs` names (spec "API description
 * document"), says how to submit and links here. Loads the form's scripts; the form loads the
 * challenge widget when someone starts filling it in.
 */
import { SUBMISSION_FIELDS } from '../tree/render/description.js';
import { escapeHtml } from './html.js';
import { renderPage } from './layout.js';
import { SUBMIT_SCRIPT_PATHS } from './scripts/submit.js';
import { renderSubmitForm } from './submit-form.js';

/** The page's path in the tree. */
export const SUBMIT_PAGE_PATH = 'submit/';

/** The submission page. Pure. */
export function renderSubmitPage(base: string): string {
  const fields = Object.entries(SUBMISSION_FIELDS)
    .map(([k, v]) => `<tr><td><code>${escapeHtml(k)}</code></td><td>${escapeHtml(v.type)}</td><td>${v.required === true ? 'yes' : v.required === false ? 'optional' : escapeHtml(v.required)}</td><td>${escapeHtml(v.rule)}</td></tr>`)
    .join('');
  const body = `<h1 id="submit">Submit a loadout</h1>
<p>No account needed. Your loadout goes through the same ten checks as the catalogue's own, then waits for a maintainer, who turns it into a pull request. You get a page that follows its status.</p>
${renderSubmitForm()}
<h2 id="submit-api">Submitting through the API</h2>
<p>POST a JSON body to <code>/api/v1/submissions</code>. Agents send <code>Authorization: Bearer &lt;API_KEY&gt;</code>; browsers send <code>form_token</code> (from <code>GET /api/v1/submissions/session</code>, which also says which challenge to solve: <code>challenge_provider</code>, <code>challenge_site_key</code>, <code>challenge_url</code>) and <code>challenge_token</code>, the widget's result, which passes once.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Submission fields"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Rule</th></tr></thead><tbody>${fields}</tbody></table></div>`;
  return renderPage({
    title: 'Submit a loadout · Loadout Catalogue',
    description: 'Submit a loadout to the Loadout Catalogue: the form, and the same through the API.',
    base,
    path: SUBMIT_PAGE_PATH,
    current: 'submit',
    scripts: SUBMIT_SCRIPT_PATHS,
    body,
  });
}
