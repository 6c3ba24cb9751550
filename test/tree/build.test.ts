import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { BUILD_CACHE_FILE } from '../../src/tree/incremental/cache.js';
import { findStandby, treesFolderOf } from '../../src/tree/write/output.js';
import { linkEntry, listEntries, STORE_FOLDER } from '../../src/tree/write/store.js';
import { outputOver, TreeFiles } from '../../src/tree/write/tree-files.js';
import { writeCatalogueDocuments } from '../../src/tree/render/catalogue-documents.js';
import type { PublishedRecord } from '../../src/tree-format/index.js';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { DEFAULT_MARKETPLACE } from '../../src/layout/plugin-marketplaces.js';
import { layoutInstall } from '../../src/layout/installed-files.js';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { publishedRecordErrors } from '../helpers/published-schema.js';
import { commitAll, git, initRepo, makeTempDir } from '../helpers/temp.js';
import { differingFiles, treeEntries } from '../helpers/tree.js';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';

const BASE = 'https://catalogue.test';

const rule = (body: string): TestFile => ({
  path: 'rules/style.md',
  role: 'rules',
  content: `---\ndescription: Style rule\nglobs: ["src/**/*.ts"]\napplyTo: "src/**/*.ts"\n---\n\n${body}\n`,
});
const skillFiles: TestFile[] = [
  { path: 'skills/add-test/SKILL.md', role: 'skill', skill: 'add-test', content: '---\nname: add-test\ndescription: Adds a unit test next to the code it tests.\n---\n\n# Add a test\n\nSee [the checklist](references/checklist.md).\n' },
  { path: 'skills/add-test/references/checklist.md', role: 'reference', skill: 'add-test', content: '# Checklist\n\n- Arrange, act, assert.\n' },
];
const mcpFile: TestFile = { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'], env: {} } } }, null, 2)}\n` };

// npx fetches the MCP server's package: the loadout uses the network and says so.
const TOOLS_MANIFEST = { requires: { tools: [], env: [], mcp: ['docs'] }, security: { scanned: true, network: true, scripts: [] } };

/** A git repository holding loadout `tools` at 1.0.0, then 1.1.0 with changed files, and loadout `plain`. */
function twoVersionCatalogue(): { root: string; v1: string } {
  const root = makeTempDir();
  initRepo(root);
  const files = (body: string, agents: string): TestFile[] => [...baseFiles('Tools Loadout', `# Tools\n\n${agents}\n`), rule(body), ...skillFiles, mcpFile];
  writeLoadout(root, { id: 'tools', title: 'Tools Loadout', version: '1.0.0', files: files('Use strict mode.', 'Version one instructions.'), manifest: TOOLS_MANIFEST });
  writeLoadout(root, { id: 'plain', version: '2.0.0' });
  const v1 = commitAll(root, 'tools 1.0.0', '2026-01-10T10:00:00Z');
  // Change a file under the same version first: 1.0.0's final content includes it.
  writeFileSync(join(root, 'loadouts/tools/rules/style.md'), rule('Use strict mode. Prefer const.').content);
  commitAll(root, 'tools 1.0.0 fix', '2026-01-12T10:00:00Z');
  writeLoadout(root, { id: 'tools', title: 'Tools Loadout', version: '1.1.0', files: files('Use strict mode. Prefer const. No any.', 'Version two instructions.'), manifest: TOOLS_MANIFEST });
  commitAll(root, 'tools 1.1.0', '2026-02-20T10:00:00Z');
  return { root, v1 };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/**
 * Checks that the tree `out` holds loadout `id`'s files as installed for every agent at the
 * tree paths of their `raw_url` and `raw_latest_url` (`{BASE}/raw/<id>/installed/…`), with the
 * bytes their `sha256` names (issue 57 point 11). Returns how many differ from the author's file.
 */
function expectInstalledFiles(out: string, id: string): number {
  const record = readJson<PublishedRecord>(join(out, `api/loadouts/${id}.json`));
  const authors = new Map(record.files.map((f) => [f.path, f.sha256]));
  let differ = 0;
  for (const agent of PUBLISHED_AGENTS) {
    for (const f of record.install[agent].files) {
      for (const address of [f.raw_url, f.raw_latest_url]) {
        expect(address.startsWith(`${BASE}/raw/${id}/installed/`), address).toBe(true);
        const bytes = readFileSync(join(out, decodeURIComponent(address.slice(BASE.length + 1))));
        expect(createHash('sha256').update(bytes).digest('hex'), address).toBe(f.sha256);
      }
      if (f.sha256 !== authors.get(f.path)) differ++;
    }
  }
  return differ;
}

/**
 * What lies beside `out` besides the trees folder, the trees in it that are neither live nor
 * the standby, and the entries of the store that neither of those two links to.
 */
/** The folders in the trees folder `trees` (the first build of a process also keeps the CLI package's files there: pack-cache.ts). */
function treeFolders(trees: string): string[] {
  return readdirSync(trees, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(trees, e.name));
}

function leftoversBeside(out: string): string[] {
  const trees = treesFolderOf(out);
  const kept = [realpathSync(out), findStandby(out)].filter((d): d is string => d !== undefined);
  const linked = new Set(kept.flatMap((dir) => readdirSync(join(dir, 'raw')).map((id) => basename(readlinkSync(join(dir, 'raw', id))))));
  return [
    ...readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.`) && join(dirname(out), n) !== trees),
    ...treeFolders(trees).filter((dir) => !kept.includes(dir) && basename(dir) !== STORE_FOLDER),
    ...[...listEntries(join(trees, STORE_FOLDER))].filter((name) => !linked.has(name)),
  ];
}

describe('loadout build', () => {
  it('publishes every version from git history, raw files for each, and latest', async () => {
    const { root, v1 } = twoVersionCatalogue();
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out, baseUrl: `${BASE}/`, now: new Date('2026-03-01T00:00:00Z') });
    expect(result.refused).toEqual([]);
    expect(result.loadouts).toEqual([
      { id: 'plain', version: '2.0.0', versions: ['2.0.0'] },
      { id: 'tools', version: '1.1.0', versions: ['1.0.0', '1.1.0'] },
    ]);
    const raw = (v: string, p: string): string => readFileSync(join(out, 'raw/tools', v, p), 'utf8');
    expect(raw('1.0.0', 'AGENTS.md')).toContain('Version one instructions.');
    expect(raw('1.0.0', 'rules/style.md')).toContain('Prefer const.');
    expect(raw('1.0.0', 'rules/style.md')).not.toContain('No any.');
    expect(raw('1.1.0', 'AGENTS.md')).toContain('Version two instructions.');
    expect(raw('latest', 'rules/style.md')).toBe(raw('1.1.0', 'rules/style.md'));

    const versions = readJson<{ latest: string; versions: { version: string; commit: string; date: string; latest: boolean; files: { path: string; sha256: string }[] }[] }>(join(out, 'api/loadouts/tools/versions.json'));
    expect(versions.latest).toBe('1.1.0');
    expect(versions.versions.map((v) => [v.version, v.latest, v.date])).toEqual([
      ["1.0.0", false, "2026-01-10"],
      ['1.1.0', true, '2026-02-20'],
    ]);
    expect(versions.versions[0]?.commit).not.toBe(v1); // the fix commit holds 1.0.0's final files

    const record = readJson<PublishedRecord>(join(out, 'api/loadouts/tools.json'));
    expect(record.published).toBe('2026-01-10');
    expect(record.updated).toBe('2026-02-20');
    expect(record.files.find((f) => f.path === 'AGENTS.md')).toMatchObject({
      raw_url: `${BASE}/raw/tools/1.1.0/AGENTS.md`,
      raw_latest_url: `${BASE}/raw/tools/latest/AGENTS.md`,
      lang: 'markdown',
      agent: null,
      skill: null,
    });
    for (const f of record.files) expect(f.content).toBe(raw('1.1.0', f.path));
  });

  it('writes records that satisfy every field of the spec published form', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    for (const name of readdirSync(join(out, 'api/loadouts')).filter((n) => n.endsWith('.json'))) {
      const record = readJson<PublishedRecord>(join(out, 'api/loadouts', name));
      expect(publishedRecordErrors(record), name).toEqual([]);
      expect(Object.keys(record.install).sort()).toEqual([...PUBLISHED_AGENTS].sort());
      expect(record.url).toBe(`${BASE}/loadouts/${record.id}/`);
      expect(record.api_url).toBe(`${BASE}/api/loadouts/${record.id}.json`);
      expect(record.source_zip_url).toBe(`${BASE}/download/${record.id}/source.zip`);
      expect(record.verification).toMatchObject({ level: 'verified-install', status: 'verified', verified: true, agent_tests: 'not-run', content_current: true });
      expect(record.verification.checks.map((c) => c.id)).toEqual(['listing', 'parse', 'adapters', 'install-paths', 'mcp', 'safety', 'references', 'size', 'licence', 'starter-build']);
      const { counts } = record.verification;
      expect(counts.pass + counts.fail + counts.skip + counts.not_applicable).toBe(10);
      for (const f of record.files) expect(f.bytes).toBe(Buffer.byteLength(f.content));
    }
    const tools = readJson<PublishedRecord>(join(out, 'api/loadouts/tools.json'));
    expect(tools.counts).toEqual({ rules: 1, skills: 1, mcp: 1 });
    expect(tools.credits).toEqual([{ title: 'Test Author', url: 'https://example.com/author' }]);
    expect(tools.compatibility).toEqual({ 'claude-code': 'adapter', codex: 'native', cursor: 'native', 'gemini-cli': 'adapter', copilot: 'native', 'antigravity-cli': 'native' });
    expect(tools.tested.per_agent['antigravity-cli']).toBe('untested');
    // Codex's rule is a section of its AGENTS.md (layout/installed-files.ts) and its MCP servers are merged: no manual step is left.
    expect(tools.install.codex.manual_steps).toEqual([]);
    expect(tools.install.codex.files.map((f) => f.target)).toContain('.codex/config.toml');
  });

  it('writes per-agent zips that hold exactly the install plan, and a source zip of the folder', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    const record = readJson<PublishedRecord>(join(out, 'api/loadouts/tools.json'));
    const files = record.files.map((f) => ({ ...f, agent: f.agent ?? undefined, skill: f.skill ?? undefined }) as FileEntry);
    const loadout = { id: record.id, version: record.version, files, text: (p: string) => record.files.find((r) => r.path === p)?.content, rawUrl: (p: string) => `${BASE}/raw/tools/${record.version}/${p}` };
    for (const agent of PUBLISHED_AGENTS) {
      const installed = layoutInstall(loadout, agent);
      const zip = await JSZip.loadAsync(readFileSync(join(out, `download/tools/${agent}.zip`)));
      const names = Object.keys(zip.files).sort();
      expect(names, agent).toEqual(record.install[agent].files.map((f) => f.target).sort());
      for (const f of record.install[agent].files) {
        // Each file as the agent reads it (layout/installed-files.ts), with the sha256 the record gives.
        const text = await zip.file(f.target)?.async('string');
        expect(text).toBe(installed.text(f.path, f.target) ?? record.files.find((r) => r.path === f.path)?.content);
        expect(createHash('sha256').update(text ?? '').digest('hex')).toBe(f.sha256);
      }
    }
    const claude = await JSZip.loadAsync(readFileSync(join(out, 'download/tools/claude-code.zip')));
    expect(Object.keys(claude.files).sort()).toEqual(['.claude/rules/style.md', '.claude/skills/add-test/SKILL.md', '.claude/skills/add-test/references/checklist.md', '.mcp.json', 'AGENTS.md', 'CLAUDE.md']);
    const source = await JSZip.loadAsync(readFileSync(join(out, 'download/tools/source.zip')));
    expect(Object.keys(source.files).sort()).toEqual(['tools/AGENTS.md', 'tools/CLAUDE.md', 'tools/GEMINI.md', 'tools/loadout.yaml', 'tools/mcp/servers.json', 'tools/rules/style.md', 'tools/skills/add-test/SKILL.md', 'tools/skills/add-test/references/checklist.md']);
  });

  it('writes byte-identical zips when built twice from the same input', async () => {
    const { root } = twoVersionCatalogue();
    await buildCatalogue({ root, out: join(root, 'a'), baseUrl: BASE });
    await buildCatalogue({ root, out: join(root, 'b'), baseUrl: BASE, now: new Date('2030-01-01T00:00:00Z') });
    for (const name of [...PUBLISHED_AGENTS.map((a) => `${a}.zip`), 'source.zip']) {
      expect(readFileSync(join(root, 'a/download/tools', name)).equals(readFileSync(join(root, 'b/download/tools', name))), name).toBe(true);
    }
  });

  it('writes the same bytes building one loadout at a time as building eight at once', async () => {
    const { root } = twoVersionCatalogue();
    for (let i = 0; i < 12; i++) writeLoadout(root, { id: `extra-${i}`, title: `Extra ${i}`, version: `1.${i}.0`, files: [...baseFiles(`Extra ${i}`, `# Extra ${i}\n\nInstructions ${i}.\n`), ...(i % 2 === 0 ? skillFiles : [])] });
    commitAll(root, 'extras', '2026-03-01T10:00:00Z');
    const now = new Date('2030-01-01T00:00:00Z');
    const one = await buildCatalogue({ root, out: join(root, 'serial'), baseUrl: BASE, now, concurrency: 1 });
    expect(one.refused, JSON.stringify(one.runs.flatMap((r) => r.diagnostics)).slice(0, 2000)).toEqual([]);
    await buildCatalogue({ root, out: join(root, 'parallel'), baseUrl: BASE, now });
    const serial = treeEntries(join(root, 'serial'));
    expect(serial.length).toBeGreaterThan(250);
    expect(leftoversBeside(join(root, 'serial'))).toEqual([]);
    expect(treeEntries(join(root, 'parallel'))).toEqual(serial);
    expect(differingFiles(join(root, 'serial'), join(root, 'parallel'))).toEqual([]);
  });

  it("links a loadout's raw latest folder to its version's, and hard-links its discovery files to its pinned raw files", async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    expect(lstatSync(join(out, 'raw/tools/latest')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(out, 'raw/tools/latest'))).toBe('1.1.0');
    const inode = (path: string): bigint => statSync(join(out, path), { bigint: true }).ino;
    for (const file of ['AGENTS.md', 'rules/style.md', 'skills/add-test/SKILL.md']) expect(inode(`raw/tools/latest/${file}`), file).toBe(inode(`raw/tools/1.1.0/${file}`));
    expect(inode('loadouts/tools/.well-known/skills/add-test/references/checklist.md')).toBe(inode('raw/tools/1.1.0/skills/add-test/references/checklist.md'));
    expect(inode('.well-known/skills/add-test/SKILL.md')).toBe(inode('raw/tools/1.1.0/skills/add-test/SKILL.md'));
    // An older version's files are its own: 1.0.0's rule differs from 1.1.0's.
    expect(inode('raw/tools/1.0.0/rules/style.md')).not.toBe(inode('raw/tools/1.1.0/rules/style.md'));
    // The files as installed (issue 57 point 11): `latest` links to the version's folder; a file installed as it is links to its raw file, and five agents' shared skill files are one file.
    expect(readlinkSync(join(out, 'raw/tools/installed/latest'))).toBe('1.1.0');
    expect(inode('raw/tools/installed/1.1.0/codex/.agents/skills/add-test/SKILL.md')).toBe(inode('raw/tools/1.1.0/skills/add-test/SKILL.md'));
    expect(inode('raw/tools/installed/1.1.0/cursor/.agents/skills/add-test/SKILL.md')).toBe(inode('raw/tools/1.1.0/skills/add-test/SKILL.md'));
    expect(inode('raw/tools/installed/1.1.0/cursor/.cursor/rules/style.mdc')).not.toBe(inode('raw/tools/1.1.0/rules/style.md'));
    expect(expectInstalledFiles(out, 'tools')).toBeGreaterThan(0);
  });

  it('writes the catalogue documents and the schema', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    const list = readJson<{ total: number; loadouts: { id: string; verified: boolean }[] }>(join(out, 'api/loadouts.json'));
    expect(list.total).toBe(2);
    expect(list.loadouts.map((l) => l.id)).toEqual(['plain', 'tools']);
    expect(readJson<{ stacks: { tag: string; count: number }[] }>(join(out, 'api/tags.json')).stacks).toEqual([{ tag: 'typescript', count: 2 }]);
    expect(readJson<{ agents: { id: string }[] }>(join(out, 'api/agents.json')).agents.map((a) => a.id)).toEqual([...PUBLISHED_AGENTS]);
    const schema = readJson<Record<string, unknown>>(join(out, 'api/schema.json'));
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema['$id']).toBe(`${BASE}/api/schema.json`);
    const description = readJson<Record<string, unknown>>(join(out, 'api/v1/index.json'));
    expect(description).toMatchObject({ name: 'Loadout Catalogue', version: 1, docs: `${BASE}/docs/#submit`, schema: `${BASE}/api/schema.json` });
    expect(readFileSync(join(out, 'loadouts/tools/index.html'), 'utf8')).toContain('<h1>Tools Loadout</h1>');
    expect(readFileSync(join(out, 'docs/index.html'), 'utf8')).toContain('id="submit"');
  });

  it('refuses a catalogue with a failing loadout and leaves the previous dist untouched', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    const before = readFileSync(join(out, 'api/loadouts/tools.json'), 'utf8');
    writeFileSync(join(root, 'loadouts/tools/AGENTS.md'), '# changed\n');
    writeFileSync(join(root, 'loadouts/plain/stray.txt'), 'undeclared\n');
    const result = await buildCatalogue({ root, out, baseUrl: BASE });
    expect(result.written).toBe(false);
    expect(result.refused).toEqual(['plain']);
    expect(readFileSync(join(out, 'api/loadouts/tools.json'), 'utf8')).toBe(before);
    expect(leftoversBeside(out)).toEqual([]);
  });

  it('a refused build leaves the live tree and its standby whole, also when loadouts before the failing one were already written', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    writeFileSync(join(root, 'loadouts/tools/AGENTS.md'), '# second\n');
    await buildCatalogue({ root, out, baseUrl: BASE });
    const live = realpathSync(out);
    const standby = findStandby(out);
    expect(standby).toBeDefined();
    const standbyInode = statSync(standby ?? '').ino;
    const before = readFileSync(join(out, 'api/loadouts/tools.json'), 'utf8');

    // Loadouts are written into the store while later ones are checked; no tree changes before
    // every loadout passed, and a refusal removes what the build wrote.
    writeFileSync(join(root, 'loadouts/tools/AGENTS.md'), '# third\n');
    writeLoadout(root, { id: 'zzz-bad' });
    writeFileSync(join(root, 'loadouts/zzz-bad/stray.txt'), 'undeclared\n');
    expect((await buildCatalogue({ root, out, baseUrl: BASE })).refused).toEqual(['zzz-bad']);
    expect(realpathSync(out)).toBe(live);
    expect(readFileSync(join(out, 'api/loadouts/tools.json'), 'utf8')).toBe(before);
    expect(findStandby(out)).toBe(standby);
    expect(existsSync(join(standby ?? '', '.complete'))).toBe(true);
    expect(leftoversBeside(out)).toEqual([]);

    // The same for a clean build, which writes every loadout again.
    expect((await buildCatalogue({ root, out, baseUrl: BASE, clean: true })).refused).toEqual(['zzz-bad']);
    expect(realpathSync(out)).toBe(live);
    expect(readFileSync(join(out, 'api/loadouts/tools.json'), 'utf8')).toBe(before);
    expect(treeFolders(treesFolderOf(out)).sort()).toEqual([live, standby, join(treesFolderOf(out), STORE_FOLDER)].sort());
    expect(leftoversBeside(out)).toEqual([]);

    // Fixed: the next build brings that same standby up to date and makes it live.
    rmSync(join(root, 'loadouts/zzz-bad/stray.txt'));
    expect((await buildCatalogue({ root, out, baseUrl: BASE })).written).toBe(true);
    expect(statSync(out).ino).toBe(standbyInode);
    expect(readJson<PublishedRecord>(join(out, 'api/loadouts/tools.json')).files.find((f) => f.path === 'AGENTS.md')?.content).toBe('# third\n');
  });

  it('leaves dist untouched and no temporary folder when writing fails part-way', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    const before = readFileSync(join(out, 'api/loadouts.json'), 'utf8');
    writeLoadout(root, { id: 'zzz-new' });
    await expect(buildCatalogue({ root, out, baseUrl: BASE, onProgress: (_d, _t, id) => { if (id === 'zzz-new') throw new Error('disk full'); } })).rejects.toThrow('disk full');
    expect(readFileSync(join(out, 'api/loadouts.json'), 'utf8')).toBe(before);
    expect(existsSync(join(out, 'api/loadouts/zzz-new.json'))).toBe(false);
    expect(leftoversBeside(out)).toEqual([]);
  });

  it('builds outside git with a warning, publishing only the working-tree version', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'solo' });
    const result = await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE });
    expect(result.warnings).toEqual([expect.stringContaining('not a git repository')]);
    expect(result.loadouts).toEqual([{ id: 'solo', version: '1.0.0', versions: ['1.0.0'] }]);
    expect(readJson<PublishedRecord>(join(root, 'dist/api/loadouts/solo.json')).verification.commit).toBe('working-tree');
  });

  it('publishes the committed version too when a bump is not committed yet, and marks the commit dirty', async () => {
    const { root } = twoVersionCatalogue();
    writeLoadout(root, { id: 'plain', version: '2.1.0' });
    const result = await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE });
    expect(result.loadouts.find((l) => l.id === 'plain')?.versions).toEqual(['2.0.0', '2.1.0']);
    expect(readJson<PublishedRecord>(join(root, 'dist/api/loadouts/plain.json')).verification.commit).toMatch(/^[0-9a-f]{40}\+dirty$/u);
  });

  it('gives a version the last commit of the loadout that held it, whatever the working tree and later commits hold; the uncommitted version is marked dirty', async () => {
    const { root, v1 } = twoVersionCatalogue();
    const out = join(root, 'dist');
    type Versions = { versions: { version: string; commit: string; changes: string[] }[] };
    const entries = async (): Promise<[string, string, string[]][]> => {
      await buildCatalogue({ root, out, baseUrl: BASE });
      return readJson<Versions>(join(out, 'api/loadouts/plain/versions.json')).versions.map((v) => [v.version, v.commit, v.changes]);
    };
    // plain was last changed by the first commit; HEAD is a later commit of another loadout.
    expect(git(root, ['rev-parse', 'HEAD']).trim()).not.toBe(v1);
    expect(await entries()).toEqual([['2.0.0', v1, ['tools 1.0.0']]]);
    writeLoadout(root, { id: 'plain', version: '2.1.0' });
    expect(await entries()).toEqual([
      ['2.0.0', v1, ['tools 1.0.0']],
      ['2.1.0', `${v1}+dirty`, []],
    ]);
    const bump = commitAll(root, 'plain 2.1.0');
    expect(await entries()).toEqual([
      ['2.0.0', v1, ['tools 1.0.0']],
      ['2.1.0', bump, ['plain 2.1.0']],
    ]);
  });
});

