/**
 * The install box of a loadout page (docs/http-api.md, "The pages"): one panel per agent with the
 * commands and their copy buttons, first the route that works as shown for this catalogue
 * (layout/install-routes.ts decides, for MCP too: the agent's own plugin manager, or why it has
 * none here and what to do; the consumer CLI through `npx`, needing nothing but Node; and
 * `npx skills add` for a loadout with skills, which installs the skills only), the zip link,
 * the context cost, what the agent will ask the user to approve (capabilities.ts), the file
 * targets and the manual steps. Without JavaScript every panel shows, each under its heading; with it,
 * `assets/loadout.js` turns the hidden tab list into keyboard-accessible tabs (WAI-ARIA
 * Authoring Practices, "Tabs with automatic activation") and remembers the agent chosen.
 */
import type { CliRoute, PublishedRecord } from '../tree-format/index.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { escapeHtml, formatBytes, plural } from './html.js';
import { AGENT_NAMES } from './layout.js';
import { AGENT_NOTES } from '../layout/agent-notes.js';
import { cliCommands, type CliCommand } from '../layout/install-routes.js';
import { PLUGIN_ROUTE_LABELS, type PluginRouteChoice } from '../layout/plugin-commands.js';
import { renderAgentApprovals } from './capabilities.js';

/** One agent's part of a loadout's native plugin (tree/render/plugin-page.ts makes it). */
export interface PluginPanelView {
  /** The plugin format the agent reads, for people (layout/plugin-formats.ts). */
  format: string;
  /** Its plugin manager's route for this catalogue with the catalogue's addresses, or why none fits (layout/plugin-commands.ts). */
  route: PluginRouteChoice;
  /** What the format cannot carry (a loadout file, or `mcp:<server>`), and why. */
  uncarried: { part: string; why: string }[];
  /** One-click MCP install links (Cursor, VS Code). */
  mcpLinks: { name: string; href: string; label: string }[];
}

/** A loadout's native plugin on its page, per agent (DESIGN.md "Native plugins"). */
export type PluginPageView = Partial<Record<Agent, PluginPanelView>>;

/** A size in the context window (`layout/context-cost.ts` ContextSize). */
export interface ContextSizeView {
  bytes: number;
  tokens: number;
}

/** The context cost of a loadout for one agent, where the versions document carries it. */
export interface ContextCostView {
  always: ContextSizeView;
  on_demand: ContextSizeView;
}

/** Percent-encodes each segment of a file path, keeping `/` (as `tree-format/addresses.ts`). */
export const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');


/** The `skills` CLI's command for the skills of loadout `id` (Agent Skills discovery of its page, skill-discovery.ts). */
export function skillsCommand(id: string, base: string): string {
  return `npx skills add ${base}/loadouts/${id}`;
}

/**
 * A command as the page shows it: `data-base` names the base URL the tree was built for, which
 * the page's script replaces with the address the page was served from, so that a copied
 * command works against that server. Without `base`, the command is shown as built: a Claude
 * Code marketplace added by URL lists zips at the build's address, whatever serves the page.
 */
function commandBlock(id: string, command: string, base: string | undefined, label: string): string {
  return `<div class="command"><pre id="${escapeHtml(id)}" tabindex="0"${base === undefined ? '' : ` data-base="${escapeHtml(base)}"`}><code>${escapeHtml(command)}</code></pre>${copyButton(id, label)}</div>`;
}

/** A copy button for the text of the element `targetId`; hidden until the script shows it. */
export function copyButton(targetId: string, label: string): string {
  return `<button type="button" class="copy" data-copy="${escapeHtml(targetId)}" aria-label="${escapeHtml(label)}" hidden>Copy</button>`;
}

/**
 * The label of an agent's tab: what installing does for that agent (issue 36, point 17), not
 * only its compatibility, which said "native" on a tab that lists manual steps. Pure.
 */
export function installLabel(compat: string, manualSteps: number): { text: string; badge: 'ok' | 'note' | 'bad' } {
  if (compat === 'unsupported') return { text: 'not supported', badge: 'bad' };
  if (manualSteps > 0) return { text: `installs, ${plural(manualSteps, 'manual step')} left`, badge: 'note' };
  return { text: compat === 'adapter' ? 'installs in full, with an adapter' : 'installs in full', badge: 'ok' };
}

