/**
 * A bundle as a plugin (issue 56, point 2; DESIGN.md "Bundles"): a folder that carries no file
 * of its own, only what names its members. Pure: values in, files out (the same input gives the
 * same bytes, so its zip is the same from one build to the next).
 *
 * - `.claude-plugin/plugin.json` (Claude Code; SchemaStore `claude-code-plugin-manifest.json`,
 *   code.claude.com/docs/en/plugin-dependencies): `dependencies` of `{name, version}`, one per
 *   member that is for Claude Code, with the bundle's own range. A bare name is resolved in the
 *   marketplace the bundle's plugin comes from (Claude Code 2.1.110 and later), so
 *   `claude plugin install <bundle>@<marketplace>` installs the members' plugins too.
 *   How Claude Code 2.1.330 reads the range, checked with a folder marketplace (test/install/
 *   agent-clis-bundles.test.ts): a folder marketplace holds one version of each plugin and has
 *   no git tags to choose among, so Claude Code installs the version the marketplace has and then
 *   checks it against the range, refusing to load the bundle's plugin ("Requires "<name>@<market>"
 *   ^1.0.0, installed 2.0.1") when it is outside. The range is kept all the same: the members'
 *   plugins load either way, and the refusal says what an install by name would hide. The README
 *   names the members whose latest version is outside their range.
 * - `plugin.json` (Agent Plugins 1.0, closed; read by Codex, Copilot CLI, Cursor and VS Code):
 *   the bundle's name and description, which lists the members; the format has no dependencies.
 * - `README.md`: the members, what each agent's plugin manager installs of them, and the
 *   commands that install the rest.
 */
import { AGENT_NAMES, type Agent } from '../catalogue/vocabulary.js';
import { AGENT_PLUGINS_SCHEMA, PLUGIN_PATHS } from './plugin-manifests.js';

/** One member as the plugin names it. */
export interface BundlePluginMember {
  id: string;
  title: string;
  range: string;
  /** The newest published version the range allows, and the loadout's latest (what the marketplaces hold). */
  resolved: string;
  latest: string;
  /** The agents it is for; null: every agent. */
  agents: readonly Agent[] | null;
}

/** What the bundle's plugin is made of. */
export interface BundlePluginInput {
  id: string;
  version: string;
  title: string;
  summary: string;
  license: string;
  author: { name: string; url?: string };
  /** The bundle's page. */
  homepage: string;
  members: readonly BundlePluginMember[];
  /** The marketplace's name (`<plugin>@<name>`). */
  marketplace: string;
}

/** One file of the plugin folder. */
export interface BundlePluginFile {
  path: string;
  data: string;
}

/** True when `member` is installed for `agent`. */
const isFor = (member: BundlePluginMember, agent: Agent): boolean => member.agents === null || member.agents.includes(agent);

/** The `dependencies` of the Claude Code manifest: each member that is for Claude Code, by bare name, with its range. Pure. */
export function bundleDependencies(members: readonly BundlePluginMember[]): { name: string; version: string }[] {
  return members.filter((m) => isFor(m, 'claude-code')).map((m) => ({ name: m.id, version: m.range }));
}

/** The one line that lists the members: `nextjs-app-router ^1.2, secure-code-review >=1 <3`. */
const memberList = (members: readonly BundlePluginMember[]): string => members.map((m) => `${m.id} ${m.range}`).join(', ');

/** The plugin's description in every manifest and marketplace: the summary, then the members with their ranges. Pure. */
export function bundlePluginDescription(input: Pick<BundlePluginInput, 'summary' | 'members'>): string {
  return `${input.summary} A bundle of ${input.members.length} loadout${input.members.length === 1 ? '' : 's'}: ${memberList(input.members)}.`;
}

