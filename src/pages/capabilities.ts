/**
 * The capability list on the pages (issue 54, points 2 and 4; issue 53, point 3): the panel
 * "What it can run" under a loadout's summary and on a submission's status page, what each
 * version added in the versions list, and what each agent's tab says the agent will ask the user
 * to approve. The words are `capabilities/describe.ts`'s, the consent rule is
 * `capabilities/consent.ts`'s and the comparison `capabilities/compare.ts`'s, so the pages say
 * what `loadout install`, `update` and `verify` say. Every item's text comes from a loadout and
 * is escaped. Pure.
 */
import { compareCapabilities } from '../capabilities/compare.js';
import { consentRequests, type ConsentKind } from '../capabilities/consent.js';
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';
import { listsFor, type CapabilityLists } from '../capabilities/digest.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { agentApprovals } from '../layout/agent-approvals.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import { escapeHtml, linkOrText } from './html.js';
import { AGENT_NAMES } from './layout.js';

/** Each kind of content that needs consent, named for people. */
const CONSENT_LABELS: Record<ConsentKind, string> = {
  hook: 'Hook',
  'permission-mode': 'Permission mode',
  'auto-approval': 'Auto-approval',
  'wildcard-grant': 'Wildcard tool grant',
};

/** What the installer and the plugins do with what needs consent (SECURITY.md "What needs your consent"). */
const CONSENT_PROMISE =
  'Each of these lets the agent act without asking you, or run a command on its own events. loadout install lists them and writes nothing until you say yes (or pass --accept-capabilities); the agents\' own plugins leave them out.';

/** The lists as headed lists of lines, what needs consent marked. */
function sections(lists: CapabilityLists, agents?: readonly Agent[]): string {
  return describeCapabilities(lists, agents)
    .map((s) => `<h3>${escapeHtml(s.title)}</h3>\n<ul>${s.lines.map((l) => `<li>${escapeHtml(l.text)}${l.consent === null ? '' : ` <span class="badge note">needs your consent</span>`}</li>`).join('')}</ul>`)
    .join('\n');
}

/**
 * The body of the panel "What it can run" for `capabilities` (under a heading the caller writes):
 * the one-line summary (`runs nothing` said so), each list, then what needs the user's consent,
 * each item in words with what the installer and the plugins do about it, or that nothing does.
 * `idPrefix` keeps the ids unique on a page. Pure.
 */
export function renderCapabilities(capabilities: Capabilities, idPrefix = 'capabilities'): string {
  const mark = capabilities.runs === 'nothing' ? '<span class="badge ok">Runs nothing</span> ' : '';
  const lead = `<p id="${idPrefix}-summary">${mark}It ${escapeHtml(summarizeCapabilities(capabilities))}.</p>`;
  const requests = consentRequests(capabilities);
  const consent =
    requests.length === 0
      ? `<p class="small" id="${idPrefix}-consent">Nothing in it needs your consent: no hook, no permission mode that skips asking, no auto-approval of an MCP server's tools and no wildcard tool grant.</p>`
      : `<h3 id="${idPrefix}-consent">What needs your consent</h3>
<p>${escapeHtml(CONSENT_PROMISE)}</p>
<ul class="consent">${requests.map((r) => `<li><strong>${escapeHtml(CONSENT_LABELS[r.kind])}</strong>: ${escapeHtml(r.message)}</li>`).join('')}</ul>`;
  return `<div class="runs" id="${idPrefix}-panel">
${lead}
${sections(capabilities)}
${consent}
</div>`;
}

/** A version of `versions.json` as the versions list reads it. */
export interface VersionCapabilities {
  version: string;
  capabilities?: Capabilities;
}

/**
 * What `current` added to what the loadout can run, against `previous` (the version before it,
 * undefined for the first), for the versions list: the first version's summary, `no change`, or
 * each change marked `adds` (added or widened) or `drops` (removed or narrowed); `not recorded`
 * where a catalogue built before capability lists left either without one. Pure.
 */
export function renderVersionChange(previous: VersionCapabilities | undefined, current: VersionCapabilities): string {
  if (current.capabilities === undefined) return '<span class="muted">not recorded</span>';
  if (previous === undefined) return `first version: ${escapeHtml(summarizeCapabilities(current.capabilities))}`;
  if (previous.capabilities === undefined) return `<span class="muted">not recorded for ${escapeHtml(previous.version)}</span>`;
  const change = compareCapabilities(previous.capabilities, current.capabilities);
  if (change.items.length === 0) return 'no change';
  const items = change.items.map((i) => {
    const adds = i.change === 'added' || i.change === 'widened';
    return `<li><span class="badge ${adds ? 'note' : 'plain'}">${adds ? 'adds' : 'drops'}</span> ${escapeHtml(i.text)}</li>`;
  });
  return `${change.widens ? '<strong>Adds to what it can run</strong>' : 'Takes away only'}<ul>${items.join('')}</ul>`;
}

/** What an agent's install brings that its own prompts are about. */
export interface AgentInstallKinds {
  /** The install writes at least one skill file for the agent. */
  skills: boolean;
}

/**
 * The part of an agent's tab that says what will ask the user's approval for `agent`'s install:
 * first what `loadout install` asks before it writes anything (the consent requests the agent's
 * install carries), then what the agent itself asks on first use of the installed files
 * (`layout/agent-approvals.ts`, each with its source). Pure.
 */
export function renderAgentApprovals(capabilities: Capabilities, agent: Agent, kinds: AgentInstallKinds): string {
  const name = AGENT_NAMES[agent];
  const own = listsFor(capabilities, [agent]);
  const requests = consentRequests(own, [agent]);
  const installer =
    requests.length === 0
      ? '<li>loadout install asks nothing: nothing it writes for this agent needs your consent.</li>'
      : requests.map((r) => `<li><strong>loadout install asks first</strong> (${escapeHtml(CONSENT_LABELS[r.kind].toLowerCase())}): ${escapeHtml(r.message)}</li>`).join('');
  const prompts = agentApprovals(agent, { mcp: own.mcp_servers.length > 0, skills: kinds.skills })
    .map((a) => `<li>${escapeHtml(a.text)} (${linkOrText(a.source, 'source')})</li>`)
    .join('');
  return `<h4 id="asks-${agent}">What ${escapeHtml(name)} will ask you to approve</h4>
<ul class="asks" aria-labelledby="asks-${agent}">${installer}${prompts}</ul>`;
}
