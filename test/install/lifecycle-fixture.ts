/**
 * A catalogue for the life-cycle tests: loadout `kit` in a real git repository with two
 * versions, built and served by the app `loadout serve` runs, on 127.0.0.1.
 *
 * 1.0.0: AGENTS.md, both adapters, rules/style.md (scoped), rules/old.md (always applies),
 *        skill `review` (SKILL.md and references/checklist.md), subagent agents/reviewer.md,
 *        mcp/servers.json with the server `kit-docs`.
 * 1.1.0: AGENTS.md and rules/style.md changed, rules/old.md gone, references/new.md added,
 *        `kit-docs` changed and `kit-search` added.
 * Commit subjects: "kit 1.0.0", "Clarify the checklist" (still 1.0.0), "kit 1.1.0",
 * "Add the search server" (still 1.1.0).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

export const BASE = 'http://catalogue.test';

const styleRule = (body: string): TestFile => ({ path: 'rules/style.md', role: 'rules', content: `---\ndescription: Style for TypeScript files\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\npaths: ["**/*.ts"]\n---\n\n${body}\n` });
const oldRule: TestFile = { path: 'rules/old.md', role: 'rules', content: '---\ndescription: Always applies\nalwaysApply: true\napplyTo: "**"\n---\n\nWrite small commits.\n' };
const skill = (checklist: string): TestFile[] => [
  { path: 'skills/review/SKILL.md', role: 'skill', skill: 'review', content: '---\nname: review\ndescription: Reviews a change against the checklist.\n---\n\n# Review\n\nFollow [the checklist](references/checklist.md).\n' },
  { path: 'skills/review/references/checklist.md', role: 'reference', skill: 'review', content: `# Checklist\n\n${checklist}\n` },
];
const subagent: TestFile = { path: 'agents/reviewer.md', role: 'subagent', content: '---\nname: reviewer\ndescription: Reviews pull requests.\n---\n\nYou review pull requests.\n' };
const mcp = (servers: Record<string, unknown>): TestFile => ({ path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: servers }, null, 2)}\n` });
const DOCS_V1 = { command: 'npx', args: ['-y', 'kit-docs@1'], env: {} };
const DOCS_V2 = { command: 'npx', args: ['-y', 'kit-docs@2'], env: {} };
const SEARCH = { command: 'npx', args: ['-y', 'kit-search@1'], env: {} };

// npx fetches the servers' packages: the loadout uses the network and says so.
const manifest = (servers: string[]): Record<string, unknown> => ({ requires: { tools: [], env: [], mcp: servers }, security: { scanned: true, network: true, scripts: [] } });

/** The files of 1.0.0 and 1.1.0. */
export const V1: TestFile[] = [...baseFiles('Kit', '# Kit\n\nVersion one.\n'), styleRule('Use strict mode.'), oldRule, ...skill('- Tests pass.'), subagent, mcp({ 'kit-docs': DOCS_V1 })];
export const V2: TestFile[] = [
  ...baseFiles('Kit', '# Kit\n\nVersion two.\n'),
  styleRule('Use strict mode. No any.'),
  ...skill('- Tests pass.\n- Docs updated.'),
  { path: 'skills/review/references/new.md', role: 'reference', skill: 'review', content: '# New\n\nA new reference.\n' },
  subagent,
  mcp({ 'kit-docs': DOCS_V2, 'kit-search': SEARCH }),
];

/** The content of `path` in `files`. */
export function contentOf(files: readonly TestFile[], path: string): string {
  const file = files.find((f) => f.path === path);
  if (file === undefined) throw new Error(`no ${path} in the fixture`);
  return file.content;
}

/** The servers of each version, as their install merges them. */
export const SERVERS = { v1: { 'kit-docs': DOCS_V1 }, v2: { 'kit-docs': DOCS_V2, 'kit-search': SEARCH } };

/** The catalogue's repository and built tree. */
export interface LifecycleCatalogue {
  root: string;
  dist: string;
}

/** Writes, commits and builds the two versions in `root` (a fresh folder; default a temporary one removed after the test). `subject` overrides the subject of the 1.1.0 commit. */
export async function buildLifecycleCatalogue(root = makeTempDir('loadout-lifecycle-'), subject = 'kit 1.1.0'): Promise<LifecycleCatalogue> {
  initRepo(root);
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0', files: V1, manifest: manifest(['kit-docs']) });
  const checklist = join(root, 'loadouts/kit/skills/review/references/checklist.md');
  writeFileSync(checklist, '# Checklist\n\n- Tests.\n');
  commitAll(root, 'kit 1.0.0', '2026-01-10T10:00:00Z');
  // Still 1.0.0: its published files are the last ones before the bump, so this is in them.
  writeFileSync(checklist, contentOf(V1, 'skills/review/references/checklist.md'));
  commitAll(root, 'Clarify the checklist', '2026-01-11T10:00:00Z');
  rmSync(join(root, 'loadouts/kit/rules/old.md'));
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.1.0', files: V2.filter((f) => f.path !== 'mcp/servers.json').concat(mcp({ 'kit-docs': DOCS_V2 })), manifest: manifest(['kit-docs']) });
  commitAll(root, subject, '2026-02-20T10:00:00Z');
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.1.0', files: V2, manifest: manifest(['kit-docs', 'kit-search']) });
  commitAll(root, 'Add the search server', '2026-02-21T10:00:00Z');
  const dist = join(root, 'dist');
  const result = await buildCatalogue({ root, out: dist, baseUrl: BASE });
  if (result.refused.length > 0) throw new Error(`fixture refused: ${JSON.stringify(result.runs.flatMap((r) => r.results.filter((c) => c.status === 'fail')))}`);
  return { root, dist };
}

/** Serves `dist` with the app of `loadout serve` on an ephemeral port; closed when the test ends. Returns its base URL. */
export async function serveCatalogue(dist: string): Promise<string> {
  const server = await listen(createApp({ distDir: dist, baseUrl: BASE, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  onTestFinished(() => server.close());
  return server.url;
}
