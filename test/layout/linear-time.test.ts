/**
 * The install layout runs in time linear in a loadout's text (issue 53, point 8): `layoutInstall`
 * for all six agents sharing one project (links and `@` imports rewritten, rules translated and
 * composed into sections or imported, subagents converted, MCP files put in each agent's shape
 * with their variables rewritten), on a loadout whose AGENTS.md, rule body, skill, subagent or
 * MCP value is pumped. An unsigned catalogue's AGENTS.md of `<img src` repeated 40,000 times held
 * `install --agent claude-code` for 45 s. Each pump is read off a pattern of `src/layout/` or of
 * the catalogue patterns the layout uses (named in `rule`). Four times the input may take at
 * most 12 times the CPU time (test/helpers/linear-time.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { layoutInstall, type LoadoutFiles } from '../../src/layout/installed-files.js';
import { findVariables, replaceVariables, wholeVariable } from '../../src/layout/mcp-variables.js';
import { agentPluginsMcp } from '../../src/layout/plugin-manifests.js';
import { growthRatio, measureGrowth, pumped, pumpsOf, RATIO, timed, type TextPump } from '../helpers/linear-time.js';

/** Which file of the loadout holds the pumped text. */
type Place = 'AGENTS.md' | 'rules/style.md' | 'skills/s/SKILL.md' | 'agents/rev.md' | 'mcp/servers.json';

const entry = (path: string, role: FileEntry['role'], more: Partial<FileEntry> = {}): FileEntry => ({ path, role, description: path, ...more });
const FILES: FileEntry[] = [
  entry('AGENTS.md', 'instructions'),
  entry('CLAUDE.md', 'adapter', { agent: 'claude-code' }),
  entry('GEMINI.md', 'adapter', { agent: 'gemini-cli' }),
  entry('rules/style.md', 'rules'),
  entry('skills/s/SKILL.md', 'skill', { skill: 's' }),
  entry('agents/rev.md', 'subagent'),
  entry('mcp/servers.json', 'mcp'),
];

/** The loadout's files, the pumped one holding `body`. */
function loadoutWith(place: Place, body: string): LoadoutFiles {
  const texts: Record<string, string> = {
    'AGENTS.md': '# Kit\n\nStyle: [style](rules/style.md). Skill: [s](skills/s/SKILL.md).\n',
    'CLAUDE.md': '@AGENTS.md\n',
    'GEMINI.md': '@AGENTS.md\n',
    'rules/style.md': '---\nglobs: ["**/*.ts"]\n---\n\nSee [the skill](../skills/s/SKILL.md).\n',
    'skills/s/SKILL.md': '---\nname: s\ndescription: S.\n---\n\nFollow [style](../../rules/style.md).\n',
    'agents/rev.md': '---\nname: rev\ndescription: R.\n---\n\nReview.\n',
    'mcp/servers.json': `${JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'], env: { TOKEN: '${TOKEN}' } } } })}\n`,
  };
  texts[place] = place === 'mcp/servers.json' ? `${JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp', body], env: { TOKEN: body } } } })}\n` : `${texts[place]}\n${body}\n`;
  return { id: 'kit', version: '1.0.0', files: FILES, text: (p) => texts[p], rawUrl: (p) => `https://cat.test/raw/kit/1.0.0/${p}` };
}

const MARKDOWN: Place[] = ['AGENTS.md', 'rules/style.md', 'skills/s/SKILL.md', 'agents/rev.md'];

const PUMPS: { pump: TextPump; places: Place[] }[] = [
  ...[
    ...pumpsOf('references/html', ['', '<img src', ''], ['', '<a href=', ''], ['', '<a href="x"', ''], ['', '<img title="<a href=', '']),
    ...pumpsOf('references/inline', ['', '[x](<', ''], ['', '[a](rules/style.md)', ''], ['', '[a](b.md)', ''], ['', '[a](../', ''], ['', '[a](', ''], ['[a](', 'a/../', 'rules/style.md)']),
    ...pumpsOf('references/import', ['', '@rules/style.md\n', ''], ['', ' @../x', ''], ['', ' @skills/s/', ''], ['', '@agents/rev.md ', ''], ['', '`', ' @../x']),
    ...pumpsOf('rewrite/lines', ['', '\n[a](../x)', ''], ['', '[a](zz.md)\n', ''], ['', '[a](skills/)\n', '']),
    ...pumpsOf('generic', ['', ' ', 'x'], ['', '\n', 'x'], ['', '@', ''], ['', '<', ''], ['', '[', ''], ['', '`', ''], ['', '-', '']),
  ].map((pump) => ({ pump, places: MARKDOWN })),
  ...pumpsOf('mcp/variables', ['', '${a:-', ''], ['', '${', ''], ['${a:-', '$', ''], ['', '$', ''], ['', '${env:', ''], ['', '${a', ''], ['', '${PLUGIN_ROOT}', '${']).map((pump) => ({ pump, places: ['mcp/servers.json'] as Place[] })),
];

/** Lays the loadout out for every agent, as a project of all six reads it; returns a count so that nothing is optimised away. */
function layOut(loadout: LoadoutFiles): number {
  let written = 0;
  for (const agent of PUBLISHED_AGENTS) {
    const installed = layoutInstall(loadout, agent, { sharing: PUBLISHED_AGENTS });
    for (const { entry: file } of installed.plan.files) written += installed.text(file.path)?.length ?? 0;
  }
  return written;
}

const cases = PUMPS.flatMap(({ pump, places }) => places.map((place) => ({ pump, place, name: `${pump.rule}: ${JSON.stringify(pump.prefix)} + ${JSON.stringify(pump.pump)}×n + ${JSON.stringify(pump.suffix)} (${place})` })));

describe('the install layout runs in linear time on pumped inputs', () => {
  it.each(cases)('$name', ({ pump, place }) => {
    const growth = measureGrowth((bytes) => timed(() => layOut(loadoutWith(place, pumped(pump, bytes)))));
    expect(growthRatio(growth), `${growth.small.toFixed(1)} ms at 25 KB, ${growth.large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });

  it.each(pumpsOf('mcp/variables', ['', '${a:-', ''], ['', '${', ''], ['', '${a', ''], ['${a:-', '$', ''], ['', '${a:-}', '']))('the variables of an MCP value: $prefix + $pump×n', (pump) => {
    const growth = measureGrowth((bytes) => {
      const value = pumped(pump, bytes);
      return timed(() => findVariables(value).length + replaceVariables(value, (r) => r.name).length + (wholeVariable(value)?.length ?? 0) + agentPluginsMcp({ docs: { command: 'npx', args: [value] } }).refused.length);
    });
    expect(growthRatio(growth), `${growth.small.toFixed(1)} ms at 25 KB, ${growth.large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });
});
