/**
 * Fixture catalogues written from short specs and built with the real `buildCatalogue`: the
 * page tests' (test/pages/fixture.ts) and the search and MCP tests' (test/search/fixture.ts)
 * are each a list of {@link LoadoutSpec}s given to {@link buildSpecCatalogue}.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout, type TestFile } from './loadouts.js';
import { commitAll, initRepo } from './temp.js';

/** A built fixture catalogue: the git repository `root`, its tree `dist`, the base URL it was built for. `remove` deletes everything. */
export interface SpecCatalogue {
  root: string;
  dist: string;
  baseUrl: string;
  remove(): void;
}

/** One loadout of a fixture: its manifest's fields and which files it has besides AGENTS.md and the adapters. */
export interface LoadoutSpec {
  id: string;
  title: string;
  summary: string;
  stacks: string[];
  categories: string[];
  updated: string;
  description?: string;
  highlights?: string[];
  featured?: boolean;
  deprecated?: boolean;
  author?: Record<string, string>;
  compatibility?: Record<string, string>;
  /** Skills, each `skills/<name>/SKILL.md`, with `references/<reference>.md` when named. */
  skills?: { name: string; description: string; reference?: string }[];
  /** Rules, each `rules/<name>.md`, scoped to `src/**` for every agent that scopes rules. */
  rules?: string[];
  /** A Postgres MCP server reading `${POSTGRES_URL}`, declared in `requires` and `security`. */
  mcp?: boolean;
  /** AGENTS.md (default: the title, the summary and one instruction). */
  agentsMd?: string;
  /** More files, as they are. */
  extra?: TestFile[];
  /** The manifest's `security`, when the files need another than the default (scripts listed, network). */
  security?: Record<string, unknown>;
}

function filesOf(spec: LoadoutSpec, agentsMd: string): TestFile[] {
  const files = baseFiles(spec.title, agentsMd);
  for (const rule of spec.rules ?? []) {
    files.push({ path: `rules/${rule}.md`, role: 'rules', description: `The ${rule} rule for ${spec.title}.`, content: `---\ndescription: The ${rule} rule.\nglobs: ["src/**"]\napplyTo: "src/**"\nalwaysApply: false\n---\n\n# ${rule}\n\nKeep it simple.\n` });
  }
  for (const skill of spec.skills ?? []) {
    const link = skill.reference === undefined ? '' : `\nSee [the reference](references/${skill.reference}.md).\n`;
    files.push({ path: `skills/${skill.name}/SKILL.md`, role: 'skill', skill: skill.name, description: skill.description, content: `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n# ${skill.name}\n\nFollow these steps.\n${link}` });
    if (skill.reference !== undefined) {
      files.push({ path: `skills/${skill.name}/references/${skill.reference}.md`, role: 'reference', skill: skill.name, description: `Reference tables for ${skill.name}.`, content: `# ${skill.reference}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n` });
    }
  }
  if (spec.mcp === true) {
    files.push({ path: 'mcp/servers.json', role: 'mcp', description: 'Postgres MCP server, read-only.', content: `${JSON.stringify({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${POSTGRES_URL}' } } } }, null, 2)}\n` });
  }
  return [...files, ...(spec.extra ?? [])];
}

function write(root: string, spec: LoadoutSpec, version: string, agentsMd: string): void {
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
      ...(spec.security === undefined ? {} : { security: spec.security }),
    },
  });
}

/** What {@link buildSpecCatalogue} does besides writing and building the specs. */
export interface SpecCatalogueOptions {
  /** The temporary folder's name starts with this. */
  prefix: string;
  baseUrl: string;
  /** Called on the repository after both commits, before the build (e.g. to add `docs/`). */
  beforeBuild?: (root: string) => void;
  /** The first spec as its 1.1.0 has it (default: the same spec, with an AGENTS.md that says to run `next build`). */
  second?: LoadoutSpec;
}

/**
 * Writes `specs` into a new git repository in a temporary folder, in two commits (every loadout
 * at 1.0.0 on 2026-01-01, then the first spec's at 1.1.0 on 2026-02-01, as `options.second` has
 * it or else with an AGENTS.md that says to run `next build`), and builds it into `dist/` for `baseUrl`, as of 2026-11-22.
 * @throws Error naming each loadout the build refused, with its failed checks and diagnostics
 *   (the fixture is broken); the temporary folder is removed first.
 */
export async function buildSpecCatalogue(specs: readonly LoadoutSpec[], options: SpecCatalogueOptions): Promise<SpecCatalogue> {
  const root = mkdtempSync(join(tmpdir(), options.prefix));
  const remove = (): void => rmSync(root, { recursive: true, force: true });
  try {
    initRepo(root);
    for (const spec of specs) write(root, spec, '1.0.0', spec.agentsMd ?? `# ${spec.title}\n\n${spec.summary}\n\nRun the tests before you commit.\n`);
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    commitAll(root, 'first versions', '2026-01-01T10:00:00Z');
    const [first] = specs;
    if (first !== undefined) {
      const next = options.second ?? first;
      write(root, next, '1.1.0', options.second?.agentsMd ?? `# ${next.title}\n\n${next.summary}\n\nVersion 1.1: run \`next build\` before you commit.\n`);
      commitAll(root, `${first.id} 1.1.0: run next build`, '2026-02-01T10:00:00Z');
    }
    options.beforeBuild?.(root);
    const dist = join(root, 'dist');
    const result = await buildCatalogue({ root, out: dist, baseUrl: options.baseUrl, now: new Date('2026-11-22T00:00:00Z') });
    if (!result.written && result.bundleDiagnostics.length > 0) throw new Error(`fixture build refused bundles: ${JSON.stringify(result.bundleDiagnostics)}`);
    if (!result.written) {
      const refused = result.runs.filter((r) => result.refused.includes(r.source.id)).map((r) => ({ id: r.source.id, failed: r.results.filter((c) => c.status === 'fail'), diagnostics: r.diagnostics }));
      throw new Error(`fixture build refused ${result.refused.join(', ')}: ${JSON.stringify(refused)}`);
    }
    return { root, dist, baseUrl: options.baseUrl, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