/** `~1,234 tokens (4.8 KB)`. */
export function formatContext(size: ContextSizeView): string {
  return `~${size.tokens.toLocaleString('en')} tokens (${formatBytes(size.bytes)})`;
}

/**
 * The `npx` commands of one panel, in the order layout/install-routes.ts `cliCommands` gives
 * (the catalogue's own CLI alone unless the build was told that the registry has the package;
 * a signed catalogue leads with the registry's), each with what it trusts.
 */
function installCommands(id: string, agent: Agent, base: string, route: CliRoute | undefined): string {
  const name = AGENT_NAMES[agent];
  const block = (c: CliCommand): string => {
    const from = c.route === 'registry' ? "the npm registry's CLI" : "this catalogue's CLI";
    return `${commandBlock(c.route === 'registry' ? `cmd-npm-${agent}` : `cmd-${agent}`, c.command, base, `Copy the install command for ${name} (${from})`)}
<p class="small muted">${escapeHtml(c.trusts)}</p>`;
  };
  const [first, second] = cliCommands(base, id, agent, route);
  return second === undefined ? block(first) : `${block(first)}\n<p class="small">${second.route === 'registry' ? 'Or with the CLI from the npm registry:' : "Or with this catalogue's own CLI:"}</p>\n${block(second)}`;
}

/** `part` as the page shows it: a file path, or "the MCP server <name>". */
const describePart = (part: string): string => (part.startsWith('mcp:') ? `the MCP server <code>${escapeHtml(part.slice(4))}</code>` : `<code>${escapeHtml(part)}</code>`);

/**
 * The agent's own plugin manager first: the route that works for this catalogue, named, with its
 * commands and what they need (or, where none fits, why and what to do: `#plugin-none-<agent>`),
 * the MCP install links, then what a plugin cannot carry, which the install command below
 * installs. Empty without a plugin view.
 */
function pluginSection(agent: Agent, base: string, view: PluginPanelView | undefined): string {
  if (view === undefined) return '';
  const name = AGENT_NAMES[agent];
  const route = view.route;
  // Only a plugin zip's address follows the page's server: a folder or a branch has none, and a
  // marketplace added by URL lists zips at the build's address.
  const commands =
    route.route === 'none'
      ? `<p class="small" id="plugin-none-${agent}">No route of ${escapeHtml(name)}'s own plugin manager fits this catalogue: ${escapeHtml(route.why)} ${escapeHtml(route.todo)}.</p>`
      : `<p class="small">With ${escapeHtml(name)}'s own plugin manager (${escapeHtml(view.format)}), from ${escapeHtml(PLUGIN_ROUTE_LABELS[route.route])}:</p>${commandBlock(`plugin-${agent}`, route.commands.join('\n'), route.route === 'zip' ? base : undefined, `Copy the plugin commands for ${name}`)}<p class="small muted">${escapeHtml(route.note)}</p>`;
  const links = view.mcpLinks.length === 0 ? '' : `<p class="small">MCP servers in one click: ${view.mcpLinks.map((l) => `<a class="button" href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join(' ')}</p>`;
  const rest =
    route.route === 'none'
      ? ''
      : view.uncarried.length === 0
        ? '<p class="small">The plugin carries the whole loadout.</p>'
        : `<p class="small">The plugin cannot carry: ${view.uncarried.map((u) => `${describePart(u.part)} (${escapeHtml(u.why)})`).join('; ')}. The command below installs those too:</p>`;
  return `${commands}${links}${rest}`;
}

function panel(r: PublishedRecord, agent: Agent, base: string, root: string, context: ContextCostView | undefined, route: CliRoute | undefined, plugin: PluginPanelView | undefined): string {
  const entry = r.install[agent];
  const compat = r.compatibility[agent];
  const files = entry.files
    .map((f) => `<li><code>${escapeHtml(f.target)}</code><span class="from">from <a href="${escapeHtml(`${root}raw/${r.id}/${r.version}/${encodePath(f.path)}`)}">${escapeHtml(f.path)}</a> (${escapeHtml(f.role)})</span></li>`)
    .join('');
  const steps = entry.manual_steps
    .map((s, i) => {
      const id = `step-${agent}-${i}`;
      // A step is a sentence or two, then, after a blank line, the snippet to paste (layout/layout.ts ManualStep).
      const [lead = '', ...rest] = s.text.split(/\n\s*\n/u);
      const snippet = rest.join('\n\n').trim();
      const paste = snippet === '' ? '' : `<div class="command"><pre id="${id}" tabindex="0"><code>${escapeHtml(snippet)}</code></pre>${copyButton(id, `Copy the snippet of manual step ${i + 1} for ${AGENT_NAMES[agent]}`)}</div>`;
      return `<li><p><strong>${escapeHtml(s.kind)}</strong> <code>${escapeHtml(s.path)}</code>: ${escapeHtml(lead)}</p>${paste}</li>`;
    })
    .join('');
  const cost =
    context === undefined
      ? ''
      : `<p class="small">Context cost: ${formatContext(context.always)} at the start of every session${context.on_demand.bytes === 0 ? '' : `; ${formatContext(context.on_demand)} more when its skills, subagents and scoped rules are used`}.</p>`;
  const skills =
    r.counts.skills === 0
      ? ''
      : `<p class="small">Or its skills only, with the <code>skills</code> CLI:</p>${commandBlock(`skills-${agent}`, skillsCommand(r.id, base), base, `Copy the skills command for ${AGENT_NAMES[agent]}`)}<p class="small muted">This installs the skills alone, not the rules, MCP servers or AGENTS.md.</p>`;
  const label = installLabel(compat, entry.manual_steps.length);
  const warning = compat === 'unsupported' ? `<p class="error">This loadout does not support ${escapeHtml(AGENT_NAMES[agent])}.</p>` : '';
  const note = AGENT_NOTES[agent];
  const aboutAgent = note === undefined ? '' : `<p class="small">${escapeHtml(note.text)} (<a href="${escapeHtml(note.source)}">source</a>)</p>`;
  return `<section class="panel" id="panel-${agent}" data-agent="${agent}" aria-labelledby="heading-${agent}">
