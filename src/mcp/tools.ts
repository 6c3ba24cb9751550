/**
 * The six read-only MCP tools (spec "Endpoints", `POST /mcp`; DESIGN.md section 5), and
 * `get_bundle` (issue 56: a bundle's record). Each has
 * a description written for an agent, a zod input and output schema, `readOnlyHint`, and
 * returns structured content with a text rendering. Unknown loadouts, versions and files are
 * tool errors (`isError`) that say what exists instead.
 */
import type { z } from 'zod';
import { languageOf } from '../tree-format/index.js';
import { chooseInstallRoutes } from '../layout/install-routes.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { consentRequests, type ConsentRequest } from '../capabilities/consent.js';
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';
import { listsFor, type CapabilityLists } from '../capabilities/digest.js';
import { agentApprovals } from '../layout/agent-approvals.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { SearchEngine } from '../search/engine.js';
import type { CatalogueReader } from './catalogue.js';
import * as s from './schemas.js';

/** What the tools read. */
export interface ToolContext {
  engine: SearchEngine;
  catalogue: CatalogueReader;
  /** `{base_url}` of this server, no trailing slash (for the install command). */
  baseUrl: string;
}

/** A tool's outcome: a value for `structuredContent`, or a message for an `isError` result. */
export type ToolOutcome<T> = { value: T } | { error: string };

/** One tool. `run` receives arguments already checked by `input`, a strict object schema (its keys are the tool's arguments). */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolOutcome<z.output<O>>>;
  render(value: z.output<O>): string;
}

const define = <I extends z.ZodObject, O extends z.ZodType>(tool: ToolDefinition<I, O>): ToolDefinition => tool as unknown as ToolDefinition;

/** A consent request as the tools give it: without its agents (the tool's answer says whose install it is). */
const consentItem = ({ kind, file, subject, key, value, message }: ConsentRequest): Omit<ConsentRequest, 'agents'> => ({ kind, file, subject, key, value, message });

/** `lists` as text: the summary, then each list's lines, what needs consent marked (capabilities/describe.ts's words). */
function capabilitiesText(lists: CapabilityLists, agents?: readonly Agent[]): string {
  const lines = [`What it can run: ${summarizeCapabilities(lists, agents)}.`];
  for (const section of describeCapabilities(lists, agents)) {
    lines.push(`${section.title}:`, ...section.lines.map((l) => `- ${l.text}${l.consent === null ? '' : ` [needs your consent: ${l.consent}]`}`));
  }
  return lines.join('\n');
}

/** The consent requests as text: what loadout install asks before it writes anything. */
function consentText(requests: readonly { message: string }[]): string {
  return requests.length === 0 ? 'Nothing of it needs your consent.' : `loadout install asks your consent first (plugins leave these out):\n${requests.map((r) => `- ${r.message}`).join('\n')}`;
}

const noLoadout = (id: string): { error: string } => ({ error: `No loadout has the id "${id}". Call search_loadouts to find loadout ids.` });

/** {@link noLoadout}, or, when `id` is a bundle's, the error that says to ask get_bundle. */
async function noLoadoutOrBundle(id: string, catalogue: CatalogueReader): Promise<{ error: string }> {
  return (await catalogue.bundle(id)) === undefined ? noLoadout(id) : { error: `"${id}" is a bundle, not a loadout: call get_bundle with this id for its loadouts, or get_loadout with the id of one of them.` };
}

