/**
 * The status page of a submission, `/submissions/<id>/` (docs/http-api.md, "The pages"), rendered
 * by the server from the status document (`tree-format/submission-status.ts`: `{id, loadout_id, status,
 * created_at, updated_at, verification, capabilities, pr_url}`, never the contact e-mail): where the submission
 * stands, what happens next, what the submitted loadout can run (capabilities.ts, issue 54 point
 * 4), and its verification table. A page of the dynamic server, so it works
 * without JavaScript and without a build.
 */
import type { SubmissionStatusDocument } from '../tree-format/submission-status.js';
import { escapeHtml, linkOrText } from './html.js';
import { renderPage } from './layout.js';
import { readVerification, renderVerificationTable } from './verification.js';
import { renderCapabilities } from './capabilities.js';
import { describeCapabilitiesProblem, type Capabilities } from '../tree-format/capabilities.js';

/** What each state means for the submitter (the moves in README "Maintainers"). */
const STATE_TEXT: Record<string, { badge: string; text: string }> = {
  'pending-review': { badge: 'note', text: 'Every check passed. A maintainer will review it, and if they accept it, a pull request adds it to the catalogue.' },
  'checks-failed': { badge: 'bad', text: 'Some checks failed (see below). A maintainer will most likely reject it: fix what the checks report and submit again.' },
  accepted: { badge: 'ok', text: 'A maintainer accepted it. A pull request will add it to the catalogue.' },
  rejected: { badge: 'bad', text: 'A maintainer rejected it.' },
  'pr-opened': { badge: 'note', text: 'A pull request proposes it to the catalogue.' },
  merged: { badge: 'ok', text: 'Its pull request was merged: it is part of the catalogue from the next build.' },
  closed: { badge: 'bad', text: 'Its pull request was closed without merging.' },
};

/** The status page of `doc`. Pure. */
export function renderStatusPage(base: string, doc: SubmissionStatusDocument): string {
  const state = STATE_TEXT[doc.status] ?? { badge: 'plain', text: '' };
  const verification = readVerification(doc.verification);
  const body = `<nav aria-label="Breadcrumb" class="small"><a href="../../submit/">Submit a loadout</a> › Submission</nav>
<h1>Submission of ${escapeHtml(doc.loadout_id)}</h1>
<p><span class="badge ${state.badge}" id="submission-status">${escapeHtml(doc.status)}</span> ${escapeHtml(state.text)}</p>
<div class="table-wrap"><table class="facts">
<tbody>
<tr><th scope="row">Submission</th><td><code>${escapeHtml(doc.id)}</code></td></tr>
<tr><th scope="row">Loadout id</th><td><code>${escapeHtml(doc.loadout_id)}</code></td></tr>
<tr><th scope="row">Received</th><td>${escapeHtml(doc.created_at)}</td></tr>
<tr><th scope="row">Last change</th><td>${escapeHtml(doc.updated_at)}</td></tr>
<tr><th scope="row">Pull request</th><td>${doc.pr_url === null ? 'none yet' : linkOrText(doc.pr_url, doc.pr_url)}</td></tr>
</tbody></table></div>
<p class="small"><a href="../../api/v1/submissions/${encodeURIComponent(doc.id)}">Status document (JSON)</a>. Reload this page to see changes.</p>
<h2 id="capabilities">What it can run</h2>
${whatItRuns(doc.capabilities)}
<h2 id="verification">Verification</h2>
${verification === undefined ? '<p>No verification recorded.</p>' : renderVerificationTable(verification)}`;
  return renderPage({
    title: `Submission of ${doc.loadout_id} · Loadout Catalogue`,
    description: `Status of the submission of ${doc.loadout_id}.`,
    base,
    path: `submissions/${doc.id}/`,
    body,
  });
}

/** The capability list of a status document, or why there is none: the checks made none (a manifest that does not validate), or the submission was stored before capability lists. */
function whatItRuns(capabilities: Record<string, unknown> | null | undefined): string {
  if (capabilities === null || capabilities === undefined) return '<p id="capabilities-none">Not recorded: the checks could not read what it runs (its manifest does not validate), or it was submitted before capability lists.</p>';
  // Written by this server's checks; a row changed by hand is still checked before it is shown.
  if (describeCapabilitiesProblem(capabilities) !== undefined) return '<p id="capabilities-none">Not recorded in a shape this page reads.</p>';
  return renderCapabilities(capabilities as unknown as Capabilities);
}

/** The page for a submission id that does not exist (served with 404). Pure. */
export function renderStatusNotFound(base: string, id: string): string {
  return renderPage({
    title: 'No such submission · Loadout Catalogue',
    description: 'No such submission.',
    base,
    path: `submissions/${encodeURIComponent(id)}/`,
    body: `<h1>No such submission</h1><p>There is no submission <code>${escapeHtml(id)}</code>. Check the address, or <a href="../../submit/">submit a loadout</a>.</p>`,
  });
}
