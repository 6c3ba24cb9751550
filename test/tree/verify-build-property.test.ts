/**
 * A loadout that passes `verify` builds (issue 53, point 5), by property (fast-check): random
 * loadouts of skills with references in nested folders, subagents, rules and MCP files, drawn
 * from small pools of names that collide on purpose (one base name in two folders, names that differ only in case, front-matter names that are no file name, one
 * server name in two files, install_to overrides that take the install layout's clashes away),
 * are checked as `loadout verify` checks them; whenever every check passes, the build of that
 * loadout into a temporary tree is written and holds its record, its six agent zips and
 * source zip, its plugin folder and zip, and its Agent Skills discovery index.
 *
 * Runs 25 loadouts by default (a build of one loadout takes about half a second);
 * `LOADOUT_PROPERTY_RUNS=N` runs N. A failure prints fast-check's seed and path
 * (`LOADOUT_PROPERTY_SEED` and `LOADOUT_PROPERTY_PATH` replay it) and the loadout's files.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

const ID = 'drawn';
const BASE = 'https://catalogue.test';

/** install_to for every authoring agent, each target named after `stem` (or null: not installed). */
function overrides(kind: 'subagent' | 'rules', stem: string | null): Record<string, string | null> {
  if (stem === null) return { 'claude-code': null, cursor: null, 'gemini-cli': null, copilot: null, codex: null };
  if (kind === 'subagent') return { 'claude-code': `.claude/agents/${stem}.md`, cursor: `.cursor/agents/${stem}.md`, 'gemini-cli': `.gemini/agents/${stem}.md`, copilot: `.github/agents/${stem}.agent.md`, codex: `.codex/agents/${stem}.toml` };
  return { 'claude-code': `.claude/rules/${stem}.md`, cursor: `.cursor/rules/${stem}.mdc`, 'gemini-cli': `.gemini/rules/${stem}.md`, copilot: `.github/instructions/${stem}.instructions.md` };
}

/** How a file's install targets are given: the default layout, its own targets, or none. */
const placement = fc.oneof({ weight: 1, arbitrary: fc.constant('default' as const) }, { weight: 3, arbitrary: fc.constant('apart' as const) }, { weight: 1, arbitrary: fc.constant('none' as const) });
const stemOf = (path: string): string => path.replace(/\.[^./]*$/u, '').replaceAll('/', '-');
const withPlacement = (file: TestFile, kind: 'subagent' | 'rules', how: 'default' | 'apart' | 'none'): TestFile => (how === 'default' ? file : { ...file, install_to: overrides(kind, how === 'none' ? null : stemOf(file.path)) });

const skill: fc.Arbitrary<TestFile[]> = fc
  .record({
    name: fc.constantFrom('lint', 'add-test', 'a'),
    // The SKILL.md's name should be its folder's: sometimes it is not.
    misnamed: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 7, arbitrary: fc.constant(false) }),
    references: fc.subarray(['references/checklist.md', 'checklist.md', 'deep/nested/notes.md', 'references/Checklist.md', 'templates/form.txt']),
  })
  .map(({ name, misnamed, references }) => [
    { path: `skills/${name}/SKILL.md`, role: 'skill', skill: name, content: `---\nname: ${misnamed ? 'other' : name}\ndescription: Does ${name} for the project.\n---\n\n# ${name}\n\nFollow the steps.\n` },
    ...references.map((ref) => ({ path: `skills/${name}/${ref}`, role: 'reference', skill: name, content: `Reference ${ref} of ${name}.\n` })),
  ]);

const subagent: fc.Arbitrary<TestFile> = fc
  .record({
    path: fc.constantFrom('agents/helper.md', 'agents/a/helper.md', 'agents/b/helper.md', 'agents/Helper.md', 'agents/x/y/reviewer.md', 'team/helper.md'),
    name: fc.constantFrom('helper', 'a-helper', 'b-helper', 'Helper', 'Code Reviewer', 'reviewer', 'x_y'),
    how: placement,
  })
  .map(({ path, name, how }) => withPlacement({ path, role: 'subagent', content: `---\nname: ${name}\ndescription: Reviews one kind of change.\n---\n\nReview it.\n` }, 'subagent', how));

const rule: fc.Arbitrary<TestFile> = fc
  .record({ path: fc.constantFrom('rules/style.md', 'rules/a/style.md', 'rules/b/style.md', 'rules/Style.md', 'rules/testing.md'), how: placement })
  .map(({ path, how }) => withPlacement({ path, role: 'rules', content: '---\ndescription: House style\nglobs: ["src/**/*.ts"]\nalwaysApply: false\n---\n\nUse strict mode.\n' }, 'rules', how));

const SERVERS: Record<string, object> = { docs: { command: 'docs-server', args: ['--stdio'] }, db: { command: 'db-server', env: { DATABASE_URL: '${DATABASE_URL}' } }, Docs: { command: 'other-docs' } };
const mcpFile: fc.Arbitrary<TestFile> = fc
  .record({ path: fc.constantFrom('mcp/servers.json', 'mcp/a/servers.json', 'mcp/more.json'), servers: fc.subarray(Object.keys(SERVERS), { minLength: 1 }) })
  .map(({ path, servers }) => ({ path, role: 'mcp', content: `${JSON.stringify({ mcpServers: Object.fromEntries(servers.map((s) => [s, SERVERS[s]])) }, null, 2)}\n` }));