const searchLoadouts = define({
  name: 'search_loadouts',
  title: 'Search loadouts',
  description:
    'Find loadouts (versioned bundles of AGENTS.md instructions, rules, skills and MCP configuration for coding agents) that fit a project. ' +
    'Describe the stack or task in plain words; results are ranked best first, with featured and verified loadouts ranked up and deprecated ones down. ' +
    'Narrow with agent, tags, category, verified, has, runs (runs: "nothing" keeps loadouts that are text only: no MCP server, hook, script or tool grant) or max_always_tokens (the context each session starts with). Then call get_loadout for details or get_install_instructions to install one.',
  input: s.searchInput,
  output: s.searchOutput,
  async run(args, { engine }) {
    return {
      value: engine.search({
        q: (args.query ?? '').trim(),
        tags: [...new Set(args.tags ?? [])],
        limit: args.limit,
        offset: args.offset,
        ...(args.agent === undefined ? {} : { agent: args.agent }),
        ...(args.category === undefined ? {} : { category: args.category }),
        ...(args.verified === undefined ? {} : { verified: args.verified }),
        ...(args.has === undefined ? {} : { has: args.has }),
        ...(args.runs === undefined ? {} : { runs: args.runs }),
        ...(args.max_always_tokens === undefined ? {} : { max_always_tokens: args.max_always_tokens }),
      }),
    };
  },
  render(value) {
    const bundles = (value.bundles ?? []).map((b) => `- bundle ${b.id} (${b.version}) — ${b.title}: ${b.loadouts.map((m) => `${m.id} ${m.range}`).join(', ')}`);
    const bundleText = bundles.length === 0 ? '' : `\n\nBundles (sets of loadouts installed as one; call get_bundle):\n${bundles.join('\n')}`;
    if (value.results.length === 0) {
      const suggested = (value.suggestions ?? []).map((s) => `${s.value} (${s.kind})`);
      return `No loadouts match "${value.query}" with these filters (${value.total} in total).${suggested.length === 0 ? '' : ` Did you mean ${suggested.join(', ')}?`}${bundleText}`;
    }
    const lines = value.results.map((r, i) => `${value.offset + i + 1}. ${r.id} (${r.version}${r.featured ? ', featured' : ''}${r.deprecated ? ', deprecated' : ''}${r.capabilities?.runs === 'nothing' ? ', runs nothing' : r.capabilities?.runs === 'something' ? ', runs something: see get_loadout' : ''}) — ${r.title}: ${r.summary} [${[...r.categories, ...r.stacks].join(', ')}]`);
    return `${value.total} loadout${value.total === 1 ? '' : 's'} found${value.query === '' ? '' : ` for "${value.query}"`}; showing ${value.offset + 1} to ${value.offset + value.results.length}:\n${lines.join('\n')}${bundleText}`;
  },
});

const getLoadout = define({
  name: 'get_loadout',
  title: 'Get a loadout',
  description:
    "Read a loadout's published record: summary, description, highlights, stacks, per-agent compatibility, verification result, what it can run (capabilities: MCP servers and the packages they start, hooks, tool grants, scripts, hosts, variables; runs \"nothing\" for text only) and what of it needs the user's consent, every version, and the list of its files (path, role, description, size, addresses) without their contents. " +
    'Call get_loadout_file to read a file, or get_install_instructions to install the loadout for one agent.',
  input: s.getLoadoutInput,
  output: s.getLoadoutOutput,
  async run({ id }, { catalogue }) {
    const record = await catalogue.record(id);
    if (record === undefined) return noLoadoutOrBundle(id, catalogue);
    const versions = await catalogue.versions(id);
    const { files, install: _install, capabilities, ...rest } = record as Omit<typeof record, 'capabilities'> & { capabilities?: Capabilities };
    return {
      value: {
        ...rest,
        verification: { ...rest.verification },
        files: files.map(({ content: _content, install_to: _to, ...f }) => f),
        // A catalogue built before capability lists has none.
        capabilities: capabilities === undefined ? null : { ...capabilities },
        needs_consent: capabilities === undefined ? [] : consentRequests(capabilities).map(consentItem),
        versions: versions?.versions.map((v) => v.version) ?? [record.version],
      },
    };
  },
  render(r) {
    const files = r.files.map((f) => `- ${f.path} (${f.role}, ${f.bytes} bytes): ${f.description}`).join('\n');
    const compat = Object.entries(r.compatibility).map(([a, c]) => `${a}: ${c}`).join(', ');
    return `# ${r.title} (${r.id} ${r.version})\n\n${r.summary}\n\n${r.description}\n\nHighlights:\n${r.highlights.map((h) => `- ${h}`).join('\n')}\n\nStacks: ${r.stacks.join(', ')}. Categories: ${r.categories.join(', ')}.\nCompatibility: ${compat}.\nVerification: ${r.verification.label}.\nVersions: ${r.versions.join(', ')}.\n\n${r.capabilities === null ? 'What it can run: not published by this catalogue.' : `${capabilitiesText(r.capabilities as unknown as CapabilityLists)}\n${consentText(r.needs_consent)}`}\n\nFiles:\n${files}`;
  },
});

