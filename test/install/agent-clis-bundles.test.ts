/**
 * A bundle's plugin installed by Claude Code's own plugin manager (issue 56, point 2; DESIGN.md
 * "Bundles"; src/layout/bundle-plugin.ts): from the built `plugins/` folder marketplace,
 * `claude plugin install <bundle>@<marketplace>` installs the bundle's plugin and, through its
 * `dependencies`, the plugin of each of its loadouts, whose skill files are compared byte for byte.
 * And how Claude Code 2.1.330 reads a range there: a folder marketplace holds one version of each
 * plugin, so a loadout whose latest version is outside the bundle's range is installed at that
 * version and the bundle's plugin is not loaded, with Claude Code's message naming both.
 *
 * Codex 0.169.0 and Copilot CLI 1.0.102 read the same marketplace, which lists the bundle: they
 * install its plugin (a README, no dependencies) and each loadout by the README's commands.
 *
 * Opt-in (`LOADOUT_AGENT_CLIS=1`; not in `.ci/run`): the CLIs are installed from npm into a
 * temporary folder (test/helpers/npm-tools.ts) with the pins of agent-clis-plugins.test.ts, so
 * both share one install. Claude Code runs with a temporary HOME, offline.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { bumpLoadout, bundleManifest, writeBundle } from '../helpers/bundle-catalogue.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { installNpmTools, runTool, type NpmTools } from '../helpers/npm-tools.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { describeWith, NEEDS_AGENT_CLIS } from '../run/requirements.js';

const ENABLED = process.env['LOADOUT_AGENT_CLIS'] === '1';
/** The same pins as agent-clis.test.ts and agent-clis-plugins.test.ts, so the three share one install. */
const SPECS = ['node@22.22.0', '@anthropic-ai/claude-code@2.1.330', '@openai/codex@0.169.0', '@google/gemini-cli@0.61.0', '@github/copilot@1.0.102'];
const MARKETPLACE = 'loadout-catalogue';
const MEMBERS = ['web-rules', 'review-rules'] as const;

/** A loadout with one skill whose reference holds a marker, so its installed copy can be found. */
const skillOf = (id: string): TestFile[] => [
  { path: `skills/${id}-skill/SKILL.md`, role: 'skill', skill: `${id}-skill`, content: `---\nname: ${id}-skill\ndescription: The skill of ${id}, installed as a dependency of a bundle.\n---\n\n# ${id}\n\nSee [notes](references/notes.md).\n` },
  { path: `skills/${id}-skill/references/notes.md`, role: 'reference', skill: `${id}-skill`, content: `# Notes\n\nMARKER-${id}\n` },
];

let tools: NpmTools;
let scratch: string;
let root: string;
let dist: string;

beforeAll(async () => {
  if (!ENABLED) return;
  scratch = mkdtempSync(join(tmpdir(), 'loadout-bundle-clis-'));
  root = join(scratch, 'catalogue');
  mkdirSync(root);
  initRepo(root);
  for (const id of MEMBERS) writeLoadout(root, { id, title: `Loadout ${id}`, files: [...baseFiles(`Loadout ${id}`), ...skillOf(id)] });
  writeLoadout(root, { id: 'lint-rules', title: 'Loadout lint-rules', files: [...baseFiles('Loadout lint-rules'), ...skillOf('lint-rules')] });
  commitAll(root, 'three loadouts at 1.0.0', '2026-01-01T10:00:00Z');
  bumpLoadout(root, 'web-rules', '1.2.0');
  commitAll(root, 'web-rules 1.2.0', '2026-02-01T10:00:00Z');
  bumpLoadout(root, 'lint-rules', '2.0.0');
  commitAll(root, 'lint-rules 2.0.0', '2026-02-15T10:00:00Z');
  writeBundle(root, 'team-stack', bundleManifest('team-stack', 'Team Stack', '1.0.0', [['web-rules', '^1.1'], ['review-rules', '>=1 <3']]));
  // Its lint-rules range leaves out the marketplace's version, 2.0.0.
  writeBundle(root, 'pinned-stack', bundleManifest('pinned-stack', 'Pinned Stack', '1.0.0', [['web-rules', '^1'], ['lint-rules', '^1']]));
  commitAll(root, 'two bundles', '2026-03-01T10:00:00Z');
  dist = join(root, 'dist');
  const [installed, built] = await Promise.all([installNpmTools(SPECS), buildCatalogue({ root, out: dist, baseUrl: 'https://catalogue.test' })]);
  expect(built.written, JSON.stringify(built.bundleDiagnostics)).toBe(true);
  tools = installed;
}, 1_800_000);
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Runs an agent's CLI with the HOME `home` in a scratch project; prints and returns what it printed, which must end with exit code 0. */
async function agent(home: string, bin: 'claude' | 'codex' | 'copilot', args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const path = `${join(tools.dir, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`;
  const project = join(home, 'project');
  mkdirSync(project, { recursive: true });
  const run = await runTool(tools.bin(bin), args, project, { PATH: path, HOME: home, DO_NOT_TRACK: '1', NO_COLOR: '1', CI: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...env });
  const output = `${run.stdout}${run.stderr}`.trim();
  console.log(`$ ${bin} ${args.join(' ')}\n${output}\n(exit ${run.code})\n`);
  expect(run.code, `${bin} ${args.join(' ')}: ${output}`).toBe(0);
  return output;
}

