/**
 * The catalogue the page tests run against: seven loadouts across agents, categories, stacks,
 * featured and deprecated, skills, rules and MCP, one with two versions in git, and one whose
 * every text field and file holds markup that must show as text (`<script>`, `onerror=`,
 * `javascript:` links). Built into a temporary git repository with the real `buildCatalogue`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';

/** The built fixture. `remove` deletes everything. */
export interface PagesFixture {
  root: string;
  dist: string;
  baseUrl: string;
  remove(): void;
}

/** The id of the loadout full of markup. */
export const HOSTILE_ID = 'markup-everywhere';
/** Its title, which must show as this text. */
export const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">';
/** A line of its AGENTS.md, which must show as this text. */
export const HOSTILE_SCRIPT = '<script>window.__pwned = 2</script>';

interface Spec {
  id: string;
  title: string;
  summary: string;
  stacks: string[];
  categories: string[];
  updated: string;
  featured?: boolean;
  deprecated?: boolean;
  skill?: boolean;
  rule?: boolean;
  mcp?: boolean;
  compatibility?: Record<string, string>;
  author?: Record<string, string>;
  description?: string;
  highlights?: string[];
  agentsMd?: string;
  extra?: TestFile[];
}

const HOSTILE_MD = `# Markup everywhere

${HOSTILE_SCRIPT}
<img src onerror="window.__pwned = 3">
<a href="javascript:window.__pwned = 4">a link</a> and [another](javascript:window.__pwned=5).
<iframe src="https://example.com"></iframe>
Run the tests before you commit.
`;

export const SPECS: Spec[] = [
  { id: 'nextjs-app-router', title: 'Next.js App Router', summary: 'Instructions, rules and an add-route skill for Next.js App Router projects with React Server Components.', stacks: ['nextjs', 'react', 'typescript'], categories: ['web-app'], updated: '2026-11-01', featured: true, skill: true, rule: true },
  { id: 'fastapi-service', title: 'FastAPI Service', summary: 'A Python web API on FastAPI with Pydantic models, async SQLAlchemy and pytest.', stacks: ['python', 'fastapi'], categories: ['web-app'], updated: '2026-10-05', rule: true, skill: true },
  // Its AGENTS.md installs a tool with the system package manager: a notice of the safety check, not a failure.
  { id: 'godot-gdscript', title: 'Godot 4 GDScript Game', summary: 'Scenes, signals and typed GDScript conventions for 2D games made with the Godot 4 engine.', stacks: ['godot', 'gdscript'], categories: ['gamedev'], updated: '2026-07-12', skill: true, agentsMd: '# Godot 4 GDScript Game\n\nInstall the formatter first:\n\n```sh\nsudo apt-get install gdtoolkit\n```\n\nRun the tests before you commit.\n' },
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

function git(dir: string, args: string[], date?: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test Author', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', args, { cwd: dir, env: date === undefined ? env : { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, stdio: 'ignore' });
}

function filesOf(spec: Spec, agentsMd?: string): TestFile[] {
  const files = baseFiles(spec.title, agentsMd ?? spec.agentsMd ?? `# ${spec.title}\n\n${spec.summary}\n\nRun the tests before you commit.\n`);
  if (spec.rule === true) files.push({ path: 'rules/style.md', role: 'rules', description: `Style rule for ${spec.title}.`, content: '---\ndescription: Style.\nglobs: ["src/**"]\napplyTo: "src/**"\n---\n\n# Style\n\nKeep functions small.\n' });
  if (spec.skill === true) {
    files.push({ path: 'skills/add-thing/SKILL.md', role: 'skill', skill: 'add-thing', description: 'Add a thing with tests.', content: '---\nname: add-thing\ndescription: Add a thing with tests.\n---\n\n# add-thing\n\nSee [the reference](references/notes.md).\n' });
    files.push({ path: 'skills/add-thing/references/notes.md', role: 'reference', skill: 'add-thing', description: 'Notes for add-thing.', content: '# Notes\n\n| a | b |\n|---|---|\n| 1 | 2 |\n' });
  }
  if (spec.mcp === true) {
    files.push({ path: 'mcp/servers.json', role: 'mcp', description: 'Postgres MCP server, read-only.', content: `${JSON.stringify({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${POSTGRES_URL}' } } } }, null, 2)}\n` });
  }
  return [...files, ...(spec.extra ?? [])];
}

function write(root: string, spec: Spec, version = '1.0.0', agentsMd?: string): void {
  writeLoadout(root, {
    id: spec.id,
    title: spec.title,
    version,
    files: filesOf(spec, agentsMd),
    manifest: {
      summary: spec.summary,
      description: spec.description ?? `${spec.summary} This loadout gives a coding agent the commands, conventions and checks for the job.`,
      highlights: spec.highlights ?? [`${spec.title} conventions`],
      stacks: spec.stacks,
      categories: spec.categories,
      updated: spec.updated,
      featured: spec.featured ?? false,
      deprecated: spec.deprecated ?? false,
      ...(spec.author === undefined ? {} : { author: spec.author }),
      ...(spec.compatibility === undefined ? {} : { compatibility: spec.compatibility }),
      ...(spec.mcp === true ? { requires: { tools: [], env: ['POSTGRES_URL'], mcp: ['postgres'] }, security: { scanned: true, network: true, scripts: [] } } : {}),
    },
  });
}

/**
 * Writes the fixture into a git repository (two commits: `nextjs-app-router` 1.0.0, then
 * 1.1.0) and builds it for `baseUrl`.
 * @throws Error when the build refuses a loadout (the fixture is broken).
 */
export async function buildPagesFixture(baseUrl: string): Promise<PagesFixture> {
  const root = mkdtempSync(join(tmpdir(), 'loadout-pages-'));
  const remove = (): void => rmSync(root, { recursive: true, force: true });
  try {
    git(root, ['init', '-q', '-b', 'main']);
    for (const spec of SPECS) write(root, spec);
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'first versions'], '2026-01-01T10:00:00Z');
    const nextjs = SPECS[0] as Spec;
    write(root, nextjs, '1.1.0', `# ${nextjs.title}\n\n${nextjs.summary}\n\nVersion 1.1: run \`next build\` before you commit.\n`);
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'nextjs-app-router 1.1.0: run next build'], '2026-02-01T10:00:00Z');
    // The repository's own guides, so the site carries them as pages (docs/<name>/).
    cpSync(fileURLToPath(new URL('../../docs', import.meta.url)), join(root, 'docs'), { recursive: true });
    const dist = join(root, 'dist');
    const result = await buildCatalogue({ root, out: dist, baseUrl, now: new Date('2026-11-22T00:00:00Z') });
    if (!result.written) throw new Error(`fixture build refused: ${result.refused.join(', ')}: ${JSON.stringify(result.runs.filter((r) => result.refused.includes(r.source.id)).map((r) => r.results.filter((c) => c.status === 'fail')))}`);
    return { root, dist, baseUrl, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