/** The files of the bundle's plugin folder, in a fixed order. Pure. */
export function bundlePluginFiles(input: BundlePluginInput): BundlePluginFile[] {
  const author = input.author.url === undefined ? { name: input.author.name } : { name: input.author.name, url: input.author.url };
  const description = bundlePluginDescription(input);
  const claude = {
    name: input.id,
    version: input.version,
    description,
    author,
    homepage: input.homepage,
    license: input.license,
    keywords: ['bundle', ...input.members.map((m) => m.id)],
    dependencies: bundleDependencies(input.members),
  };
  const agentPlugins = { $schema: AGENT_PLUGINS_SCHEMA, name: input.id, version: input.version, description, author, homepage: input.homepage, license: input.license, keywords: ['bundle', ...input.members.map((m) => m.id)] };
  return [
    { path: PLUGIN_PATHS.claude, data: `${JSON.stringify(claude, null, 2)}\n` },
    { path: PLUGIN_PATHS.agentPlugins, data: `${JSON.stringify(agentPlugins, null, 2)}\n` },
    { path: PLUGIN_PATHS.readme, data: bundleReadme(input) },
  ];
}

/** The README (Markdown): see the module comment. */
function bundleReadme(input: BundlePluginInput): string {
  const { id, marketplace: market, members } = input;
  const lines = [`# ${input.title}`, '', input.summary, '', `Version ${input.version}, ${input.license}, by ${input.author.name}. The bundle's page: ${input.homepage}`, ''];
  lines.push('This plugin is a bundle: it carries no file of its own. It names the loadouts of the catalogue that make up the set, each with the versions it accepts:', '');
  lines.push('| loadout | versions | newest in range | latest | for |', '|---|---|---|---|---|');
  for (const m of members) lines.push(`| ${m.id} (${m.title}) | \`${m.range}\` | ${m.resolved} | ${m.latest} | ${m.agents === null ? 'every agent' : m.agents.map((a) => AGENT_NAMES[a]).join(', ')} |`);
  lines.push('', '## Claude Code', '');
  const claude = members.filter((m) => isFor(m, 'claude-code'));
  if (claude.length === 0) lines.push('No loadout of this bundle is for Claude Code.', '');
  else {
    lines.push(`Installing this plugin installs, through its \`dependencies\` (Claude Code 2.1.110 or later), the plugin of each loadout above that is for Claude Code, from the same marketplace: ${claude.map((m) => m.id).join(', ')}.`, '');
    lines.push('```sh', `claude plugin install ${id}@${market}`, '```', '');
    const outside = claude.filter((m) => m.latest !== m.resolved);
    if (outside.length > 0) {
      lines.push(`The marketplace holds each loadout's latest version, and Claude Code checks it against the range: ${outside.map((m) => `${m.id} ${m.latest} is outside \`${m.range}\``).join('; ')}, so Claude Code installs that version and does not load this bundle's plugin. Install the version in range with the catalogue's CLI instead (see the bundle's page).`, '');
    }
  }
  lines.push('## Codex, Copilot CLI, Cursor and Gemini CLI', '');
  lines.push('Their plugin managers install no dependencies: install the plugin of each loadout for the agent from the same marketplace.', '');
  const commands: [Agent, (m: BundlePluginMember) => string][] = [
    ['codex', (m) => `codex plugin add ${m.id}@${market}`],
    ['copilot', (m) => `copilot plugin install ${m.id}@${market}`],
  ];
  for (const [agent, command] of commands) {
    const own = members.filter((m) => isFor(m, agent));
    if (own.length > 0) lines.push(`${AGENT_NAMES[agent]}:`, '', '```sh', ...own.map(command), '```', '');
  }
  const cursor = members.filter((m) => isFor(m, 'cursor'));
  if (cursor.length > 0) lines.push(`Cursor: add ${cursor.map((m) => m.id).join(', ')} from the ${market} marketplace.`, '');
  const gemini = members.filter((m) => isFor(m, 'gemini-cli'));
  if (gemini.length > 0) lines.push(`Gemini CLI: install the extension of ${gemini.map((m) => m.id).join(', ')}, each from its page.`, '');
  return `${lines.join('\n').trimEnd()}\n`;
}
