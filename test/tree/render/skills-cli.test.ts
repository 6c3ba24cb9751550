/**
 * The real `skills` CLI ("npx skills") installs a loadout's skills from a local `loadout serve`
 * (DESIGN.md section 8, Agent Skills discovery), run by the Node that runs the tests. Which
 * release depends on that Node: `skills` 1.5.19 and later declare `engines.node >= 22.20.0` and
 * do not run on Node 20, so Node 22.20 or newer gets 1.7.4 and an older Node gets 1.5.18, the
 * last release that declares Node 18 or newer. It is installed with npm into a temporary
 * folder; nothing else leaves the machine (telemetry off: `DISABLE_TELEMETRY`, `DO_NOT_TRACK`;
 * the source is 127.0.0.1, so no GitHub lookup). What it wrote is read back and compared byte
 * for byte with the published record.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyDereferenced } from '../../helpers/tree.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDiscoveryFixture, type DiscoveryFixture } from './discovery-fixture.js';
import { installNpmTools, runTool, type NpmTools } from '../../helpers/npm-tools.js';
import { startServe, type ServeProcess } from '../../helpers/serve-cli.js';
import { listFolderEntries } from '../../../src/catalogue/folder-entries.js';
import { itWith, type Requirement } from '../../run/requirements.js';

/**
 * The `skills` release tested on a Node of version `node` (`process.versions.node`): 1.7.4
 * from Node 22.20.0 on (its `engines.node`), else 1.5.18.
 */
function skillsReleaseFor(node: string): string {
  const [major = 0, minor = 0] = node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 20) ? '1.7.4' : '1.5.18';
}

const RELEASE = skillsReleaseFor(process.versions.node);
const CLIENT_SPECS = [`skills@${RELEASE}`];
/**
 * 1.5.18 reads the same indexes, but its lock names only the host (no `sourceUrl`, no
 * `wellKnownDigest`), and for a loadout
 * address without an index of its own it installs the catalogue's root index instead of
 * refusing; the tests of those behaviours run on 1.7.4 only.
 */
const CURRENT = RELEASE === '1.7.4';
/** What the tests of those behaviours need (test/run/requirements.ts). */
const NEEDS_SKILLS_CURRENT: Requirement = {
  id: 'skills-1.7.4',
  met: CURRENT,
  missing: `skills 1.7.4 needs Node 22.20 or later (this is Node ${process.versions.node}, which runs skills ${RELEASE})`,
  enable: 'run the tests on Node 22.20 or later',
};

let tools: NpmTools;
let fixture: DiscoveryFixture;
let serve: ServeProcess;
let scratch: string;