/** {@link agent} for Claude Code. */
const claude = (home: string, args: readonly string[]): Promise<string> => agent(home, 'claude', args);

/** The copies below `home` (outside the project and the tree) of each member's skill reference: each must hold the loadout's bytes. */
function expectSkillsInstalled(home: string, ids: readonly string[]): void {
  for (const id of ids) {
    const rel = `skills/${id}-skill/references/notes.md`;
    const copies = listFolderEntries(home)
      .filter((e) => e.dirent.isFile() && e.path.endsWith(rel) && !e.path.includes(`project${sep}`))
      .map((e) => join(home, e.path));
    console.log(`${id}: ${rel} found at ${copies.map((p) => p.slice(home.length)).join(', ') || '(nowhere)'}`);
    expect(copies.length, rel).toBeGreaterThan(0);
    for (const copy of copies) expect(readFileSync(copy).equals(readFileSync(join(root, 'loadouts', id, rel))), copy).toBe(true);
  }
}

describeWith(NEEDS_AGENT_CLIS)('the agents\' plugin managers install a bundle\'s plugin and its loadouts\' (LOADOUT_AGENT_CLIS=1)', () => {
  it('validates the bundle\'s plugin, and installs it with the plugins of its loadouts from the folder marketplace', { timeout: 300_000 }, async () => {
    const home = mkdtempSync(join(scratch, 'home-bundle-'));
    await claude(home, ['plugin', 'validate', join(dist, 'plugins', 'team-stack')]);
    await claude(home, ['plugin', 'marketplace', 'add', join(dist, 'plugins')]);
    const installed = await claude(home, ['plugin', 'install', `team-stack@${MARKETPLACE}`]);
    expect(installed).toContain('2 dependencies');
    expectSkillsInstalled(home, MEMBERS);
    const list = await claude(home, ['plugin', 'list']);
    for (const id of ['team-stack', ...MEMBERS]) expect(list).toContain(`${id}@${MARKETPLACE}`);
    expect(list).not.toContain('failed to load');
  });

  it('installs the marketplace\'s version of a loadout outside the bundle\'s range, and then does not load the bundle\'s plugin, naming both', { timeout: 300_000 }, async () => {
    const home = mkdtempSync(join(scratch, 'home-pinned-'));
    await claude(home, ['plugin', 'marketplace', 'add', join(dist, 'plugins')]);
    await claude(home, ['plugin', 'install', `pinned-stack@${MARKETPLACE}`]);
    expectSkillsInstalled(home, ['web-rules', 'lint-rules']);
    const list = await claude(home, ['plugin', 'list']);
    expect(list).toContain(`Requires "lint-rules@${MARKETPLACE}" ^1, installed 2.0.0`);
    // What the bundle's README says of it.
    expect(readFileSync(join(dist, 'plugins/pinned-stack/README.md'), 'utf8')).toContain('lint-rules 2.0.0 is outside `^1`');
  });

  it('Codex and Copilot CLI read the marketplace that lists the bundle, install its plugin (no dependencies) and each loadout by the README\'s commands', { timeout: 300_000 }, async () => {
    const home = mkdtempSync(join(scratch, 'home-others-'));
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), '');
    const readme = readFileSync(join(dist, 'plugins/team-stack/README.md'), 'utf8');
    const readmeCommands = (bin: string): string[][] => readme.split('\n').filter((l) => l.startsWith(`${bin} plugin `)).map((l) => l.split(' ').slice(1));
    expect(readmeCommands('codex')).toEqual(MEMBERS.map((id) => ['plugin', 'add', `${id}@${MARKETPLACE}`]));
    expect(readmeCommands('copilot')).toEqual(MEMBERS.map((id) => ['plugin', 'install', `${id}@${MARKETPLACE}`]));
    for (const bin of ['codex', 'copilot'] as const) {
      const env = { CODEX_HOME: codexHome };
      await agent(home, bin, ['plugin', 'marketplace', 'add', join(dist, 'plugins')], env);
      // The bundle's own plugin installs, and brings no loadout: these managers have no dependencies.
      await agent(home, bin, bin === 'codex' ? ['plugin', 'add', `team-stack@${MARKETPLACE}`] : ['plugin', 'install', `team-stack@${MARKETPLACE}`], env);
      for (const args of readmeCommands(bin)) {
        const output = await agent(home, bin, args, env);
        if (bin === 'copilot') expect(output).toContain('Installed 1 skill');
      }
    }
    for (const id of MEMBERS) {
      const version = id === 'web-rules' ? '1.2.0' : '1.0.0';
      const rel = `skills/${id}-skill/references/notes.md`;
      expect(readFileSync(join(codexHome, 'plugins/cache', MARKETPLACE, id, version, rel)).equals(readFileSync(join(root, 'loadouts', id, rel))), `codex ${id}`).toBe(true);
    }
  });
});