const getBundle = define({
  name: 'get_bundle',
  title: 'Get a bundle',
  description:
    "Read a bundle's published record: a set of loadouts installed as one, each with the semver range the bundle takes it at and the newest published version in that range, their combined context cost per agent and capability list, the bundle's Claude Code plugin and every version. " +
    'Bundles are listed in the bundles of search_loadouts. Call get_loadout or get_install_instructions with a loadout id of the bundle for each loadout.',
  input: s.getBundleInput,
  output: s.getBundleOutput,
  async run({ id }, { catalogue }) {
    const record = await catalogue.bundle(id);
    if (record === undefined) return { error: `No bundle has the id "${id}". search_loadouts lists the bundles that match a query in its bundles.` };
    return { value: { ...record, loadouts: record.loadouts.map((m) => ({ ...m })), versions: record.versions.map((v) => ({ ...v })), capabilities: { ...record.capabilities }, plugin: record.plugin === null ? null : { ...record.plugin } } };
  },
  render(b) {
    const loadouts = b.loadouts.map((m) => `- ${m.id} ${m.range} → ${m.resolved} (${m.title}${m.agents === null ? '' : `; for ${m.agents.join(', ')}`})`).join('\n');
    const plugin = b.plugin === null ? '' : `\n\nClaude Code: ${b.plugin.install} installs its loadouts' plugins.`;
    return `# ${b.title} (bundle ${b.id} ${b.version})\n\n${b.summary}\n\n${b.description}\n\nLoadouts (range → newest published version in it):\n${loadouts}\n\nTogether they run ${b.capabilities.runs}.${plugin}\nVersions: ${b.versions.map((v) => v.version).join(', ')}.`;
  },
});

const getLoadoutFile = define({
  name: 'get_loadout_file',
  title: 'Read a file of a loadout',
  description:
    'Read the full text of one file of a loadout (instructions, rule, skill, reference, MCP configuration or subagent), from the latest version or from a pinned version. ' +
    'Paths are those listed by get_loadout. The result also gives the sha256 and the raw address of the file.',
  input: s.getFileInput,
  output: s.getFileOutput,
  async run({ id, path, version }, { catalogue }) {
    const versions = await catalogue.versions(id);
    if (versions === undefined) return noLoadout(id);
    const wanted = version === 'latest' ? versions.latest : version;
    const entry = versions.versions.find((v) => v.version === wanted);
    if (entry === undefined) return { error: `Loadout "${id}" has no version ${wanted}. Published versions: ${versions.versions.map((v) => v.version).join(', ')}.` };
    const file = entry.files.find((f) => f.path === path);
    if (file === undefined) return { error: `Version ${wanted} of loadout "${id}" has no file "${path}". Its files: ${entry.files.map((f) => f.path).join(', ')}.` };
    const content = await catalogue.rawFile(id, wanted, path);
    if (content === undefined) return { error: `The file "${path}" of loadout "${id}" ${wanted} is listed but could not be read from the catalogue; try again later.` };
    return { value: { id, version: wanted, latest: wanted === versions.latest, path, lang: languageOf(path), bytes: file.bytes, sha256: file.sha256, raw_url: file.raw_url, content } };
  },
  render: (f) => f.content,
});

