/**
 * What a loadout requires of the machine, checked by `install` before anything is written and
 * by `loadout doctor` afterwards (issue 56, point 4), against a catalogue built from a real git
 * repository with two versions that require different things, served on 127.0.0.1, and a PATH
 * made of scripts: a tool missing, a tool too old, a variable missing, an MCP server brought by
 * the install and one removed from the project since.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import type { InstallOutcome } from '../../src/install/install.js';
import type { DoctorReport } from '../../src/install/doctor.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';
import { pathOfScripts, prints } from '../requirements/path-of-scripts.js';
import { bundleManifest, writeBundle } from '../helpers/bundle-catalogue.js';
import { listProject, makeProject } from './hostile-fixture.js';
import { serveCatalogue } from './lifecycle-fixture.js';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const server = { command: 'npx', args: ['-y', 'needs-docs@1'], env: { TOKEN: '${NEEDS_TOKEN}' } };
const files: TestFile[] = [...baseFiles('Needs'), { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { 'needs-docs': server } }, null, 2)}\n` }];
const manifest = (tools: string[]): Record<string, unknown> => ({ requires: { tools, env: ['NEEDS_TOKEN'], mcp: ['needs-docs'] }, security: { scanned: true, network: true, scripts: [] } });

let folder: string;
let dist: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-requirements-'));
  initRepo(folder);
  writeLoadout(folder, { id: 'needs', title: 'Needs', version: '1.0.0', files, manifest: manifest(['node>=18', 'uv']) });
  commitAll(folder, 'needs 1.0.0', '2026-01-10T10:00:00Z');
  writeLoadout(folder, { id: 'needs', title: 'Needs', version: '1.1.0', files, manifest: manifest(['node>=20', 'uv', 'python >=3.11']) });
  commitAll(folder, 'needs 1.1.0', '2026-02-10T10:00:00Z');
  // A loadout that uses the server another brings, and a bundle of both (one install brings it for the other).
  writeLoadout(folder, { id: 'uses-docs', title: 'Uses docs', version: '1.0.0', files: baseFiles('Uses docs'), manifest: { requires: { tools: [], env: [], mcp: ['needs-docs'] }, security: { scanned: true, network: true, scripts: [] } } });
  writeBundle(folder, 'docs-pair', bundleManifest('docs-pair', 'Docs Pair', '1.0.0', [['uses-docs', '^1'], ['needs', '^1']]));
  commitAll(folder, 'uses-docs 1.0.0 and the docs-pair bundle', '2026-03-10T10:00:00Z');
  dist = join(folder, 'dist');
  const result = await buildCatalogue({ root: folder, out: dist, baseUrl: 'http://catalogue.test' });
  if (result.refused.length > 0) throw new Error(`fixture refused: ${JSON.stringify(result.runs.flatMap((r) => r.results.filter((c) => c.status === 'fail')))}`);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every file of `dir` (but .git) with its bytes and mode. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(listProject(dir).map((p) => {
    const stats = statSync(join(dir, p));
    return [p, stats.isFile() ? `${stats.mode} ${readFileSync(join(dir, p)).toString('base64')}` : 'folder'];
  }));
}

/** A PATH where node is `node`'s version line and uv and python are there or not. */
function machine(options: { node?: string; uv?: boolean; python?: string }): string {
  return pathOfScripts({
    ...(options.node === undefined ? {} : { node: prints(options.node) }),
    ...(options.uv === true ? { uv: prints('uv 0.5.1') } : {}),
    ...(options.python === undefined ? {} : { python3: prints(`Python ${options.python}`) }),
  });
}

