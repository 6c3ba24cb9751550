/**
 * The README of a loadout's plugin folder (plugin-folder.ts): what the loadout is, what each
 * plugin format carries of it and what it cannot, and, for each agent, the command that
 * installs the rest without a plugin manager. Pure: same input, same text (no dates), so an
 * unchanged loadout keeps byte-identical plugin zips across builds.
 */
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { PLUGIN_FORMAT_NAMES, PLUGIN_FORMAT_OF, type PluginFormat, type UncarriedPart } from './plugin-formats.js';
import type { PluginMetadata } from './plugin-manifests.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';

const FORMATS: readonly PluginFormat[] = ['claude-code', 'agent-plugins', 'gemini-cli', 'cursor'];

/** `part` as people read it: a file path in backticks, or "the MCP server `name`". */
const describePart = (part: string): string => (part.startsWith('mcp:') ? `the MCP server \`${part.slice(4)}\`` : `\`${part}\``);

/**
 * The README text (Markdown): the loadout, what it can run (`capabilities`, in the words of
 * `capabilities/describe.ts`; what needs the user's consent is not carried and is listed under
 * each format instead), and what each format carries.
 */
export function pluginReadme(input: PluginMetadata & { installCommand: (agent: Agent) => string }, uncarried: readonly UncarriedPart[], capabilities: CapabilityLists): string {
  const { manifest: m } = input;
  const lines = [`# ${m.title}`, '', m.summary, '', `Version ${m.version}, ${m.license}, by ${m.author.name}. The loadout's page: ${input.homepage}`, ''];
  lines.push('## What it can run', '', `This loadout ${summarizeCapabilities(capabilities)}.`, '');
  for (const section of describeCapabilities(capabilities)) {
    const shown = section.lines.filter((l) => l.consent === null);
    if (shown.length === 0) continue;
    lines.push(`${section.title}:`, '', ...shown.map((l) => `- ${l.text}`), '');
  }
  if (describeCapabilities(capabilities).some((s) => s.lines.some((l) => l.consent !== null))) lines.push('What needs your consent (hooks, permission modes, auto-approval, wildcard tool grants) is not in this plugin: it is listed below, and `loadout install` shows it and asks you first.', '');
  lines.push('This folder is the loadout as a plugin for each agent\'s own plugin manager. What a format cannot carry is listed below with the command that installs it.', '');
  for (const format of FORMATS) {
    lines.push(`## ${PLUGIN_FORMAT_NAMES[format]}`, '');
    const missing = uncarried.filter((u) => u.format === format);
    if (missing.length === 0) lines.push('Carries the whole loadout.', '');
    else {
      lines.push('Not carried:', '');
      for (const u of missing) lines.push(`- ${describePart(u.part)}: ${u.why}.`);
      lines.push('', 'Install everything, including these, with:', '');
      const agents = PUBLISHED_AGENTS.filter((a: Agent) => PLUGIN_FORMAT_OF[a] === format);
      lines.push('```sh', ...agents.map((a) => input.installCommand(a)), '```', '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
