/**
 * The submission form's markup, on the page `/submit/` (docs/maintaining.md, "Submissions"): one
 * control for every field of the spec's table "POST /api/v1/submissions body", each with its hint
 * (the server's limit) and an error slot (`#e-<control id>`) that the form's script fills from its
 * own checks or from a 422's pointers. The files block takes files picked one by one or as a
 * folder, or pasted; the challenge widget goes into `#challenge-box`. The form posts JSON through
 * its script (`scripts/submit*.ts`); without JavaScript it says so and points at the API.
 */
import { AUTHORING_AGENTS, CATEGORIES, LICENCES, LIMITS } from '../catalogue/vocabulary.js';
import { escapeHtml } from './html.js';
import { AGENT_NAMES } from './layout.js';

const err = (id: string): string => `<p class="error" id="e-${id}" hidden></p>`;

/** A labelled control with hint and error slot. `control` receives `id`, `aria-describedby`. */
function field(id: string, label: string, hint: string, control: (attrs: string) => string, optional = false): string {
  const attrs = `id="${id}" aria-describedby="h-${id} e-${id}"`;
  return `<div class="field"><label for="${id}">${escapeHtml(label)}${optional ? ' <span class="muted">(optional)</span>' : ''}</label>
<p class="hint" id="h-${id}">${hint}</p>${control(attrs)}${err(id)}</div>`;
}

const options = (values: readonly string[], label: (v: string) => string = (v) => v): string => values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(label(v))}</option>`).join('');

/** The form. Pure. */
export function renderSubmitForm(): string {
  const kb = (bytes: number): string => `${bytes / 1024} KB`;
  const agents = AUTHORING_AGENTS.map((a) => `<label><input type="checkbox" name="agents" value="${a}"> ${escapeHtml(AGENT_NAMES[a])}</label>`).join('');
  return `<noscript><p class="summary-box">The form needs JavaScript. Without it, send the same fields as JSON to <code>POST /api/v1/submissions</code> with an API key (see <a href="#submit-api">Submitting through the API</a>).</p></noscript>