/** A drawn loadout: its files beyond the base ones (unique paths) and the agents it marks unsupported. */
interface Drawn {
  files: TestFile[];
  unsupported: string[];
}

const drawn: fc.Arbitrary<Drawn> = fc.record({
  files: fc
    .tuple(fc.array(skill, { maxLength: 2 }), fc.array(fc.oneof({ weight: 3, arbitrary: subagent }, { weight: 2, arbitrary: rule }, { weight: 1, arbitrary: mcpFile }), { maxLength: 6 }))
    .map(([skills, others]) => {
      const byPath = new Map<string, TestFile>();
      for (const file of [...skills.flat(), ...others]) if (!byPath.has(file.path)) byPath.set(file.path, file);
      return [...byPath.values()];
    }),
  unsupported: fc.subarray(['claude-code', 'gemini-cli', 'cursor', 'copilot', 'codex']),
});

/** The manifest fields that follow from the files: the MCP servers and variables they name, and the network use they declare. */
function manifestOf(d: Drawn): Record<string, unknown> {
  const servers = new Set<string>();
  const env = new Set<string>();
  for (const file of d.files) {
    if (file.role !== 'mcp') continue;
    for (const [name, server] of Object.entries((JSON.parse(file.content) as { mcpServers: Record<string, { env?: object }> }).mcpServers)) {
      servers.add(name);
      for (const value of Object.values(server.env ?? {})) env.add(String(value).replace(/^\$\{(.*)\}$/u, '$1'));
    }
  }
  return {
    requires: { tools: [], env: [...env], mcp: [...servers] },
    ...(d.unsupported.length === 0 ? {} : { compatibility: Object.fromEntries(d.unsupported.map((a) => [a, 'unsupported'])) }),
  };
}

/** The drawn loadout as a reader replays it: one line per file. */
const describeDrawn = (d: Drawn): string => [`unsupported: ${d.unsupported.join(', ') || '-'}`, ...d.files.map((f) => `${f.role} ${f.path}${f.install_to === undefined ? '' : ` install_to ${JSON.stringify(f.install_to)}`}${f.role === 'subagent' ? ` name ${/name: (.*)/u.exec(f.content)?.[1] ?? ''}` : ''}`)].join('\n');

const RUNS = Number(process.env['LOADOUT_PROPERTY_RUNS'] ?? 25);

it(`builds every drawn loadout that passes verify, with its record, zips, plugin and discovery files (${RUNS} loadouts)`, async () => {
  const root = makeTempDir();
  let built = 0;
  await fc.assert(
    fc.asyncProperty(drawn, async (d) => {
      rmSync(join(root, 'loadouts'), { recursive: true, force: true });
      writeLoadout(root, { id: ID, files: [...baseFiles(`Test ${ID}`), ...d.files], manifest: manifestOf(d) });
      const [run] = await checkCatalogue({ root }, []);
      if (run === undefined || !passed(run)) return;
      const scratch = join(root, 'builds', String(built));
      const out = join(scratch, 'dist');
      try {
        const result = await buildCatalogue({ root, out, baseUrl: BASE, clean: true });
        expect(result.refused).toEqual([]);
        expect(result.written).toBe(true);
        const missing = [
          `api/loadouts/${ID}.json`,
          ...PUBLISHED_AGENTS.map((agent) => `download/${ID}/${agent}.zip`),
          `download/${ID}/source.zip`,
          `download/${ID}/plugin-1.0.0.zip`,
          `plugins/${ID}/plugin.json`,
          `plugins/${ID}/.claude-plugin/plugin.json`,
          `loadouts/${ID}/.well-known/agent-skills/index.json`,
          '.well-known/agent-skills/index.json',
        ].filter((path) => !existsSync(join(out, path)));
        expect(missing).toEqual([]);
      } catch (error) {
        throw new Error(`the build of a loadout that passes verify failed:\n${describeDrawn(d)}\n${(error as Error).message}`, { cause: error });
      } finally {
        // The tree and its store (`.dist.trees`, beside it).
        rmSync(scratch, { recursive: true, force: true });
      }
      built++;
    }),
    {
      numRuns: RUNS,
      ...(process.env['LOADOUT_PROPERTY_SEED'] === undefined ? {} : { seed: Number(process.env['LOADOUT_PROPERTY_SEED']) }),
      ...(process.env['LOADOUT_PROPERTY_PATH'] === undefined ? {} : { path: process.env['LOADOUT_PROPERTY_PATH'] }),
    },
  );
  // The property says something only about loadouts that pass: most drawn ones must.
  console.log(`${built} of ${RUNS} built`);
  // Not vacuous: some drawn loadouts pass verify (about a third do; fewer than three of 25 would happen once in thousands of runs).
  expect(built).toBeGreaterThanOrEqual(3);
}, 120_000);
