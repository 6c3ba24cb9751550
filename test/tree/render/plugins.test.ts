/**
 * The native plugins of the built tree (DESIGN.md "Native plugins"; src/tree/render/plugins.ts,
 * plugin-marketplaces.ts): every manifest and marketplace validated against the vendors'
 * published schemas vendored in test/fixtures/plugin-schemas/ (README there: sources and
 * licences), skills byte for byte, the zips read back and pinned by sha256, the same bytes
 * across builds, a rebuild that rewrites only the changed loadout's plugin, and the signed
 * snapshot over the marketplaces and zips.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/tree/build.js';
import { readSigningKey, trustPublishedKey } from '../../../src/tree-format/signing/keys.js';
import { verifySnapshot } from '../../../src/tree-format/signing/verify.js';
import { SNAPSHOT_PATH } from '../../../src/tree-format/signing/snapshot.js';
import { translateRule } from '../../../src/layout/rule-translation.js';
import { baseFiles, writeLoadout, type TestFile } from '../../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../../helpers/temp.js';
import { treeEntries } from '../../helpers/tree.js';

const BASE = 'https://catalogue.test';
const SCHEMAS = new URL('../../fixtures/plugin-schemas/', import.meta.url);
const readJson = <T = Record<string, unknown>>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const schema = (path: string): object => JSON.parse(readFileSync(new URL(path, SCHEMAS), 'utf8')) as object;
const addFormats = (addFormatsModule as unknown as { default: (a: Ajv | Ajv2020) => void }).default;

// The vendors' schemas as published: not strict (SchemaStore's use keywords Ajv's strict mode refuses).
const draft7 = new Ajv({ allErrors: true, strict: false });
addFormats(draft7);
const draft2020 = new Ajv2020({ allErrors: true, strict: false });
addFormats(draft2020);
const VALIDATORS: Record<string, ValidateFunction> = {
  agentPlugin: draft2020.compile(schema('agent-plugins/plugin.schema.json')),
  agentMcp: draft2020.compile(schema('agent-plugins/mcp.schema.json')),
  claudePlugin: draft7.compile(schema('schemastore/claude-code-plugin-manifest.json')),
  claudeMarketplace: draft7.compile(schema('schemastore/claude-code-marketplace.json')),
  cursorPlugin: draft7.compile(schema('cursor/plugin.schema.json')),
  cursorMarketplace: draft7.compile(schema('cursor/marketplace.schema.json')),
  gemini: draft7.compile(schema('gemini/gemini-extension.schema.json')),
};

/** Ajv's errors for `value` against the named schema, as `pointer message` lines ([] when valid). */
function errorsOf(name: keyof typeof VALIDATORS, value: unknown): string[] {
  const validate = VALIDATORS[name] as ValidateFunction;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message ?? ''}`);
}

const skill: TestFile[] = [
  { path: 'skills/add-test/SKILL.md', role: 'skill', skill: 'add-test', content: '---\nname: add-test\ndescription: Adds a unit test next to the code it tests.\n---\n\n# Add a test\n\nSee [the checklist](references/checklist.md).\n' },
  { path: 'skills/add-test/references/checklist.md', role: 'reference', skill: 'add-test', content: '# Checklist\n\n- Arrange, act, assert. Ünïcode kept.\n' },
];
const rule: TestFile = { path: 'rules/style.md', role: 'rules', content: '---\ndescription: Style rule\nglobs: ["src/**/*.ts"]\n---\n\nUse strict mode.\n' };
const subagent: TestFile = { path: 'agents/reviewer.md', role: 'subagent', content: '---\nname: reviewer\ndescription: Reviews a change before it is merged.\n---\n\nReview the diff.\n' };
const mcp: TestFile = {
  path: 'mcp/servers.json',
  role: 'mcp',
  content: `${JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'] }, db: { command: 'uvx', args: ['postgres-mcp'], env: { DATABASE_URI: '${POSTGRES_URL}' } } } }, null, 2)}\n`,
};
const TOOLS_MANIFEST = { requires: { tools: [], env: ['POSTGRES_URL'], mcp: ['docs', 'db'] }, security: { scanned: true, network: true, scripts: [] }, categories: ['workflow', 'data'], stacks: ['typescript', 'postgres'] };

