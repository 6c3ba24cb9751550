/**
 * A fixture catalogue with bundles (issue 56), built from a real git repository in which the
 * members have several versions and a bundle has two: what the tests of the bundle record, list,
 * pages, search, MCP and plugin read (../helpers/spec-catalogue.ts builds and commits it).
 *
 * History: every loadout at 1.0.0 (2026-01-01); `nextjs-app-router` 1.1.0 (2026-02-01);
 * `web-team-stack` 1.0.0 naming nextjs-app-router `^1.0` and secure-code-review `^1`, and
 * `data-team-stack` 1.0.0 (2026-03-01); `secure-code-review` 2.0.0 (2026-03-15), outside the
 * web team's range; `web-team-stack` 1.1.0, which adds github-actions-ci `~1.0.0` and takes
 * nextjs-app-router at `^1.1` (2026-04-01).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildSpecCatalogue, type LoadoutSpec, type SpecCatalogue } from './spec-catalogue.js';
import { commitAll } from './temp.js';

export const BUNDLE_SPECS: LoadoutSpec[] = [
  { id: 'nextjs-app-router', title: 'Next.js App Router', summary: 'Instructions, rules and an add-route skill for Next.js App Router projects with React Server Components.', stacks: ['nextjs', 'react', 'typescript'], categories: ['web-app'], updated: '2026-11-01', featured: true, skills: [{ name: 'add-route', description: 'Add a page, layout or Route Handler with metadata, loading and error states.' }], rules: ['server-components'] },
  { id: 'secure-code-review', title: 'Secure Code Review', summary: 'A security review procedure for pull requests: OWASP Top 10 checks, secrets and dependency audit.', stacks: ['owasp', 'semgrep'], categories: ['security'], updated: '2026-10-30', skills: [{ name: 'threat-model', description: 'Write a short threat model for a change before reviewing it.' }] },
  { id: 'github-actions-ci', title: 'GitHub Actions CI', summary: 'Workflows for continuous integration: caching, matrix builds, pinned actions and least privilege tokens.', stacks: ['github-actions', 'yaml'], categories: ['workflow'], updated: '2026-03-03' },
  { id: 'dbt-analytics', title: 'dbt Analytics on PostgreSQL', summary: 'Staging, marts and tests for analytics engineering with dbt on a PostgreSQL warehouse.', stacks: ['dbt', 'sql'], categories: ['data'], updated: '2026-09-01', mcp: true },
  { id: 'fastapi-service', title: 'FastAPI Service', summary: 'A Python web API on FastAPI with Pydantic models, async SQLAlchemy and pytest.', stacks: ['python', 'fastapi'], categories: ['web-app'], updated: '2026-10-05', rules: ['api-style'] },
  { id: 'godot-gdscript', title: 'Godot 4 GDScript Game', summary: 'Scenes, signals and typed GDScript conventions for 2D games made with the Godot 4 engine.', stacks: ['godot', 'gdscript'], categories: ['gamedev'], updated: '2026-07-12' },
];

/** A bundle's manifest for the fixtures: `members` as `[id, range, agents?]`. */
export function bundleManifest(id: string, title: string, version: string, members: readonly (readonly [string, string, string[]?])[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title,
    summary: `${title}: the loadouts a team installs together, each at the versions it was checked with.`,
    description: `${title} brings its loadouts in one install. Each is taken at a range of versions, so that a new major version comes with a new version of the bundle.`,
    version,
    license: 'MIT',
    author: { name: 'Bundle Author', url: 'https://example.com/bundles' },
    loadouts: members.map(([member, range, agents]) => ({ id: member, range, ...(agents === undefined ? {} : { agents }) })),
    ...extra,
  };
}

/** Writes `bundles/<id>/bundle.yaml` of `root` from a manifest object (or raw text). */
export function writeBundle(root: string, id: string, manifest: Record<string, unknown> | string): void {
  mkdirSync(join(root, 'bundles', id), { recursive: true });
  writeFileSync(join(root, 'bundles', id, 'bundle.yaml'), typeof manifest === 'string' ? manifest : stringify(manifest));
}

/** Moves loadout `id` of `root` to `version`, with a new line in its AGENTS.md. */
export function bumpLoadout(root: string, id: string, version: string): void {
  const manifest = join(root, 'loadouts', id, 'loadout.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^version: .*$/mu, `version: ${version}`));
  const agents = join(root, 'loadouts', id, 'AGENTS.md');
  writeFileSync(agents, `${readFileSync(agents, 'utf8')}\nVersion ${version}: review every change twice.\n`);
}

/** Writes the bundles' history of the module comment into `root` (the specs at 1.0.0 and nextjs-app-router 1.1.0 committed). */
export function writeBundleHistory(root: string): void {
  writeBundle(root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.0.0', [['nextjs-app-router', '^1.0'], ['secure-code-review', '^1']]));
  writeBundle(root, 'data-team-stack', bundleManifest('data-team-stack', 'Data Team Stack', '1.0.0', [['dbt-analytics', '^1.0'], ['fastapi-service', '^1', ['codex', 'cursor']]]));
  commitAll(root, 'web-team-stack and data-team-stack 1.0.0', '2026-03-01T10:00:00Z');
  bumpLoadout(root, 'secure-code-review', '2.0.0');
  commitAll(root, 'secure-code-review 2.0.0', '2026-03-15T10:00:00Z');
  writeBundle(root, 'web-team-stack', bundleManifest('web-team-stack', 'Web Team Stack', '1.1.0', [['nextjs-app-router', '^1.1'], ['secure-code-review', '^1'], ['github-actions-ci', '~1.0.0']]));
  commitAll(root, 'web-team-stack 1.1.0: adds github-actions-ci', '2026-04-01T10:00:00Z');
}

/** Builds the fixture of the module comment for `baseUrl`. */
export function buildBundleCatalogue(baseUrl: string, prefix = 'loadout-bundles-'): Promise<SpecCatalogue> {
  return buildSpecCatalogue(BUNDLE_SPECS, { prefix, baseUrl, beforeBuild: writeBundleHistory });
}
