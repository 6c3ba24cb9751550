/**
 * A catalogue of three loadouts for the composition tests, each in two versions (1.0.0 and
 * 1.1.0), built into a local tree: `alpha`, `beta` and `gamma`, each with AGENTS.md, the
 * Claude Code and Gemini CLI adapters, a rule, a skill and an MCP server of its own (those of
 * `alpha` and `beta` read the variable `SHARED_TOKEN`); `alpha` and `beta` also ship a skill of
 * the same name (`shared-tool`) with different text, so their whole files meet at one target.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { bundleManifest, writeBundle } from '../helpers/bundle-catalogue.js';

/** The loadouts of the catalogue. */
export const IDS = ['alpha', 'beta', 'gamma'] as const;
/** Their versions. */
export const VERSIONS = ['1.0.0', '1.1.0'] as const;
/**
 * The catalogue's bundles (issue 56), at 1.0.0: `pair` (alpha ^1.0, gamma ~1.1.0) and `duo`
 * (beta ~1.0.0, gamma ^1 for Claude Code and Cursor only); they meet at gamma 1.1.0, and a
 * single install of beta 1.1.0 or gamma 1.0.0 is out of a range. (alpha and beta put different
 * files at one target, so no bundle has both.)
 */
export const BUNDLES: Record<'pair' | 'duo', [string, string, string[]?][]> = { pair: [['alpha', '^1.0'], ['gamma', '~1.1.0']], duo: [['beta', '~1.0.0'], ['gamma', '^1', ['claude-code', 'cursor']]] };

function filesOf(id: string, version: string): TestFile[] {
  const files: TestFile[] = [
    ...baseFiles(id, `# ${id}\n\nInstructions of ${id}, version ${version}.\n`),
    { path: `rules/${id}-style.md`, role: 'rules', content: `---\ndescription: Style of ${id}\nalwaysApply: true\napplyTo: "**"\n---\n\nRule of ${id} ${version}.\n` },
    { path: `skills/${id}-review/SKILL.md`, role: 'skill', skill: `${id}-review`, content: `---\nname: ${id}-review\ndescription: Reviews for ${id}.\n---\n\n# Review ${version}\n` },
    // alpha and beta read one secret: VS Code gets one input for both, Codex passes it through (env_vars).
    { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { [`${id}-docs`]: { command: 'npx', args: [`${id}-docs@${version}`], ...(id === 'gamma' ? {} : { env: { SHARED_TOKEN: '${SHARED_TOKEN}' } }) } } }, null, 2)}\n` },
  ];
  if (id !== 'gamma') files.push({ path: 'skills/shared-tool/SKILL.md', role: 'skill', skill: 'shared-tool', content: `---\nname: shared-tool\ndescription: The tool of ${id}.\n---\n\n# Tool of ${id}\n` });
  return files;
}

/** Writes, commits and builds the catalogue in `root` (a fresh folder); returns the built tree. */
export async function buildComposeCatalogue(root: string): Promise<string> {
  mkdirSync(root, { recursive: true });
  initRepo(root);
  for (const [i, version] of VERSIONS.entries()) {
    for (const id of IDS) writeLoadout(root, { id, title: id, version, files: filesOf(id, version), manifest: { requires: { tools: [], env: id === 'gamma' ? [] : ['SHARED_TOKEN'], mcp: [`${id}-docs`] }, security: { scanned: true, network: true, scripts: [] } } });
    commitAll(root, `all ${version}`, `2026-0${i + 1}-10T10:00:00Z`);
  }
  for (const [id, members] of Object.entries(BUNDLES)) writeBundle(root, id, bundleManifest(id, id, '1.0.0', members));
  commitAll(root, 'bundles 1.0.0', '2026-03-10T10:00:00Z');
  const dist = join(root, 'dist');
  const result = await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  if (result.refused.length > 0) throw new Error(`fixture refused: ${JSON.stringify(result.runs.flatMap((r) => r.results.filter((c) => c.status === 'fail')))}`);
  return dist;
}
