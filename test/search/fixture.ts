/**
 * A realistic fixture catalogue for the search and MCP tests: fifteen loadouts across the
 * categories, two look-alike pairs that differ only by `featured` or `deprecated`, skills with
 * references, rules and an MCP configuration, and a git history in which `nextjs-app-router`
 * has two versions (1.0.0, then 1.1.0). Built once per test file into a temporary folder
 * (../helpers/spec-catalogue.ts).
 */
import { buildSpecCatalogue, type LoadoutSpec, type SpecCatalogue } from '../helpers/spec-catalogue.js';

/** The built fixture. `remove` deletes everything. */
export type FixtureCatalogue = SpecCatalogue;

const SPECS: LoadoutSpec[] = [
  { id: 'nextjs-app-router', title: 'Next.js App Router', summary: 'Instructions, rules and an add-route skill for Next.js App Router projects with React Server Components.', stacks: ['nextjs', 'react', 'typescript'], categories: ['web-app'], updated: '2026-11-01', featured: true, skills: [{ name: 'add-route', description: 'Add a page, layout or Route Handler with metadata, loading and error states.', reference: 'file-conventions' }], rules: ['server-components'] },
  { id: 'nextjs-pages-legacy', title: 'Next.js Pages Router (legacy)', summary: 'Guidance for older Next.js projects on the Pages Router with getServerSideProps and API routes.', stacks: ['nextjs', 'react'], categories: ['web-app'], updated: '2025-03-10', deprecated: true },
  { id: 'react-vite-spa', title: 'React Vite Single Page App', summary: 'A React single page application built with Vite, React Router and Vitest, in strict TypeScript.', stacks: ['react', 'vite', 'typescript'], categories: ['web-app'], updated: '2026-10-20' },
  { id: 'tailwind-design-system', title: 'Tailwind CSS Design System', summary: 'Design tokens, component recipes and accessibility rules for a Tailwind CSS design system.', stacks: ['tailwindcss', 'css'], categories: ['web-app'], updated: '2026-09-15', rules: ['tokens'] },
  { id: 'fastapi-service', title: 'FastAPI Service', summary: 'A Python web API on FastAPI with Pydantic models, async SQLAlchemy and pytest.', stacks: ['python', 'fastapi', 'pydantic'], categories: ['web-app'], updated: '2026-10-05', rules: ['api-style'], skills: [{ name: 'add-endpoint', description: 'Add a FastAPI endpoint with request and response models and tests.' }] },
  { id: 'django-rest', title: 'Django REST Framework API', summary: 'Serializers, viewsets, permissions and tests for a REST API built with Django REST Framework.', stacks: ['python', 'django'], categories: ['web-app'], updated: '2026-08-01' },
  { id: 'godot-gdscript', title: 'Godot 4 GDScript Game', summary: 'Scenes, signals and typed GDScript conventions for 2D games made with the Godot 4 engine.', stacks: ['godot', 'gdscript'], categories: ['gamedev'], updated: '2026-07-12', skills: [{ name: 'add-scene', description: 'Create a Godot scene with a typed script and signals.' }] },
  { id: 'unity-csharp', title: 'Unity C# Gameplay', summary: 'Gameplay code in C# for Unity projects: MonoBehaviour lifecycle, ScriptableObjects and play mode tests.', stacks: ['unity', 'csharp'], categories: ['gamedev'], updated: '2026-06-30' },
  { id: 'secure-code-review', title: 'Secure Code Review', summary: 'A security review procedure for pull requests: OWASP Top 10 checks, secrets and dependency audit.', stacks: ['owasp', 'semgrep'], categories: ['security'], updated: '2026-10-30', featured: true, skills: [{ name: 'threat-model', description: 'Write a short threat model for a change before reviewing it.', reference: 'stride' }] },
  { id: 'discord-bot-ts', title: 'Discord Bot in TypeScript', summary: 'Slash commands, events and sharding for a Discord bot written with discord.js and TypeScript.', stacks: ['discordjs', 'typescript', 'nodejs'], categories: ['bots'], updated: '2026-05-01' },
  { id: 'chrome-extension-mv3', title: 'Chrome Extension Manifest V3', summary: 'Service workers, content scripts and permissions for Chrome extensions on Manifest V3.', stacks: ['chrome', 'javascript'], categories: ['browser-extension'], updated: '2026-04-11' },
  { id: 'dbt-analytics', title: 'dbt Analytics on PostgreSQL', summary: 'Staging, marts and tests for analytics engineering with dbt on a PostgreSQL warehouse.', stacks: ['dbt', 'sql', 'postgresql'], categories: ['data'], updated: '2026-09-01', mcp: true },
  { id: 'github-actions-ci', title: 'GitHub Actions CI', summary: 'Workflows for continuous integration: caching, matrix builds, pinned actions and least privilege tokens.', stacks: ['github-actions', 'yaml'], categories: ['workflow'], updated: '2026-03-03' },
  { id: 'mcp-server-builder', title: 'MCP Server Builder', summary: 'Build Model Context Protocol servers in TypeScript with tools, resources and tests.', stacks: ['mcp', 'typescript', 'nodejs'], categories: ['ai-agents'], updated: '2026-10-10', skills: [{ name: 'add-tool', description: 'Add an MCP tool with a zod input schema and tests.' }] },
  { id: 'langchain-agents', title: 'LangChain Agents in Python', summary: 'Tool-calling agents with LangChain and LangGraph in Python, with evaluation and tracing.', stacks: ['python', 'langchain'], categories: ['ai-agents'], updated: '2026-02-02', compatibility: { cursor: 'unsupported' } },
  // Look-alike pairs: the same text, so only the flags can order them.
  { id: 'vue-starter-a', title: 'Vue Starter', summary: 'A starter for Vue 3 applications with Pinia, Vue Router and Vitest.', stacks: ['vue'], categories: ['web-app'], updated: '2026-01-01', deprecated: true },
  { id: 'vue-starter-b', title: 'Vue Starter', summary: 'A starter for Vue 3 applications with Pinia, Vue Router and Vitest.', stacks: ['vue'], categories: ['web-app'], updated: '2026-01-01' },
  { id: 'svelte-kit-a', title: 'SvelteKit App', summary: 'Routing, load functions and form actions for SvelteKit applications.', stacks: ['svelte'], categories: ['web-app'], updated: '2026-01-01' },
  { id: 'svelte-kit-b', title: 'SvelteKit App', summary: 'Routing, load functions and form actions for SvelteKit applications.', stacks: ['svelte'], categories: ['web-app'], updated: '2026-01-01', featured: true },
];

/** Ids of the fixture, for assertions. */
export const FIXTURE_IDS = SPECS.map((s) => s.id);

/**
 * Writes the fixture into a git repository with two commits and builds it for `baseUrl`.
 * @throws Error when the build refuses a loadout (the fixture is broken).
 */
export function buildFixtureCatalogue(baseUrl = 'http://localhost:8787'): Promise<FixtureCatalogue> {
  return buildSpecCatalogue(SPECS, { prefix: 'loadout-search-', baseUrl });
}
