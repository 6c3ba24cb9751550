/**
 * The files of a new loadout (`loadout new <id>`): a manifest that validates, an AGENTS.md
 * to fill in, and the generated adapters.
 */
import { stringify } from 'yaml';
import { ADAPTER_AGENTS, adapterFileName, generateAdapter } from '../adapters/generate.js';
import { MANIFEST_FILE } from './manifest.js';

/**
 * The scaffold for `id` (a slug), dated `today` (`YYYY-MM-DD`): path → text.
 * Pure; the caller checks the id and writes the files.
 */
export function scaffoldLoadout(id: string, today: string): Map<string, string> {
  const title = id.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ').slice(0, 60).padEnd(3, '.');
  const manifest = {
    id,
    type: 'loadout',
    title,
    summary: `Instructions for coding agents working on ${title} projects.`,
    description: `Describe what ${title} sets up for a coding agent, for which projects, and what the agent does differently with it.`,
    highlights: ['Say what the agent will do better with this loadout'],
    version: '0.1.0',
    license: 'MIT',
    author: { name: 'Your Name' },
    categories: ['workflow'],
    stacks: ['general'],
    files: [
      { path: 'AGENTS.md', role: 'instructions', description: 'Project instructions for every agent' },
      ...ADAPTER_AGENTS.map((agent) => ({ path: adapterFileName(agent), role: 'adapter', agent, description: `${agent === 'claude-code' ? 'Claude Code' : 'Gemini CLI'} adapter: imports AGENTS.md` })),
    ],
    requires: { tools: [], env: [], mcp: [] },
    tested: { status: 'untested', last_run: null, fixture: null },
    security: { scanned: false, network: false, scripts: [] },
    last_checked: today,
  };
  return new Map<string, string>([
    [MANIFEST_FILE, `# Authoring schema: schema/loadout.schema.json (also at {base_url}/api/schema.json)\n${stringify(manifest)}`],
    ['AGENTS.md', `# ${title}\n\nWrite the instructions every agent should follow here: the stack, how to build and test, conventions, and what to avoid.\n`],
    ...ADAPTER_AGENTS.map((agent): [string, string] => [adapterFileName(agent), generateAdapter(agent, title)]),
  ]);
}