describe('the preflight of install', () => {
  it('prints what is missing and how to get it, and installs anyway', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    const result = await runCli(['install', 'needs', '--agent', 'claude-code', '--from', base, '--dir', project], project, { PATH: machine({ node: 'v18.19.0', uv: true }), NEEDS_TOKEN: '' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('loadout: warning: needs 1.1.0 requires what is missing on this machine (the install goes on; --strict refuses; `loadout doctor` checks again):\n');
    expect(result.stderr).toContain('  missing  tool node (>=20): 18.19.0; get it: ');
    expect(result.stderr).toContain('/node is 18.19.0; https://nodejs.org/en/download (or a version manager: `nvm install 20`); wanted (>=20)\n');
    expect(result.stderr).toMatch(/ {2}ok {7}tool uv \(any version\): on PATH at \/.+\/uv\n/u);
    expect(result.stderr).toContain('  missing  tool python (>=3.11): not found; get it: https://www.python.org/downloads/ or `uv python install 3.11`; wanted (>=3.11)\n');
    expect(result.stderr).toContain('  missing  variable NEEDS_TOKEN: empty; get it: set NEEDS_TOKEN in your environment');
    expect(result.stderr).toContain('  ok       MCP server needs-docs for claude-code: brought by this install\n');
    expect(result.stdout).toContain('installed needs 1.1.0 for claude-code');
    expect(JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8'))).toHaveProperty('mcpServers.needs-docs');
  });

  it("counts a server another loadout of the same install brings: a bundle's member requires its sibling's", async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    const good = { PATH: machine({ node: 'v20.11.1', uv: true, python: '3.12.2' }), NEEDS_TOKEN: 'set' };
    const result = await runCli(['install', 'docs-pair', '--agent', 'claude-code', '--from', base, '--dir', project, '--strict', '--json'], project, good);
    expect(result.code, result.stderr).toBe(0);
    const outcomes = JSON.parse(result.stdout) as InstallOutcome[];
    const uses = outcomes.find((o) => o.id === 'uses-docs');
    expect(uses?.requirements).toEqual([{ kind: 'mcp', name: 'needs-docs', wanted: "in claude-code's MCP servers", found: 'brought by this install', ok: true, how_to_get: null, agent: 'claude-code', path: undefined }]);
    // Alone, it is missing: nothing brings it and the project has none.
    const alone = makeProject();
    const refused = await runCli(['install', 'uses-docs', '--agent', 'claude-code', '--from', base, '--dir', alone, '--strict'], alone, good);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('MCP server needs-docs for claude-code: missing');
  });

  it('checks the version installed: 1.0.0 asks for node >=18, which 18.19.0 meets', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    const result = await runCli(['install', 'needs', '--agent', 'claude-code', '--from', base, '--dir', project, '--version', '1.0.0', '--strict'], project, { PATH: machine({ node: 'v18.19.0', uv: true }), NEEDS_TOKEN: 'x' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('loadout: what needs 1.0.0 requires is on this machine:\n  ok       tool node (>=18): 18.19.0 at ');
  });

  it('with --strict, refuses before anything is written, naming what is missing; the project keeps its bytes', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    writeFileSync(join(project, 'AGENTS.md'), '# Mine\n');
    writeFileSync(join(project, '.mcp.json'), '{ "mcpServers": {} }\n');
    const before = snapshot(project);
    const result = await runCli(['install', 'needs', '--agent', 'claude-code,cursor', '--from', base, '--dir', project, '--strict'], project, { PATH: machine({ node: 'v18.19.0', uv: true }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('needs 1.1.0 for claude-code, cursor requires what is missing: tool node (>=20): found 18.19.0; tool python (>=3.11): missing; variable NEEDS_TOKEN: missing; nothing was written (--strict)');
    expect(snapshot(project)).toEqual(before);

    const json = await runCli(['install', 'needs', '--agent', 'claude-code', '--from', base, '--dir', project, '--strict', '--json'], project, { PATH: machine({ node: 'v18.19.0', uv: true }) });
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { error: { name: string } }).error.name).toBe('RequirementsMissing');
    expect(snapshot(project)).toEqual(before);

    // With everything there, --strict installs.
    const met = await runCli(['install', 'needs', '--agent', 'claude-code', '--from', base, '--dir', project, '--strict'], project, { PATH: machine({ node: 'v22.1.0', uv: true, python: '3.12.2' }), NEEDS_TOKEN: 'set' });
    expect(met.code, met.stderr).toBe(0);
    expect(met.stdout).toContain('installed needs 1.1.0 for claude-code');
  });

  it('puts the checks in --dry-run --json outcomes, per agent, and writes nothing', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    const before = snapshot(project);
    const result = await runCli(['install', 'needs', '--agent', 'claude-code,cursor', '--from', base, '--dir', project, '--dry-run', '--json'], project, { PATH: machine({ uv: true, python: '3.11.0' }), NEEDS_TOKEN: 'set' });
    expect(result.code, result.stderr).toBe(0);
    const outcomes = JSON.parse(result.stdout) as InstallOutcome[];
    expect(outcomes.map((o) => o.agent)).toEqual(['claude-code', 'cursor']);
    const [claude] = outcomes;
    expect(claude?.requirements?.map((r) => ({ ...r, path: r.path === undefined ? undefined : 'PATH' }))).toEqual([
      { kind: 'tool', name: 'node', wanted: '>=20', found: null, ok: false, how_to_get: 'https://nodejs.org/en/download (or a version manager: `nvm install 20`); wanted (>=20)', path: undefined },
      { kind: 'tool', name: 'uv', wanted: 'any version', found: 'on PATH', ok: true, how_to_get: null, path: 'PATH' },
      { kind: 'tool', name: 'python', wanted: '>=3.11', found: '3.11.0', ok: true, how_to_get: null, path: 'PATH' },
      { kind: 'env', name: 'NEEDS_TOKEN', wanted: 'set', found: 'set', ok: true, how_to_get: null, path: undefined },
      { kind: 'mcp', name: 'needs-docs', wanted: "in claude-code's MCP servers", found: 'brought by this install', ok: true, how_to_get: null, agent: 'claude-code', path: undefined },
    ]);
    expect(outcomes[1]?.requirements?.at(-1)).toMatchObject({ kind: 'mcp', agent: 'cursor', found: 'brought by this install', ok: true });
    expect(snapshot(project)).toEqual(before);
  });
});

describe('loadout doctor', () => {
  it('exits 0 when everything installed has what it requires, 1 when a tool, a variable or a server is missing; --json has the report', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    const good = { PATH: machine({ node: 'v20.11.1', uv: true, python: '3.12.2' }), NEEDS_TOKEN: 'set' };
    const doctor = (env: Record<string, string>, ...args: string[]): ReturnType<typeof runCli> => runCli(['doctor', '--dir', project, ...args], project, env);

    const empty = await doctor(good);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('nothing installed (loadout.lock.json lists no installs)\n');

    expect((await runCli(['install', 'needs', '--agent', 'claude-code,cursor', '--from', base, '--dir', project], project, good)).code).toBe(0);
    const ok = await doctor(good);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`needs 1.1.0 for claude-code, cursor (${base}):\n  ok       tool node (>=20): 20.11.1 at `);
    expect(ok.stdout).toContain('  ok       MCP server needs-docs for cursor: in .cursor/mcp.json\n');
    expect(ok.stdout).toContain('everything installed has what it requires (1 loadout)\n');

    // A tool too old, a tool missing, the variable unset.
    const lacking = await doctor({ PATH: machine({ node: 'v18.0.0' }), NEEDS_TOKEN: '' });
    expect(lacking.code).toBe(1);
    expect(lacking.stdout).toContain('  missing  tool node (>=20): 18.0.0; get it: ');
    expect(lacking.stdout).toContain('  missing  tool uv (any version): not found; get it: https://docs.astral.sh/uv/getting-started/installation/\n');
    expect(lacking.stdout).toContain('  missing  variable NEEDS_TOKEN: empty; get it: ');
    expect(lacking.stdout).toContain('1 of 1 installed loadouts lack something they require\n');

    // The server taken out of Claude Code's file by hand: missing for claude-code only.
    writeFileSync(join(project, '.mcp.json'), '{ "mcpServers": {} }\n');
    const json = await doctor(good, '--json');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report).toMatchObject({ scope: 'project', lock: 'loadout.lock.json', ok: false });
    expect(report.loadouts).toHaveLength(1);
    expect(report.loadouts[0]).toMatchObject({ id: 'needs', version: '1.1.0', agents: ['claude-code', 'cursor'], source: base, ok: false });
    expect(report.loadouts[0]?.requirements?.filter((r) => !r.ok)).toEqual([
      { kind: 'mcp', name: 'needs-docs', wanted: "in claude-code's MCP servers", found: null, ok: false, how_to_get: 'add an MCP server named "needs-docs" to claude-code\'s MCP configuration, or install a loadout that brings it', agent: 'claude-code' },
    ]);
  });

  it('exits 1 naming the catalogue when the requirements cannot be read', async () => {
    const base = await serveCatalogue(dist);
    const project = makeProject();
    expect((await runCli(['install', 'needs', '--agent', 'claude-code', '--from', base, '--dir', project], project)).code).toBe(0);
    const gone = await runCli(['doctor', '--dir', project, '--from', makeTempDir()], project);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain('requirements not checked: the catalogue could not be read');
    expect(gone.stderr).toMatch(/^loadout: needs 1\.1\.0: its requirements could not be read: /mu);
  });

  it('reads the record of the latest version from a catalogue built before versions carried requirements', async () => {
    // The built tree is a link to the build's store: copied as files.
    const old = join(makeTempDir(), 'old');
    cpSync(dist, old, { recursive: true, dereference: true });
    const path = join(old, 'api/loadouts/needs/versions.json');
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { versions: Record<string, unknown>[] };
    for (const version of doc.versions) delete version['requires'];
    writeFileSync(path, JSON.stringify(doc));
    const good = { PATH: machine({ node: 'v20.11.1', uv: true, python: '3.12.2' }), NEEDS_TOKEN: 'set' };
    const latest = makeProject();
    expect((await runCli(['install', 'needs', '--agent', 'claude-code', '--from', old, '--dir', latest], latest, good)).code).toBe(0);
    const fromRecord = await runCli(['doctor', '--dir', latest], latest, { PATH: machine({ node: 'v20.11.1', uv: true }), NEEDS_TOKEN: 'set' });
    expect(fromRecord.code).toBe(1);
    expect(fromRecord.stdout).toContain('  missing  tool python (>=3.11): not found; ');

    // 1.0.0 is not the record's version: nothing says what it requires.
    const older = makeProject();
    const installed = await runCli(['install', 'needs', '--agent', 'claude-code', '--from', old, '--dir', older, '--version', '1.0.0', '--json'], older, good);
    expect((JSON.parse(installed.stdout) as InstallOutcome[])[0]?.requirements).toBeNull();
    const unknown = await runCli(['doctor', '--dir', older], older, good);
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toContain('  its catalogue publishes no requirements for this version\n');
  });
});