<h3 id="heading-${agent}">${escapeHtml(AGENT_NAMES[agent])} <span class="badge ${label.badge}">${escapeHtml(label.text)}</span></h3>
${warning}${aboutAgent}
${pluginSection(agent, base, plugin)}
${installCommands(r.id, agent, base, route)}
${skills}
<p><a class="button" href="${escapeHtml(`${root}download/${r.id}/${agent}.zip`)}" download>Download ${escapeHtml(agent)}.zip</a> <span class="small muted">${plural(entry.files.length, 'file')} · ${plural(entry.manual_steps.length, 'manual step')}</span></p>
${cost}
${compat === 'unsupported' ? '' : renderAgentApprovals(r.capabilities, agent, { skills: entry.files.some((f) => f.role === 'skill') })}
<h4 id="files-${agent}">Files it installs</h4>
<ul class="targets" aria-labelledby="files-${agent}">${files === '' ? '<li>None.</li>' : files}</ul>
${steps === '' ? '' : `<h4>Manual steps</h4><ol class="steps">${steps}</ol>`}
</section>`;
}

/**
 * The install box: the tab list (hidden until the script runs) and one panel per agent.
 * `context` is the latest version's cost per agent, when the versions document has it; `route`
 * how the commands run the CLI ({@link installCommands}); `plugins` the loadout's native plugin,
 * whose commands come first in each panel ({@link pluginSection}). Pure.
 */
export function renderInstallBox(r: PublishedRecord, base: string, root: string, context: Partial<Record<Agent, ContextCostView>> | undefined, route?: CliRoute, plugins?: PluginPageView): string {
  const tabs = PUBLISHED_AGENTS.map(
    (a) => `<button type="button" role="tab" id="tab-${a}" aria-controls="panel-${a}" aria-selected="false" tabindex="-1" data-agent="${a}">${escapeHtml(AGENT_NAMES[a])}</button>`,
  ).join('');
  return `<div class="install" id="install-box">
<div role="tablist" aria-label="Agent" hidden>${tabs}</div>
${PUBLISHED_AGENTS.map((a) => panel(r, a, base, root, context?.[a], route, plugins?.[a])).join('\n')}
</div>`;
}