const getInstallInstructions = define({
  name: 'get_install_instructions',
  title: 'Install instructions for one agent',
  description:
    'How to install a loadout into a project for one coding agent: the agent’s own plugin manager’s commands where one works for this catalogue (or why none does), the ready-to-run `npx` install commands with whom each trusts, the zip address, every file with its target path in the project, any manual steps, what this install lets the agent run (capabilities), what of it needs the user’s consent (loadout install asks first), and what the agent itself will ask the user to approve. ' +
    'Use it after choosing a loadout with search_loadouts; check `compatibility` (native, adapter or unsupported) first.',
  input: s.installInput,
  output: s.installOutput,
  async run({ id, agent }, { catalogue, baseUrl }) {
    const record = await catalogue.record(id);
    if (record === undefined) return noLoadout(id);
    const install = record.install[agent as Agent];
    // The routes the loadout's page shows (layout/install-routes.ts), the npx commands pinned to
    // the version described, so that they install exactly these files.
    const { route, marketplaceUrl } = catalogue.install;
    const routes = chooseInstallRoutes({ base: baseUrl, id, version: record.version, agent: agent as Agent, route, ...(marketplaceUrl === undefined ? {} : { marketplaceUrl }), pin: true });
    // The agent's part of the capability list (capabilities/digest.ts listsFor), as the page's tab shows it; none in a catalogue built before capability lists.
    const capabilities = (record as { capabilities?: Capabilities }).capabilities;
    const own = capabilities === undefined ? undefined : listsFor(capabilities, [agent as Agent]);
    const part = capabilities?.agents[agent as Agent];
    return {
      value: {
        id,
        version: record.version,
        agent,
        compatibility: record.compatibility[agent as Agent],
        command: routes.cli[0].command,
        commands: routes.cli.map((c) => ({ ...c })),
        plugin: routes.plugin === undefined ? null : routes.plugin.route === 'none' ? { ...routes.plugin } : { ...routes.plugin, commands: [...routes.plugin.commands] },
        zip_url: install.zip_url,
        files: install.files,
        manual_steps: install.manual_steps.map((m) => ({ ...m })),
        capabilities: own === undefined || part === undefined ? null : { runs: part.runs, digest: part.digest, ...own },
        needs_consent: own === undefined ? [] : consentRequests(own, [agent as Agent]).map(consentItem),
        agent_asks: agentApprovals(agent as Agent, { mcp: (own?.mcp_servers.length ?? 0) > 0, skills: install.files.some((f) => f.role === 'skill') }).map((a) => ({ text: a.text, source: a.source })),
      },
    };
  },
  render(v) {
    const files = v.files.map((f) => `- ${f.target} ← ${f.path}`).join('\n');
    const steps = v.manual_steps.map((m) => `- ${m.path}: ${m.text}`).join('\n');
    const plugin =
      v.plugin === null
        ? ''
        : v.plugin.route === 'none'
          ? `No route of the agent's own plugin manager fits this catalogue: ${v.plugin.why} ${v.plugin.todo}.\n\n`
          : `With the agent's own plugin manager (${v.plugin.route}):\n\n${v.plugin.commands.map((c) => `    ${c}`).join('\n')}\n\n${v.plugin.note}\n\nOr, the whole loadout with npx:\n\n`;
    const npx = v.commands.map((c, i) => `${i === 0 ? '' : 'or:\n\n'}    ${c.command}\n\n${c.trusts}`).join('\n\n');
    const runs = v.capabilities === null ? 'What it can run: not published by this catalogue.' : capabilitiesText(v.capabilities as unknown as CapabilityLists, [v.agent as Agent]);
    const asks = v.agent_asks.length === 0 ? '' : `\n\nThe agent itself will ask you to approve:\n${v.agent_asks.map((a) => `- ${a.text} (${a.source})`).join('\n')}`;
    return `Install ${v.id} ${v.version} for ${v.agent} (${v.compatibility}):\n\n${plugin}${npx}\n\nor download ${v.zip_url} and unzip it at the project root.\n\n${runs}\n${consentText(v.needs_consent)}${asks}\n\nFiles:\n${files}${steps === '' ? '' : `\n\nManual steps:\n${steps}`}`;
  },
});

const listAgents = define({
  name: 'list_agents',
  title: 'List the coding agents',
  description: 'List the coding agents the catalogue installs for, with the adapter file each one reads, where it discovers skills, and how many loadouts support it. Use the ids as the agent argument of the other tools.',
  input: s.listAgentsInput,
  output: s.listAgentsOutput,
  run: async (_args, { catalogue }) => ({ value: { agents: [...catalogue.agents] } }),
  render: (v) => v.agents.map((a) => `- ${a.id}: ${a.loadouts} loadouts; skills in ${a.skills_dir}${a.adapter === null ? '' : `; adapter ${a.adapter}`}`).join('\n'),
});

const listTags = define({
  name: 'list_tags',
  title: 'List stacks and categories',
  description: 'List the stacks (e.g. nextjs, python) and categories (e.g. web-app, security) used by loadouts, most used first, with how many loadouts have each. Use them as the tags or category argument of search_loadouts.',
  input: s.listTagsInput,
  output: s.listTagsOutput,
  run: async ({ limit }, { catalogue }) => ({ value: { stacks: catalogue.tags.stacks.slice(0, limit), categories: catalogue.tags.categories.slice(0, limit), total_stacks: catalogue.tags.stacks.length } }),
  render: (v) => `Categories: ${v.categories.map((t) => `${t.tag} (${t.count})`).join(', ')}\nStacks: ${v.stacks.map((t) => `${t.tag} (${t.count})`).join(', ')}${v.total_stacks > v.stacks.length ? ` … and ${v.total_stacks - v.stacks.length} more` : ''}`,
});

/** The tools, in the spec's order, then `get_bundle` (issue 56). */
export const TOOLS: readonly ToolDefinition[] = [searchLoadouts, getLoadout, getLoadoutFile, getInstallInstructions, listAgents, listTags, getBundle];