describe('incremental build', () => {
  it('carries unchanged loadouts over and rebuilds only the changed one, with the same outputs as a clean build', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    const now = new Date('2026-03-01T00:00:00Z');
    const first = await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(first.reused).toEqual([]);
    const second = await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(second.reused).toEqual(['plain', 'tools']);
    expect(second.loadouts).toEqual(first.loadouts);

    writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), '# Plain\n\nChanged in the working tree.\n');
    const third = await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(third.reused).toEqual(['tools']);
    expect(readFileSync(join(out, 'raw/plain/latest/AGENTS.md'), 'utf8')).toContain('Changed in the working tree.');
    // The carried-over loadout keeps its files as installed, the rebuilt one has its new ones (issue 57 point 11).
    expect(expectInstalledFiles(out, 'tools')).toBeGreaterThan(0);
    expectInstalledFiles(out, 'plain');
    expect(readFileSync(join(out, 'raw/plain/installed/latest/codex/AGENTS.md'), 'utf8')).toContain('Changed in the working tree.');

    const clean = join(root, 'clean');
    await buildCatalogue({ root, out: clean, baseUrl: BASE, now, clean: true });
    expect(treeEntries(out)).toEqual(treeEntries(clean));
    expect(differingFiles(out, clean)).toEqual([]);
  });

  it('the first build keeps as its standby a copy of its tree by hard links: every path the same inode, but its own complete marker', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z') });
    const live = realpathSync(out);
    const standby = findStandby(out) ?? '';
    expect(standby).not.toBe('');
    /** Every path below `dir` (links not followed) with the inode it names, but folders. */
    const inodes = (dir: string): Map<string, bigint> =>
      new Map(
        listFolderEntries(dir)
          .filter((e) => !e.dirent.isDirectory())
          .map((e) => [e.path, lstatSync(join(dir, e.path), { bigint: true }).ino]),
      );
    const [a, b] = [inodes(live), inodes(standby)];
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    // Loadouts' links, documents and the cache: shared. A tree's marker is its own.
    expect([...a].filter(([path, ino]) => b.get(path) !== ino).map(([path]) => path)).toEqual(['.complete']);
    expect(lstatSync(join(standby, 'raw', 'tools')).isSymbolicLink()).toBe(true);
  });

  it('the catalogue documents of a new tree wait for its loadouts to be linked before the discovery indexes, which link files through them', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    const built = await buildCatalogue({ root, out, baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z') });
    const kept = built.kept;
    if (kept === undefined) throw new Error('the build kept nothing');
    // A new tree whose loadouts are not linked yet, as build.ts writes it while the pool links them.
    const dir = join(treesFolderOf(out), 'documents-first');
    mkdirSync(dir);
    const files = new TreeFiles(dir);
    let link: () => void = () => undefined;
    const loadoutsLinked = new Promise<void>((resolve) => (link = resolve));
    const listings = [...kept.previous.cache.listings().values()];
    let done = false;
    const writing = writeCatalogueDocuments(outputOver(files), BASE, listings, kept.previous.index, { loadoutsLinked }).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    expect(existsSync(join(dir, 'api/loadouts.json'))).toBe(true);
    expect(existsSync(join(dir, '.well-known/skills/index.json'))).toBe(false);
    for (const [id, name] of kept.linked) linkEntry(files, join(treesFolderOf(out), STORE_FOLDER), id, name);
    link();
    await writing;
    expect(readFileSync(join(dir, '.well-known/skills/add-test/SKILL.md'), 'utf8')).toBe(readFileSync(join(out, '.well-known/skills/add-test/SKILL.md'), 'utf8'));
  });

  it('brings the standby tree up to date in place, build after build, with the same outputs as a clean build', async () => {
    const { root } = twoVersionCatalogue();
    writeLoadout(root, { id: 'gone-soon', title: 'Gone Soon' });
    commitAll(root, 'gone-soon', '2026-03-01T10:00:00Z');
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    const liveIno = (): bigint => statSync(realpathSync(out), { bigint: true }).ino;
    const steps: [string, () => void][] = [
      ['nothing changed', () => undefined],
      ['plain changed', () => writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), '# Plain\n\nChanged once.\n')],
      ['tools changed too', () => writeFileSync(join(root, 'loadouts/tools/rules/style.md'), rule('Use strict mode. Prefer const. No any. Name things well.').content)],
      ['a loadout removed, one added', () => {
        rmSync(join(root, 'loadouts/gone-soon'), { recursive: true });
        writeLoadout(root, { id: 'newcomer', title: 'Newcomer', files: [...baseFiles('Newcomer', '# Newcomer\n\nNew here.\n'), ...skillFiles] });
      }],
      ['plain changed back', () => writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), readFileSync(join(root, 'loadouts/tools/AGENTS.md'), 'utf8').replace('Tools', 'Plain'))],
      ['the removed loadout back', () => writeLoadout(root, { id: 'gone-soon', title: 'Gone Soon' })],
    ];
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    for (const [i, [name, change]] of steps.entries()) {
      change();
      // Every rebuild, the first after the cold build too, updates the standby in place (the
      // cold build's standby is its copy by links; later, the tree live two builds before).
      const standby = findStandby(out);
      expect(standby, name).toBeDefined();
      const standbyIno = statSync(standby ?? '', { bigint: true }).ino;
      const result = await buildCatalogue({ root, out, baseUrl: BASE, now });
      expect(result.written, name).toBe(true);
      expect(liveIno(), name).toBe(standbyIno);
      const clean = join(root, `clean-${i}`);
      await buildCatalogue({ root, out: clean, baseUrl: BASE, now, clean: true });
      expect(treeEntries(out), name).toEqual(treeEntries(clean));
      expect(differingFiles(out, clean), name).toEqual([]);
    }
  });

  it('links from the live tree the documents that would be the same, and writes the others, with the same outputs as a clean build', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    const folderMarketplaces = ['plugins/.claude-plugin/marketplace.json', 'plugins/.agents/plugins/claude-marketplace.json', 'plugins/.cursor-plugin/marketplace.json'];
    const inode = (tree: string, path: string): bigint => statSync(join(tree, path), { bigint: true }).ino;
    const live = (): string => realpathSync(out);
    /** The documents of `paths` that the tree live now shares with `before` (the same file, not a copy). */
    const shared = (before: string, paths: string[]): string[] => paths.filter((path) => inode(live(), path) === inode(before, path));
    const pages = ['index.html', 'sitemap.xml', 'feed.atom'];
    // The catalogue's discovery folder, carried file by file: its indexes (its legacy files are
    // links to the loadouts' own, carried or not; their bytes are compared with a clean build's).
    const discovery = ['.well-known/agent-skills/index.json', '.well-known/skills/index.json'];
    const documents = [...folderMarketplaces, 'plugins/claude-marketplace.json', 'api/skills.json', 'api/loadouts.json', ...pages, ...discovery];
    /** The discovery folder as its readers see it: the same paths as a clean build's. */
    const discoveryEntries = (dir: string): string[] => treeEntries(dir).filter((path) => path.startsWith('.well-known/'));
    const clean = async (name: string): Promise<void> => {
      const dir = join(root, name);
      await buildCatalogue({ root, out: dir, baseUrl: BASE, now, clean: true });
      expect(differingFiles(out, dir), name).toEqual([]);
      expect(discoveryEntries(out), name).toEqual(discoveryEntries(dir));
    };
    await buildCatalogue({ root, out, baseUrl: BASE, now });

    // A loadout's instructions changed: its plugin's zip changes (the marketplace by URL pins it
    // by sha256), its name, summary and skills do not.
    let before = live();
    writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), '# Plain\n\nChanged in the working tree.\n');
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now })).reused).toEqual(['tools']);
    expect(live()).not.toBe(before);
    expect(shared(before, documents)).toEqual([...folderMarketplaces, 'api/skills.json', ...pages, ...discovery]);
    await clean('clean-instructions');

    // Its summary changed: the marketplaces that describe their plugins say it, and the list
    // does; Codex's names its plugins and their folders only.
    before = live();
    writeLoadout(root, { id: 'plain', version: '2.0.0', manifest: { summary: 'A plain loadout, summarised anew for the marketplaces.' } });
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    // The pages are compared by all that any of them reads of a loadout (the sitemap reads no summary, but the home page and the feed do).
    expect(shared(before, documents)).toEqual(['plugins/.agents/plugins/claude-marketplace.json', 'api/skills.json', ...discovery]);
    for (const path of [...folderMarketplaces.filter((p) => !p.includes('.agents')), 'plugins/claude-marketplace.json', 'api/loadouts.json', 'index.html', 'feed.atom']) {
      expect(readFileSync(join(out, path), 'utf8'), path).toContain('summarised anew for the marketplaces');
    }
    await clean('clean-summary');

    // A skill's file changed under the same names: its 0.2 digest changes, so the folder is written
    // again, with the new bytes, in a tree that held the old ones (the standby taken over).
    before = live();
    writeFileSync(join(root, 'loadouts/tools/skills/add-test/references/checklist.md'), '# Checklist\n\n- Arrange, act, assert.\n- Name the case.\n');
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(shared(before, discovery)).toEqual([]);
    expect(readFileSync(join(out, '.well-known/skills/add-test/references/checklist.md'), 'utf8')).toContain('Name the case.');
    expect(readFileSync(join(out, '.well-known/skills/index.json'), 'utf8')).toContain('add-test');
    await clean('clean-skill-changed');
    // Nothing changed since: the standby taken over (two builds old) is brought up to date in place.
    // The documents it held went into the store's trash, which a thread of the pool deleted before the build ended.
    before = live();
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(shared(before, discovery)).toEqual(discovery);
    expect(readdirSync(join(treesFolderOf(out), STORE_FOLDER)).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(readFileSync(join(out, '.well-known/skills/add-test/references/checklist.md'), 'utf8')).toContain('Name the case.');
    // The skill removed: the tree taken over held its files, and holds none of them now.
    rmSync(join(root, 'loadouts/tools/skills'), { recursive: true });
    writeLoadout(root, { id: 'tools', title: 'Tools Loadout', version: '1.1.0', files: [...baseFiles('Tools Loadout', '# Tools\n\nVersion two instructions.\n'), rule('Use strict mode. Prefer const. No any.'), mcpFile], manifest: TOOLS_MANIFEST });
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(discoveryEntries(out)).toEqual(['.well-known/agent-skills/index.json', '.well-known/skills/index.json']);
    await clean('clean-skill-removed');
    // And back: the standby taken over now holds none of its files.
    rmSync(join(root, 'loadouts/tools'), { recursive: true });
    writeLoadout(root, { id: 'tools', title: 'Tools Loadout', version: '1.1.0', files: [...baseFiles('Tools Loadout', '# Tools\n\nVersion two instructions.\n'), rule('Use strict mode. Prefer const. No any.'), ...skillFiles, mcpFile], manifest: TOOLS_MANIFEST });
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(discoveryEntries(out)).toContain('.well-known/skills/add-test/references/checklist.md');
    await clean('clean-skill-back');

    // A loadout added: no document is the same.
    before = live();
    writeLoadout(root, { id: 'another', title: 'Another' });
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(shared(before, documents)).toEqual([]);
    await clean('clean-added');

    // Nothing changed: every one is linked.
    before = live();
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(shared(before, documents)).toEqual(documents);

    // Another marketplace owner: the builder's settings changed, so the build starts from nothing.
    before = live();
    const owned = { ...DEFAULT_MARKETPLACE, owner: { name: 'Another Owner' } };
    const rebuilt = await buildCatalogue({ root, out, baseUrl: BASE, now, marketplace: owned });
    expect(rebuilt.reused).toEqual([]);
    expect(shared(before, documents)).toEqual([]);
    for (const path of folderMarketplaces) expect(readFileSync(join(out, path), 'utf8'), path).toContain('Another Owner');
  });

  it('builds again a loadout whose listing line the cache lacks or garbles, read or not, with the outputs of a clean build', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    /** Cuts the listing line of `id` in the live tree's cache (a new file: the standby shares the old one by a hard link). */
    const garble = (id: string): void => {
      const file = join(realpathSync(out), BUILD_CACHE_FILE);
      const lines = readFileSync(file, 'utf8').split('\n');
      const at = lines.findIndex((line) => line.startsWith(`{"id":${JSON.stringify(id)},"listing":`));
      expect(at).toBeGreaterThan(0);
      lines[at] = (lines[at] as string).slice(0, 60);
      rmSync(file);
      writeFileSync(file, lines.join('\n'));
    };
    const clean = async (name: string): Promise<void> => {
      const dir = join(root, name);
      await buildCatalogue({ root, out: dir, baseUrl: BASE, now, clean: true });
      expect(differingFiles(out, dir), name).toEqual([]);
    };
    // Nothing changed: its folder is not read, then its listing is found missing, and it is built.
    garble('tools');
    const rebuilt = await buildCatalogue({ root, out, baseUrl: BASE, now });
    expect(rebuilt.read).toEqual(['tools']);
    expect(rebuilt.reused).toEqual(['plain']);
    await clean('clean-unread');
    // The cache that build wrote is whole again: the next build reads nothing.
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now })).read).toEqual([]);
    // A watcher says it changed, and its key is the same: found unchanged, then built, its listing missing.
    garble('plain');
    const told = await buildCatalogue({ root, out, baseUrl: BASE, now, changed: ['plain'] });
    expect(told.read).toEqual(['plain']);
    expect(told.reused).toEqual(['tools']);
    await clean('clean-told');
  });

  it('tells unchanged loadouts by their git tree ids and history, without reading them', async () => {
    const { root } = twoVersionCatalogue();
    writeLoadout(root, { id: 'third', title: 'Third' });
    commitAll(root, 'third', '2026-03-01T10:00:00Z');
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    const build = async (): Promise<Awaited<ReturnType<typeof buildCatalogue>>> => buildCatalogue({ root, out, baseUrl: BASE, now });
    expect((await build()).read).toEqual(['plain', 'third', 'tools']);
    // git answers for the working tree: no wait for racy time stamps before the next build skips them.
    expect((await build()).read).toEqual([]);
    const steps: [string, () => void, string[]][] = [
      ['nothing changed', () => undefined, []],
      ['a file rewritten', () => writeFileSync(join(root, 'loadouts/third/AGENTS.md'), '# Third\n\nChanged.\n'), ['third']],
      ['a file added deep down', () => writeFileSync(join(root, 'loadouts/tools/skills/add-test/references/extra.md'), 'extra\n'), ['third', 'tools']],
      ['that file removed', () => rmSync(join(root, 'loadouts/tools/skills/add-test/references/extra.md')), ['third']],
      ['the change committed', () => commitAll(root, 'third changed', '2026-03-03T10:00:00Z'), ['third']],
      ['a commit outside loadouts/', () => {
        writeFileSync(join(root, 'NOTES.md'), 'notes\n');
        commitAll(root, 'notes', '2026-03-04T10:00:00Z');
      }, []],
      ['the last commit amended (history rewritten)', () => git(root, ['commit', '-q', '--amend', '-m', 'notes, reworded']), ['plain', 'third', 'tools']],
    ];
    for (const [name, change, read] of steps) {
      change();
      const result = await build();
      expect(result.read, name).toEqual(read);
      if (name === 'a file added deep down') {
        // The file is not in the manifest: the listing check refuses the build.
        expect(result.refused, name).toEqual(['tools']);
        continue;
      }
      expect(result.written, name).toBe(true);
      const clean = join(root, 'clean');
      rmSync(clean, { recursive: true, force: true });
      rmSync(treesFolderOf(clean), { recursive: true, force: true });
      await buildCatalogue({ root, out: clean, baseUrl: BASE, now, clean: true });
      expect(differingFiles(out, clean), name).toEqual([]);
    }
    expect(readJson<PublishedRecord>(join(out, 'api/loadouts/third.json')).verification.commit).toBe(git(root, ['log', '-1', '--format=%H', '--', 'loadouts/third']).trim());
  });

  it('rebuilds everything for another base URL, and with clean', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    expect((await buildCatalogue({ root, out, baseUrl: 'https://other.test' })).reused).toEqual([]);
    expect(readJson<PublishedRecord>(join(out, 'api/loadouts/tools.json')).api_url).toBe('https://other.test/api/loadouts/tools.json');
    expect((await buildCatalogue({ root, out, baseUrl: 'https://other.test', clean: true })).reused).toEqual([]);
  });

  it('rebuilds a loadout whose history changed even when its files did not', async () => {
    const { root } = twoVersionCatalogue();
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: BASE });
    writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), '# Plain\n\nNew text.\n');
    await buildCatalogue({ root, out, baseUrl: BASE });
    commitAll(root, 'plain text', '2026-04-01T10:00:00Z');
    const after = await buildCatalogue({ root, out, baseUrl: BASE });
    expect(after.reused).toEqual(['tools']);
    expect(readJson<PublishedRecord>(join(out, 'api/loadouts/plain.json')).updated).toBe('2026-04-01');
  });
});