/** A git repository with loadout `tools` (skills, a rule, a subagent, MCP servers) and `plain`. */
function catalogue(): string {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, { id: 'tools', title: 'Tools Loadout', files: [...baseFiles('Tools Loadout'), ...skill, rule, subagent, mcp], manifest: TOOLS_MANIFEST });
  writeLoadout(root, { id: 'plain', version: '2.0.0' });
  commitAll(root, 'two loadouts', '2026-01-10T10:00:00Z');
  return root;
}

/** The files of a folder (links followed), relative paths → bytes. */
function folderFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const path of treeEntries(dir)) if (!path.includes(' -> ')) files.set(path, readFileSync(join(dir, path)));
  return files;
}

async function zipFiles(path: string): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const files = new Map<string, Buffer>();
  for (const entry of Object.values(zip.files)) if (!entry.dir) files.set(entry.name, await entry.async('nodebuffer'));
  return files;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('native plugins in the built tree', () => {
  it('writes a plugin folder per loadout whose every manifest passes the vendor schemas', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE });
    for (const id of ['plain', 'tools']) {
      const folder = join(dist, 'plugins', id);
      const errors = [
        ...errorsOf('agentPlugin', readJson(join(folder, 'plugin.json'))),
        ...errorsOf('claudePlugin', readJson(join(folder, '.claude-plugin/plugin.json'))),
        ...errorsOf('cursorPlugin', readJson(join(folder, '.cursor-plugin/plugin.json'))),
        ...errorsOf('gemini', readJson(join(folder, 'gemini-extension.json'))),
      ];
      expect(errors).toEqual([]);
      // Gemini CLI expects the extension's name to be its folder's.
      expect(readJson(join(folder, 'gemini-extension.json'))['name']).toBe(id);
      expect(readJson(join(folder, 'plugin.json'))).toMatchObject({ name: id, homepage: `${BASE}/loadouts/${id}/`, license: 'MIT' });
    }
    const tools = join(dist, 'plugins/tools');
    expect(errorsOf('agentMcp', readJson(join(tools, 'mcp.json')))).toEqual([]);
    // The server that takes an environment variable cannot be carried by Agent Plugins 1.0; the others keep it in their syntax.
    expect(Object.keys(readJson<{ mcpServers: object }>(join(tools, 'mcp.json')).mcpServers)).toEqual(['docs']);
    expect(Object.keys(readJson<{ mcpServers: object }>(join(tools, '.mcp.json')).mcpServers).sort()).toEqual(['db', 'docs']);
    expect(readJson<{ mcpServers: Record<string, { env?: object }> }>(join(tools, 'gemini-extension.json')).mcpServers['db']?.env).toEqual({ DATABASE_URI: '${POSTGRES_URL}' });
    expect(readJson(join(tools, 'gemini-extension.json'))['contextFileName']).toBe('AGENTS.md');
    const readme = readFileSync(join(tools, 'README.md'), 'utf8');
    expect(readme).toContain('the MCP server `db`: it takes an environment variable');
    expect(readme).toContain(`npx -y ${BASE}/cli/loadout-latest.tgz install tools --agent claude-code --from ${BASE}`);
    // A plain loadout writes no MCP files and no rules folder.
    expect(existsSync(join(dist, 'plugins/plain/mcp.json'))).toBe(false);
    expect(readJson(join(dist, 'plugins/plain/.cursor-plugin/plugin.json'))).not.toHaveProperty('rules');
  });

  it('carries skills and subagents byte for byte, the instructions as AGENTS.md and rules translated for Cursor', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE });
    const tools = join(dist, 'plugins/tools');
    const source = (path: string): Buffer => readFileSync(join(root, 'loadouts/tools', path));
    expect(readFileSync(join(tools, 'skills/add-test/SKILL.md')).equals(source('skills/add-test/SKILL.md'))).toBe(true);
    expect(readFileSync(join(tools, 'skills/add-test/references/checklist.md')).equals(source('skills/add-test/references/checklist.md'))).toBe(true);
    expect(readFileSync(join(tools, 'agents/reviewer.md')).equals(source('agents/reviewer.md'))).toBe(true);
    expect(readFileSync(join(tools, 'AGENTS.md')).equals(source('AGENTS.md'))).toBe(true);
    expect(readFileSync(join(tools, 'rules/style.mdc'), 'utf8')).toBe(translateRule(rule.content, 'cursor'));
    expect(readJson(join(tools, '.cursor-plugin/plugin.json'))).toMatchObject({ skills: './skills/', rules: './rules/', agents: './agents/', mcpServers: './.cursor-plugin/mcp.json' });
  });

  it('writes folder marketplaces that pass the vendor schemas and point at the plugin folders', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE, marketplace: { name: 'acme-loadouts', owner: { name: 'Acme', url: 'https://acme.test' }, description: 'Acme loadouts.' } });
    const claude = readJson<{ name: string; plugins: { name: string; source: string; version: string; category: string; tags: string[] }[] }>(join(dist, 'plugins/.claude-plugin/marketplace.json'));
    expect(errorsOf('claudeMarketplace', claude)).toEqual([]);
    expect(claude.name).toBe('acme-loadouts');
    expect(claude.plugins.map((p) => [p.name, p.source, p.version])).toEqual([
      ['plain', './plain', '2.0.0'],
      ['tools', './tools', '1.0.0'],
    ]);
    expect(claude.plugins[1]).toMatchObject({ category: 'workflow', tags: ['typescript', 'postgres'] });
    const cursor = readJson<{ plugins: { source: string }[] }>(join(dist, 'plugins/.cursor-plugin/marketplace.json'));
    expect(errorsOf('cursorMarketplace', cursor)).toEqual([]);
    // Codex (codex-rs/core-plugins marketplace.rs): `./` paths below the folder holding `.agents/`, each a plugin with a manifest.
    const codex = readJson<{ name: string; plugins: { name: string; source: { source: string; path: string } }[] }>(join(dist, 'plugins/.agents/plugins/claude-marketplace.json'));
    expect(codex.name).toBe('acme-loadouts');
    for (const p of codex.plugins) {
      expect(p.source.source).toBe('local');
      expect(p.source.path).toBe(`./${p.name}`);
      expect(existsSync(join(dist, 'plugins', p.source.path, 'plugin.json'))).toBe(true);
    }
    for (const p of cursor.plugins) expect(existsSync(join(dist, 'plugins', p.source, '.cursor-plugin/plugin.json'))).toBe(true);
  });

  it('publishes a URL marketplace of archive sources pinned by the sha256 of zips that hold the plugin folder', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE });
    const url = readJson<{ plugins: { name: string; version: string; source: { source: string; url: string; sha256: string } }[] }>(join(dist, 'plugins/claude-marketplace.json'));
    // SchemaStore's schema predates the archive source (README of the schemas): the rest of each entry is validated, the source below.
    expect(errorsOf('claudeMarketplace', { ...url, plugins: url.plugins.map((p) => ({ ...p, source: `./${p.name}` })) })).toEqual([]);
    for (const p of url.plugins) {
      expect(p.source.source).toBe('archive');
      expect(p.source.url).toBe(`${BASE}/download/${p.name}/plugin-${p.version}.zip`);
      const zip = join(dist, 'download', p.name, `plugin-${p.version}.zip`);
      expect(p.source.sha256).toBe(sha256(readFileSync(zip)));
      // The zip holds the plugin folder, file for file (its root is the plugin's root).
      const inZip = await zipFiles(zip);
      const inFolder = folderFiles(join(dist, 'plugins', p.name));
      expect([...inZip.keys()].sort()).toEqual([...inFolder.keys()].sort());
      for (const [path, bytes] of inFolder) expect(inZip.get(path)?.equals(bytes), path).toBe(true);
    }
    const description = readJson<{ plugins: unknown; endpoints: Record<string, string> }>(join(dist, 'api/v1/index.json'));
    expect(description.plugins).toEqual({ name: 'loadout-catalogue', marketplace: `${BASE}/plugins/claude-marketplace.json`, folder: `${BASE}/plugins/` });
    expect(description.endpoints).toHaveProperty(['GET /plugins/claude-marketplace.json']);
  });

  it('keeps a zip per version, and the same bytes in another build of the same loadouts', async () => {
    const root = catalogue();
    await buildCatalogue({ root, out: join(root, 'one'), baseUrl: BASE });
    writeLoadout(root, { id: 'plain', version: '2.1.0' });
    commitAll(root, 'plain 2.1.0', '2026-02-10T10:00:00Z');
    await buildCatalogue({ root, out: join(root, 'two'), baseUrl: BASE, now: new Date('2030-01-01T00:00:00Z') });
    expect(readdirSync(join(root, 'two/download/plain')).filter((n) => n.startsWith('plugin-')).sort()).toEqual(['plugin-2.0.0.zip', 'plugin-2.1.0.zip']);
    const tools = 'download/tools/plugin-1.0.0.zip';
    expect(readFileSync(join(root, 'two', tools)).equals(readFileSync(join(root, 'one', tools)))).toBe(true);
    // The old version's zip is the one the first build published.
    expect(readFileSync(join(root, 'two/download/plain/plugin-2.0.0.zip')).equals(readFileSync(join(root, 'one/download/plain/plugin-2.0.0.zip')))).toBe(true);
  });

  it('rewrites only the changed loadout\'s plugin and the marketplaces on a rebuild', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE });
    const toolsBefore = realpathSync(join(dist, 'plugins/tools'));
    const plainBefore = realpathSync(join(dist, 'plugins/plain'));
    writeFileSync(join(root, 'loadouts/plain/AGENTS.md'), '# Plain\n\nChanged instructions.\n');
    commitAll(root, 'plain changed', '2026-01-11T10:00:00Z');
    const result = await buildCatalogue({ root, out: dist, baseUrl: BASE });
    expect(result.read).toEqual(['plain']);
    expect(realpathSync(join(dist, 'plugins/tools'))).toBe(toolsBefore);
    expect(realpathSync(join(dist, 'plugins/plain'))).not.toBe(plainBefore);
    expect(readFileSync(join(dist, 'plugins/plain/AGENTS.md'), 'utf8')).toBe('# Plain\n\nChanged instructions.\n');
    const url = readJson<{ plugins: { name: string; source: { sha256: string } }[] }>(join(dist, 'plugins/claude-marketplace.json'));
    expect(url.plugins.find((p) => p.name === 'plain')?.source.sha256).toBe(sha256(readFileSync(join(dist, 'download/plain/plugin-2.0.0.zip'))));
  });

  it('signs the marketplace documents and each plugin zip in the snapshot', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    const key = readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    await buildCatalogue({ root, out: dist, baseUrl: BASE, signing: { key, expiresInDays: 30 } });
    const trusted = trustPublishedKey(key.published);
    if ('problem' in trusted) throw new Error(trusted.problem);
    const verified = verifySnapshot(readJson(join(dist, SNAPSHOT_PATH)), [trusted], { now: new Date() });
    if (!verified.ok) throw new Error(verified.failure.message);
    const documents = verified.snapshot.documents;
    for (const path of ['plugins/claude-marketplace.json', 'plugins/.claude-plugin/marketplace.json', 'plugins/.agents/plugins/claude-marketplace.json', 'plugins/.cursor-plugin/marketplace.json', 'download/tools/plugin-1.0.0.zip', 'download/plain/plugin-2.0.0.zip']) {
      const bytes = readFileSync(join(dist, path));
      expect(documents[path], path).toEqual({ sha256: sha256(bytes), bytes: bytes.byteLength });
    }
  });

  it('leads each agent\'s tab of the page with its plugin manager\'s commands, then what the plugin cannot carry, with MCP install links', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE, marketplace: { name: 'acme-loadouts', owner: { name: 'Acme' }, description: 'Acme loadouts.', git: { repository: 'acme/catalogue', branch: 'plugins' } } });
    const page = readFileSync(join(dist, 'loadouts/tools/index.html'), 'utf8');
    const panel = (agent: string): string => page.slice(page.indexOf(`id="panel-${agent}"`), page.indexOf('</section>', page.indexOf(`id="panel-${agent}"`)));
    const claude = panel('claude-code');
    expect(claude).toContain(`claude plugin marketplace add ${BASE}/plugins/claude-marketplace.json\nclaude plugin install tools@acme-loadouts`);
    expect(claude.indexOf('claude plugin install')).toBeLessThan(claude.indexOf('npx -y'));
    expect(claude).toContain('The plugin cannot carry: <code>AGENTS.md</code>');
    expect(panel('codex')).toContain('codex plugin marketplace add acme/catalogue@plugins\ncodex plugin add tools@acme-loadouts');
    expect(panel('codex')).toContain('the MCP server <code>db</code>');
    expect(panel('copilot')).toContain('git clone --depth 1 --branch plugins https://github.com/acme/catalogue.git acme-loadouts\ncopilot plugin marketplace add ./acme-loadouts\ncopilot plugin install tools@acme-loadouts');
    expect(panel('gemini-cli')).toContain(`curl -fsSLO ${BASE}/download/tools/plugin-1.0.0.zip\nunzip -q -o plugin-1.0.0.zip -d tools\nGEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install ./tools --consent`);
    // Cursor's and VS Code's links carry each server's configuration as the loadout declares it.
    const cursorLink = /href="(cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=docs&amp;config=[^"]+)"/u.exec(panel('cursor'))?.[1]?.replaceAll('&amp;', '&');
    expect(JSON.parse(Buffer.from(decodeURIComponent(new URL(cursorLink ?? '').searchParams.get('config') ?? ''), 'base64').toString('utf8'))).toEqual({ command: 'npx', args: ['-y', 'docs-mcp'] });
    const vscodeLink = /href="(vscode:mcp\/install\?[^"]+)"/u.exec(panel('copilot'))?.[1] ?? '';
    expect(JSON.parse(decodeURIComponent(vscodeLink.slice('vscode:mcp/install?'.length).replaceAll('&amp;', '&')))).toMatchObject({ name: 'docs', command: 'npx' });
    // A loadout without MCP servers has no links; without a git branch Codex and Copilot CLI show no plugin commands, and say why.
    await buildCatalogue({ root, out: join(root, 'nogit'), baseUrl: BASE });
    const plain = readFileSync(join(root, 'nogit/loadouts/plain/index.html'), 'utf8');
    expect(plain).not.toContain('mcp/install');
    expect(plain).not.toContain('codex plugin');
    expect(plain).toContain('id="plugin-none-codex"');
    expect(plain).toContain('claude plugin install plain@loadout-catalogue');
  });

  it('writes no plugins when the build is told not to', async () => {
    const root = catalogue();
    const dist = join(root, 'dist');
    await buildCatalogue({ root, out: dist, baseUrl: BASE, plugins: false });
    expect(existsSync(join(dist, 'plugins'))).toBe(false);
    expect(readdirSync(join(dist, 'download/tools')).some((n) => n.startsWith('plugin-'))).toBe(false);
    expect(readJson(join(dist, 'api/v1/index.json'))).not.toHaveProperty('plugins');
  });

  it('names each subagent\'s file after its subagent, so two files of one base name build (issue 53, point 5)', async () => {
    const root = makeTempDir();
    initRepo(root);
    const helper = (name: string): string => `---\nname: ${name}\ndescription: Helps with ${name}.\n---\n\nHelp.\n`;
    // Distinct install targets for every agent that installs subagents (Antigravity installs none): verify passes.
    const apart = (stem: string): Record<string, string> => ({ 'claude-code': `.claude/agents/${stem}.md`, cursor: `.cursor/agents/${stem}.md`, 'gemini-cli': `.gemini/agents/${stem}.md`, copilot: `.github/agents/${stem}.agent.md`, codex: `.codex/agents/${stem}.toml` });
    writeLoadout(root, {
      id: 'pair',
      files: [...baseFiles('Test pair'), { path: 'agents/a/helper.md', role: 'subagent', install_to: apart('a-helper'), content: helper('a-helper') }, { path: 'agents/b/helper.md', role: 'subagent', install_to: apart('b-helper'), content: helper('b-helper') }],
    });
    commitAll(root, 'pair', '2026-01-10T10:00:00Z');
    const dist = join(root, 'dist');
    const result = await buildCatalogue({ root, out: dist, baseUrl: BASE });
    expect(result.written).toBe(true);
    const inZip = await zipFiles(join(dist, 'download/pair/plugin-1.0.0.zip'));
    expect([...inZip.keys()].filter((p) => p.startsWith('agents/')).sort()).toEqual(['agents/a-helper.md', 'agents/b-helper.md']);
    for (const [name, source] of [['a-helper', 'agents/a/helper.md'], ['b-helper', 'agents/b/helper.md']] as const) {
      const bytes = readFileSync(join(root, 'loadouts/pair', source));
      expect(inZip.get(`agents/${name}.md`)?.equals(bytes), name).toBe(true);
      expect(readFileSync(join(dist, 'plugins/pair/agents', `${name}.md`)).equals(bytes), name).toBe(true);
    }
  });

  it('leaves out, with a warning, the plugin of an older version whose files clash, and builds the rest', async () => {
    const root = makeTempDir();
    initRepo(root);
    const helper = (name: string): string => `---\nname: ${name}\ndescription: Helps.\n---\n\nHelp.\n`;
    const apart = (stem: string): Record<string, string> => ({ 'claude-code': `.claude/agents/${stem}.md`, cursor: `.cursor/agents/${stem}.md`, 'gemini-cli': `.gemini/agents/${stem}.md`, copilot: `.github/agents/${stem}.agent.md`, codex: `.codex/agents/${stem}.toml` });
    // Version 1.0.0 (published as it was, its checks aside): two subagents of one name, one plugin file.
    writeLoadout(root, { id: 'old', files: [...baseFiles('Test old'), { path: 'agents/a/helper.md', role: 'subagent', install_to: apart('a'), content: helper('helper') }, { path: 'agents/b/helper.md', role: 'subagent', install_to: apart('b'), content: helper('helper') }] });
    commitAll(root, 'old 1.0.0', '2026-01-10T10:00:00Z');
    rmSync(join(root, 'loadouts/old'), { recursive: true });
    writeLoadout(root, { id: 'old', version: '1.1.0', files: [...baseFiles('Test old'), { path: 'agents/helper.md', role: 'subagent', content: helper('helper') }] });
    commitAll(root, 'old 1.1.0', '2026-01-11T10:00:00Z');
    const dist = join(root, 'dist');
    const result = await buildCatalogue({ root, out: dist, baseUrl: BASE });
    expect(result.written).toBe(true);
    expect(result.warnings).toEqual([expect.stringMatching(/^loadouts\/old: the plugin of version 1\.0\.0 \(commit [0-9a-f]{40}\) is not published: agents\/a\/helper\.md and agents\/b\/helper\.md both become agents\/helper\.md in the plugin/u)]);
    expect(readdirSync(join(dist, 'download/old')).filter((n) => n.startsWith('plugin-'))).toEqual(['plugin-1.1.0.zip']);
    // The older version's raw files are published as they were.
    expect(existsSync(join(dist, 'raw/old/1.0.0/agents/b/helper.md'))).toBe(true);
  });
});