<form id="submit-form" class="form-grid" novalidate aria-describedby="submit-intro">
<p id="submit-intro">Fields marked optional may stay empty. Limits are checked here and again on the server; a submission runs the ten checks and waits for a maintainer.</p>
<div id="error-summary" class="summary-box" tabindex="-1" hidden><h2 id="error-summary-title">Please correct these fields</h2><ul></ul></div>
${field('f-name', 'Name', '3 to 60 characters, e.g. "Rust CLI Helpers".', (a) => `<input type="text" ${a} name="name" autocomplete="off" maxlength="60" required>`)}
${field('f-id', 'Loadout id', 'A slug: lowercase letters and digits separated by single hyphens, at most 64 characters. Left empty, it comes from the name<span id="derived-id"></span>.', (a) => `<input type="text" ${a} name="id" autocomplete="off" maxlength="64" pattern="[a-z0-9]+(-[a-z0-9]+)*" spellcheck="false">`, true)}
${field('f-summary', 'Summary', '20 to 200 characters: what the loadout is for, in one sentence.', (a) => `<textarea ${a} name="summary" rows="2" maxlength="200" required></textarea>`)}
${field('f-description', 'Description', '20 to 4000 characters.', (a) => `<textarea ${a} name="description" rows="4" maxlength="4000"></textarea>`, true)}
${field('f-highlights', 'Highlights', 'One per line: 1 to 8 lines, each at most 200 characters.', (a) => `<textarea ${a} name="highlights" rows="3"></textarea>`, true)}
${field('f-category', 'Category', 'The one category that fits best.', (a) => `<select ${a} name="category" required><option value="">Choose a category</option>${options(CATEGORIES)}</select>`)}
${field('f-stacks', 'Stacks', '1 to 8 slugs separated by commas, e.g. "rust, clap".', (a) => `<input type="text" ${a} name="stacks" autocomplete="off" spellcheck="false" required>`)}
<fieldset class="field" id="f-agents" aria-describedby="h-f-agents e-f-agents"><legend>Agents</legend><p class="hint" id="h-f-agents">The agents the loadout is written for (at least one).</p><div class="checks">${agents}</div>${err('f-agents')}</fieldset>
<fieldset class="field" id="f-files" aria-describedby="h-f-files e-f-files"><legend>Files</legend>
<p class="hint" id="h-f-files">1 to ${LIMITS.files} text files, each at most ${kb(LIMITS.fileBytes)}, ${kb(LIMITS.totalBytes)} in all; <code>AGENTS.md</code> is required. Layout: <code>AGENTS.md</code>, <code>CLAUDE.md</code>, <code>GEMINI.md</code>, <code>rules/&lt;name&gt;.md</code>, <code>skills/&lt;skill&gt;/SKILL.md</code> and its references, <code>agents/&lt;name&gt;.md</code>, <code>mcp/&lt;name&gt;.json</code>. Paths can be edited below.</p>
<div class="adders"><div><label for="f-pick">Add files</label><input type="file" id="f-pick" multiple></div>
<div><label for="f-pick-folder">Or a whole folder</label><input type="file" id="f-pick-folder" webkitdirectory multiple></div></div>
<details class="paste" id="paste-box"><summary>Paste a file</summary>
<div class="field"><label for="f-paste-path">Path</label><input type="text" id="f-paste-path" placeholder="AGENTS.md" spellcheck="false" aria-describedby="e-f-paste-path">${err('f-paste-path')}</div>
<div class="field"><label for="f-paste-content">Content</label><textarea id="f-paste-content" rows="6" spellcheck="false"></textarea></div>
<div><button type="button" id="f-paste-add">Add this file</button></div></details>
<ul class="files-list" id="file-list" aria-label="Files to submit"></ul>
<p class="small muted" id="files-total" role="status">No files yet.</p>${err('f-files')}</fieldset>
${field('f-licence', 'Licence', 'The SPDX id the files are published under.', (a) => `<select ${a} name="licence" required><option value="">Choose a licence</option>${options(LICENCES)}</select>`)}
<fieldset class="field"><legend>Author <span class="muted">(optional)</span></legend>
${field('f-author-name', 'Name', '1 to 100 characters; needed when you give a URL or GitHub user.', (a) => `<input type="text" ${a} autocomplete="name" maxlength="100">`)}
${field('f-author-url', 'URL', 'An http or https address.', (a) => `<input type="url" ${a} autocomplete="url">`, true)}
${field('f-author-github', 'GitHub user', 'Your GitHub user name, e.g. "octocat": credited in the pull request.', (a) => `<input type="text" ${a} autocomplete="username" spellcheck="false">`, true)}
</fieldset>
${field('f-contact-email', 'Contact e-mail', 'For the maintainers only: never published.', (a) => `<input type="email" ${a} name="contact_email" autocomplete="email">`, true)}
${field('f-source-url', 'Source URL', 'An https address of the loadout\'s source, e.g. its repository.', (a) => `<input type="url" ${a} name="source_url">`, true)}
${field('f-notes', 'Notes for the reviewers', 'At most 4000 characters.', (a) => `<textarea ${a} name="notes" rows="3" maxlength="4000"></textarea>`, true)}
<div class="field"><label><input type="checkbox" id="f-rights" name="rights_confirmed" aria-describedby="e-f-rights" required> I may publish these files under the licence above.</label>${err('f-rights')}</div>
<div class="field" id="f-challenge"><p class="hint" id="challenge-hint">A short proof-of-work check keeps bots out; it runs in your browser when you start filling in the form.</p><div id="challenge-box"></div>${err('f-challenge')}</div>
<div><button type="submit" class="primary" id="submit-button">Submit the loadout</button></div>
<p id="form-status" role="status" aria-live="polite"></p>
</form>
<div id="submit-result" class="success-box" tabindex="-1" hidden></div>`;
}