beforeAll(async () => {
  [tools, fixture] = await Promise.all([installNpmTools(CLIENT_SPECS), buildDiscoveryFixture()]);
  serve = await startServe(fixture.dist, fixture.root);
  scratch = mkdtempSync(join(tmpdir(), 'loadout-skills-cli-'));
}, 300_000);
afterAll(async () => {
  await serve?.stop();
  fixture?.remove();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Every file below `dir`, by path relative to it. */
function filesBelow(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const { path, dirent } of listFolderEntries(dir)) {
    if (dirent.isFile()) files.set(path, readFileSync(join(dir, path)));
  }
  return files;
}

interface PublishedFile {
  path: string;
  role: string;
  skill: string | null;
  content: string;
}

/** The skill files of loadout `id`'s record, as `<skill>/<path inside the skill>` → bytes. */
async function publishedSkills(base: string, id: string, only?: readonly string[]): Promise<Map<string, Buffer>> {
  const record = (await (await fetch(`${base}/api/loadouts/${id}.json`)).json()) as { files: PublishedFile[] };
  const files = new Map<string, Buffer>();
  for (const f of record.files) {
    if (f.skill === null || (f.role !== 'skill' && f.role !== 'reference') || (only !== undefined && !only.includes(f.skill))) continue;
    files.set(`${f.skill}/${f.path.slice(`skills/${f.skill}/`.length)}`, Buffer.from(f.content, 'utf8'));
  }
  return files;
}

/** Runs `skills add <source> -y -a <agent>` in a new project folder; returns the folder. */
async function skillsAdd(source: string, agent: string): Promise<string> {
  const project = mkdtempSync(join(scratch, `${agent}-`));
  const home = mkdtempSync(join(scratch, 'home-'));
  const result = await runTool(process.execPath, [join(tools.dir, 'node_modules', 'skills', 'bin', 'cli.mjs'), 'add', source, '-y', '-a', agent], project, {
    HOME: home,
    DISABLE_TELEMETRY: '1',
    DO_NOT_TRACK: '1',
    NO_COLOR: '1',
  });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  return project;
}

interface SkillsLock {
  skills: Record<string, { sourceType: string; sourceUrl: string; wellKnownDigest: string }>;
}

/** Where each agent's skills land (the client's own table: claude-code `.claude/skills`, codex `.agents/skills`). */
const SKILLS_DIR: Record<string, string> = { 'claude-code': '.claude/skills', codex: '.agents/skills' };

describe('the skills release under test', () => {
  it('is 1.7.4 from Node 22.20.0 on (its engines.node) and 1.5.18 before', () => {
    expect(['20.20.2', '22.19.0', '22.20.0', '22.22.0', '24.1.0'].map(skillsReleaseFor)).toEqual(['1.5.18', '1.5.18', '1.7.4', '1.7.4', '1.7.4']);
  });
});

describe(`npx skills add <base_url>/loadouts/<id> (skills ${RELEASE}, Node ${process.versions.node})`, () => {
  it.each(['claude-code', 'codex'])('installs exactly the loadout\'s skills for %s, byte for byte as the record has them', async (agent) => {
    const project = await skillsAdd(`${serve.url}/loadouts/alpha`, agent);
    const written = filesBelow(project);
    const dir = SKILLS_DIR[agent] ?? '';
    const installed = new Map([...written].filter(([path]) => path.startsWith(`${dir}/`)).map(([path, bytes]) => [path.slice(dir.length + 1), bytes]));
    const expected = await publishedSkills(serve.url, 'alpha');
    expect([...installed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(installed.get(path)?.equals(bytes), path).toBe(true);
    // Nothing else but the client's lock file.
    expect([...written.keys()].filter((p) => !p.startsWith(`${dir}/`))).toEqual(['skills-lock.json']);

    const lock = JSON.parse(written.get('skills-lock.json')?.toString('utf8') ?? '{}') as SkillsLock;
    const index = (await (await fetch(`${serve.url}/loadouts/alpha/.well-known/agent-skills/index.json`)).json()) as { skills: { name: string; digest: string }[] };
    expect(Object.keys(lock.skills).sort()).toEqual(['shared', 'solo']);
    for (const entry of index.skills) expect(lock.skills[entry.name]).toMatchObject({ sourceType: 'well-known', ...(CURRENT ? { sourceUrl: `${serve.url}/loadouts/alpha`, wellKnownDigest: entry.digest } : { source: new URL(serve.url).hostname }) });
  });

  it('installs the catalogue\'s skills from the base address, each name from the loadout that wins it', async () => {
    const project = await skillsAdd(serve.url, 'codex');
    const installed = filesBelow(join(project, '.agents/skills'));
    const expected = new Map([...(await publishedSkills(serve.url, 'gamma', ['beta-only'])), ...(await publishedSkills(serve.url, 'alpha', ['shared', 'solo']))]);
    expect([...installed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(installed.get(path)?.equals(bytes), path).toBe(true);
  });

  itWith(NEEDS_SKILLS_CURRENT)('falls back to the legacy 0.1 index when a loadout has no 0.2 index', async () => {
    // A copy of the tree without beta's 0.2 index, served by a second loadout serve.
    const copy = join(scratch, 'legacy-tree');
    copyDereferenced(fixture.dist, copy);
    rmSync(join(copy, 'loadouts/beta/.well-known/agent-skills'), { recursive: true });
    const legacy = await startServe(copy, fixture.root);
    try {
      const project = await skillsAdd(`${legacy.url}/loadouts/beta`, 'claude-code');
      const installed = filesBelow(join(project, '.claude/skills'));
      const expected = await publishedSkills(legacy.url, 'beta');
      expect([...installed.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, bytes] of expected) expect(installed.get(path)?.equals(bytes), path).toBe(true);
    } finally {
      await legacy.stop();
    }
  });

  itWith(NEEDS_SKILLS_CURRENT)('refuses a loadout without skills rather than installing the whole catalogue', async () => {
    const project = mkdtempSync(join(scratch, 'plain-'));
    const result = await runTool(process.execPath, [join(tools.dir, 'node_modules', 'skills', 'bin', 'cli.mjs'), 'add', `${serve.url}/loadouts/plain`, '-y', '-a', 'codex'], project, {
      HOME: mkdtempSync(join(scratch, 'home-')),
      DISABLE_TELEMETRY: '1',
      DO_NOT_TRACK: '1',
      NO_COLOR: '1',
    });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain("No skills found for the scoped path '/loadouts/plain'");
    expect(filesBelow(project).size).toBe(0);
  });
});
