/**
 * The real `skills` CLI (npm `skills` 1.7.4, "npx skills") installs a loadout's skills from a
 * local `loadout serve` (issue 15 point 3). `skills` 1.5 and later need Node 22.20 or newer,
 * so it runs on Node 22.22.0 from npm (the `node` package), both installed with npm into a
 * temporary folder; nothing else leaves the machine (telemetry off: `DISABLE_TELEMETRY`,
 * `DO_NOT_TRACK`; the source is 127.0.0.1, so no GitHub lookup). What it wrote is read back
 * and compared byte for byte with the published record.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDiscoveryFixture, type DiscoveryFixture } from './discovery-fixture.js';
import { installNpmTools, runTool, type NpmTools } from '../../helpers/npm-tools.js';
import { startServe, type ServeProcess } from '../../helpers/serve-cli.js';

/** The client and the Node it needs (the `skills` package declares `engines.node >= 22.20.0`). */
const CLIENT_SPECS = ['node@22.22.0', 'skills@1.7.4'];

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
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.set(relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'), readFileSync(join(entry.parentPath, entry.name)));
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
  const result = await runTool(tools.bin('node'), [join(tools.dir, 'node_modules', 'skills', 'bin', 'cli.mjs'), 'add', source, '-y', '-a', agent], project, {
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

describe('npx skills add <base_url>/loadouts/<id>', () => {
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
    for (const entry of index.skills) expect(lock.skills[entry.name]).toMatchObject({ sourceType: 'well-known', sourceUrl: `${serve.url}/loadouts/alpha`, wellKnownDigest: entry.digest });
  });

  it('installs the catalogue\'s skills from the base address, each name from the loadout that wins it', async () => {
    const project = await skillsAdd(serve.url, 'codex');
    const installed = filesBelow(join(project, '.agents/skills'));
    const expected = new Map([...(await publishedSkills(serve.url, 'gamma', ['beta-only'])), ...(await publishedSkills(serve.url, 'alpha', ['shared', 'solo']))]);
    expect([...installed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(installed.get(path)?.equals(bytes), path).toBe(true);
  });

  it('falls back to the legacy 0.1 index when a loadout has no 0.2 index', async () => {
    // A copy of the tree without beta's 0.2 index, served by a second loadout serve.
    const copy = join(scratch, 'legacy-tree');
    cpSync(fixture.dist, copy, { recursive: true, dereference: true });
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

  it('refuses a loadout without skills rather than installing the whole catalogue', async () => {
    const project = mkdtempSync(join(scratch, 'plain-'));
    const result = await runTool(tools.bin('node'), [join(tools.dir, 'node_modules', 'skills', 'bin', 'cli.mjs'), 'add', `${serve.url}/loadouts/plain`, '-y', '-a', 'codex'], project, {
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
