/**
 * The files of a new loadout (`loadout new <id>`): a manifest that validates, an AGENTS.md
 * to fill in, and the generated adapters; and the finders of the placeholders they hold, which
 * the `listing` check fails until they are replaced (verify/checks/listing.ts).
 */
import { stringify } from 'yaml';
import { ADAPTER_AGENTS, adapterFileName, generateAdapter } from '../adapters/generate.js';
import { MANIFEST_FILE } from '../catalogue/manifest.js';

// The scaffold's placeholder values: what `loadout new` writes for the author to replace.
const AUTHOR = 'Your Name';
const SUMMARY_START = 'Instructions for coding agents working on ';
const SUMMARY_END = ' projects.';
const DESCRIPTION_START = 'Describe what ';
const DESCRIPTION_END = ' sets up for a coding agent, for which projects, and what the agent does differently with it.';
const HIGHLIGHT = 'Say what the agent will do better with this loadout';
const INSTRUCTIONS = 'Write the instructions every agent should follow here: the stack, how to build and test, conventions, and what to avoid.';
/** The start of {@link INSTRUCTIONS} that marks it, however the rest of its line was edited or wrapped. */
const INSTRUCTIONS_MARK = 'Write the instructions every agent should follow here';

/** A scaffold placeholder left in a manifest: its JSON pointer and what to write instead. */
export interface Placeholder {
  pointer: string;
  expected: string;
}

/**
 * The placeholders of {@link scaffoldLoadout} still in the manifest `data` (as parsed): the
 * author "Your Name", the placeholder summary and description (whatever the title), and the
 * placeholder highlight. Pure.
 */
export function findPlaceholders(data: unknown): Placeholder[] {
  if (data === null || typeof data !== 'object') return [];
  const m = data as { author?: { name?: unknown }; summary?: unknown; description?: unknown; highlights?: unknown };
  const found: Placeholder[] = [];
  const isText = (v: unknown): v is string => typeof v === 'string';
  if (m.author?.name === AUTHOR) found.push({ pointer: '/author/name', expected: 'your name, or your organisation\'s' });
  if (isText(m.summary) && m.summary.startsWith(SUMMARY_START) && m.summary.endsWith(SUMMARY_END)) found.push({ pointer: '/summary', expected: 'one sentence on what the loadout gives an agent (20 to 200 characters)' });
  if (isText(m.description) && m.description.startsWith(DESCRIPTION_START) && m.description.endsWith(DESCRIPTION_END)) found.push({ pointer: '/description', expected: 'what the loadout sets up, for which projects, and what the agent does differently with it' });
  if (Array.isArray(m.highlights)) m.highlights.forEach((h, i) => h === HIGHLIGHT && found.push({ pointer: `/highlights/${i}`, expected: 'something the agent does better with this loadout' }));
  return found;
}

/** A scaffold placeholder left in the text of a file: its 1-based line and what to write instead. */
export interface TextPlaceholder {
  line: number;
  expected: string;
}

/**
 * The placeholder of {@link scaffoldLoadout}'s AGENTS.md still in `text` (a file of the
 * loadout, any of them: an author may have moved it): each line that holds its sentence, "Write
 * the instructions every agent should follow here…" (issue 57, point 9: an AGENTS.md left as
 * the scaffold wrote it passed every check). Pure; linear in `text`.
 */
export function findTextPlaceholders(text: string): TextPlaceholder[] {
  const expected = 'the instructions every agent should follow in projects of this stack: how to build and test, conventions, and what to avoid';
  return text.split('\n').flatMap((line, index) => (line.includes(INSTRUCTIONS_MARK) ? [{ line: index + 1, expected }] : []));
}

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
    summary: `${SUMMARY_START}${title}${SUMMARY_END}`,
    description: `${DESCRIPTION_START}${title}${DESCRIPTION_END}`,
    highlights: [HIGHLIGHT],
    version: '0.1.0',
    license: 'MIT',
    author: { name: AUTHOR },
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
    ['AGENTS.md', `# ${title}\n\n${INSTRUCTIONS}\n`],
    ...ADAPTER_AGENTS.map((agent): [string, string] => [adapterFileName(agent), generateAdapter(agent, title)]),
  ]);
}
