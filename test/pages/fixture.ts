/**
 * The catalogue the page tests run against: seven loadouts across agents, categories, stacks,
 * featured and deprecated, skills, rules and MCP, one with two versions in git, and one whose
 * every text field and file holds markup that must show as text (`<script>`, `onerror=`,
 * `javascript:` links), with the repository's own guides as `docs/`. Built into a temporary git
 * repository with the real `buildCatalogue` (../helpers/spec-catalogue.ts).
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSpecCatalogue, type LoadoutSpec, type SpecCatalogue } from '../helpers/spec-catalogue.js';

/** The built fixture. `remove` deletes everything. */
export type PagesFixture = SpecCatalogue;

/** The id of the loadout full of markup. */
export const HOSTILE_ID = 'markup-everywhere';
/** Its title, which must show as this text. */
export const HOSTILE_TITLE = '<img src=AGENTS.md onerror="window.__pwned=1">';
/** A line of its AGENTS.md, which must show as this text. */
export const HOSTILE_SCRIPT = '<script>window.__pwned = 2</script>';

const HOSTILE_MD = `# Markup everywhere

${HOSTILE_SCRIPT}
<img src onerror="window.__pwned = 3">
<a href="javascript:window.__pwned = 4">a link</a> and [another](javascript:window.__pwned=5).
<iframe src="https://example.com"></iframe>
Run the tests before you commit.
`;

/** The one skill of the loadouts that have one. */
const ADD_THING = [{ name: 'add-thing', description: 'Add a thing with tests.', reference: 'notes' }];

export const SPECS: LoadoutSpec[] = [
  { id: 'nextjs-app-router', title: 'Next.js App Router', summary: 'Instructions, rules and an add-route skill for Next.js App Router projects with React Server Components.', stacks: ['nextjs', 'react', 'typescript'], categories: ['web-app'], updated: '2026-11-01', featured: true, skills: ADD_THING, rules: ['style'] },
  { id: 'fastapi-service', title: 'FastAPI Service', summary: 'A Python web API on FastAPI with Pydantic models, async SQLAlchemy and pytest.', stacks: ['python', 'fastapi'], categories: ['web-app'], updated: '2026-10-05', rules: ['style'], skills: ADD_THING },
  // Its AGENTS.md installs a tool with the system package manager: a notice of the safety check, not a failure.
  { id: 'godot-gdscript', title: 'Godot 4 GDScript Game', summary: 'Scenes, signals and typed GDScript conventions for 2D games made with the Godot 4 engine.', stacks: ['godot', 'gdscript'], categories: ['gamedev'], updated: '2026-07-12', skills: ADD_THING, agentsMd: '# Godot 4 GDScript Game\n\nInstall the formatter first:\n\n```sh\nsudo apt-get install gdtoolkit\n```\n\nRun the tests before you commit.\n' },
  { id: 'dbt-analytics', title: 'dbt Analytics on PostgreSQL', summary: 'Staging, marts and tests for analytics engineering with dbt on a PostgreSQL warehouse.', stacks: ['dbt', 'sql'], categories: ['data'], updated: '2026-09-01', mcp: true },
  { id: 'langchain-agents', title: 'LangChain Agents in Python', summary: 'Tool-calling agents with LangChain and LangGraph in Python, with evaluation and tracing.', stacks: ['python', 'langchain'], categories: ['ai-agents'], updated: '2026-02-02', compatibility: { cursor: 'unsupported' } },
  { id: 'vue-legacy', title: 'Vue 2 Options API (legacy)', summary: 'Guidance for older Vue 2 projects written with the Options API and Vuex stores.', stacks: ['vue'], categories: ['web-app'], updated: '2025-03-10', deprecated: true },
  {
    id: HOSTILE_ID,
    title: HOSTILE_TITLE,
    summary: 'Summary with <script>window.__pwned=6</script> and <b onmouseover="x()">bold</b> markup.',
    description: 'A description with <img src=x onerror=alert(7)> and a javascript:alert(8) address in it.',
    highlights: ['<svg onload="window.__pwned=9">', 'Quotes " and \' and & ampersands'],
    stacks: ['html'],
    categories: ['security'],
    updated: '2026-06-01',
    author: { name: '<em>Mallory</em>', url: 'javascript:alert(10)' },
    agentsMd: HOSTILE_MD,
    extra: [{ path: 'rules/markup.md', role: 'rules', description: '<b>bold</b> rule description', content: `---\ndescription: Markup rule\nglobs: ["**/*.html"]\napplyTo: "**/*.html"\n---\n\n<script>window.__pwned = 11</script>\n` }],
  },
];

/**
 * Writes the fixture into a git repository (two commits: `nextjs-app-router` 1.0.0, then
 * 1.1.0), adds the repository's own guides as `docs/` (the site carries them as pages,
 * docs/<name>/) and builds it for `baseUrl`.
 * @throws Error when the build refuses a loadout (the fixture is broken).
 */
export function buildPagesFixture(baseUrl: string): Promise<PagesFixture> {
  return buildSpecCatalogue(SPECS, {
    prefix: 'loadout-pages-',
    baseUrl,
    beforeBuild: (root) => cpSync(fileURLToPath(new URL('../../docs', import.meta.url)), join(root, 'docs'), { recursive: true }),
  });
}
