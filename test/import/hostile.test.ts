/**
 * `loadout import` treats the source as hostile (SECURITY.md): nothing is ever written
 * outside `loadouts/<id>/`, whatever the id, the file names, the front matter, the paths
 * `plugin.json` names or the links in the source; nothing outside the source (or in `.git`)
 * is read through a link or a named path.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp.js';
import { listFiles, makeCatalogueRoot, runImport, writeSource } from './helpers.js';

/** Text that must never reach a loadout: it sits outside the source, or in its .git. */
const SECRET = 'TOP-SECRET-OUTSIDE-THE-SOURCE';

const skillMd = (name: string): string => `---\nname: ${name}\ndescription: A skill for the hostile-path tests.\nlicense: MIT\n---\n\n# ${name}\n`;

/** Every file under `root` after an import: only the new loadout's folder may have grown. */
function expectOnlyInside(root: string, id: string, before: readonly string[]): void {
  const added = listFiles(root).filter((p) => !before.includes(p));
  expect(added.length).toBeGreaterThan(0);
  for (const path of added) expect(path.startsWith(`loadouts/${id}/`), path).toBe(true);
}

/** No file of the loadout holds the secret. */
function expectNoSecret(root: string, id: string): void {
  for (const path of listFiles(join(root, 'loadouts', id))) expect(readFileSync(join(root, 'loadouts', id, path), 'utf8'), path).not.toContain(SECRET);
}

describe('ids', () => {
  it.each(['../evil', '/tmp/evil', '.git', 'a/b', 'Evil', '', 'a..b', '..'])('refuses --id %j before reading anything, and writes nothing', async (id) => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': skillMd('fine') });
    await expect(runImport(root, source, { id })).rejects.toThrow(`--id is ${JSON.stringify(id)} (expected a slug`);
    expect(listFiles(root)).toEqual([]);
  });

  it('never takes a path from front matter: a name that is not a slug leaves the folder name in use', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'my-skill/SKILL.md': '---\nname: ../../../escaped\ndescription: Tries to climb out.\n---\n\n# x\n', 'other/SKILL.md': '---\nname: /etc/passwd\ndescription: Tries an absolute path.\n---\n' });
    const before = listFiles(root);
    const result = await runImport(root, source, { id: 'names' });
    expect(result.files.filter((f) => f.role === 'skill').map((f) => f.path)).toEqual(['skills/my-skill/SKILL.md', 'skills/other/SKILL.md']);
    expectOnlyInside(root, 'names', before);
    // The parse check then names the mismatch and the fix.
    expect(result.run.results.find((r) => r.id === 'parse')?.details).toEqual(expect.arrayContaining([expect.stringContaining('loadouts/names/skills/my-skill/SKILL.md:2: front matter name is "../../../escaped" (expected "my-skill", the skill folder name)')]));
  });
});

describe('links in the source', () => {
  it('never reads a link that leads out of the source, to a file or a folder, nor into .git; a link inside is read', async () => {
    const outside = makeTempDir('loadout-import-outside-');
    writeFileSync(join(outside, 'secret.md'), `${SECRET}\n`);
    mkdirSync(join(outside, 'folder'));
    writeFileSync(join(outside, 'folder', 'SKILL.md'), `---\nname: folder\ndescription: ${SECRET}\n---\n`);
    const source = writeSource({ 'skill/SKILL.md': skillMd('skill'), 'skill/real.md': '# Real\n', '.git/config': `[remote] ${SECRET}\n` });
    symlinkSync(join(outside, 'secret.md'), join(source, 'skill/secret.md'));
    symlinkSync('../../../../../../../../../../..' + join(outside, 'secret.md'), join(source, 'skill/relative-secret.md'));
    symlinkSync(join(outside, 'folder'), join(source, 'linked-folder'));
    symlinkSync(join(source, '.git/config'), join(source, 'skill/git-config.md'));
    symlinkSync(join(source, 'skill/real.md'), join(source, 'skill/alias.md'));
    symlinkSync(join(outside, 'nothing-here.md'), join(source, 'skill/dangling.md'));
    const root = makeCatalogueRoot();
    const before = listFiles(root);

    const result = await runImport(root, source, { id: 'links' });

    expectOnlyInside(root, 'links', before);
    expectNoSecret(root, 'links');
    expect(result.files.map((f) => f.path)).toEqual(expect.arrayContaining(['skills/skill/real.md', 'skills/skill/alias.md']));
    expect(readFileSync(join(root, 'loadouts/links/skills/skill/alias.md'), 'utf8')).toBe('# Real\n');
    const reasons = Object.fromEntries(result.skipped.map((s) => [s.path, s.reason]));
    expect(reasons['skill/secret.md']).toContain('is a link out of the folder being imported');
    expect(reasons['skill/relative-secret.md']).toContain('is a link out of the folder being imported');
    expect(reasons['linked-folder']).toContain('is a link out of the folder being imported');
    expect(reasons['skill/git-config.md']).toBe('is a link into .git; it is never read');
    expect(reasons['skill/dangling.md']).toBe('is a link to nothing');
    expect(result.files.some((f) => f.from?.startsWith('.git') === true)).toBe(false);
  });

  it('refuses a source that is itself a link only where it leads: its real folder is read', async () => {
    const source = writeSource({ 'SKILL.md': skillMd('via-link') });
    const link = join(makeTempDir(), 'link-to-source');
    symlinkSync(source, link);
    const root = makeCatalogueRoot();
    const result = await runImport(root, link);
    expect(result.files.map((f) => f.path)).toContain('skills/via-link/SKILL.md');
  });
});

describe('names and folders in the source', () => {
  it('skips .git, node_modules and files whose names cannot be loadout paths', async () => {
    const source = writeSource({
      'skill/SKILL.md': skillMd('skill'),
      'skill/.git/hooks/SKILL.md': `---\nname: hook\ndescription: ${SECRET}\n---\n`,
      '.GIT/SKILL.md': `---\nname: upper\ndescription: ${SECRET}\n---\n`,
      'node_modules/pkg/SKILL.md': `---\nname: pkg\ndescription: ${SECRET}\n---\n`,
      'skill/back\\slash.md': '# a name with a backslash\n',
      'skill/line\nbreak.md': '# a name with a line break\n',
    });
    const root = makeCatalogueRoot();
    const result = await runImport(root, source, { id: 'names-in-source' });
    expectNoSecret(root, 'names-in-source');
    expect(result.files.filter((f) => f.from !== undefined).map((f) => f.from)).toEqual(['skill/SKILL.md']);
    const reasons = Object.fromEntries(result.skipped.map((s) => [s.path, s.reason]));
    expect(reasons['skill/back\\slash.md']).toContain('contains a backslash');
    expect(reasons['skill/line\nbreak.md']).toContain('contains a NUL or control character');
  });

  it('refuses every path plugin.json names outside the plugin folder or in .git, reading nothing there', async () => {
    const parent = makeTempDir('loadout-import-plugin-parent-');
    mkdirSync(join(parent, 'outside'));
    writeFileSync(join(parent, 'outside', 'agent.md'), `---\nname: stolen\ndescription: ${SECRET}\n---\n`);
    writeFileSync(join(parent, 'outside', 'mcp.json'), JSON.stringify({ mcpServers: { stolen: { command: SECRET } } }));
    const plugin = join(parent, 'plugin');
    writeSource(
      {
        '.claude-plugin/plugin.json': JSON.stringify({ name: 'hostile-plugin', agents: ['../outside', '../outside/agent.md', '/etc', './agents/../../outside/agent.md', '.git/agents', 'agents\\..\\..\\outside'], mcpServers: '../outside/mcp.json' }),
        'agents/fine.md': '---\nname: fine\ndescription: A fine agent.\n---\n',
        '.git/agents/SKILL.md': `${SECRET}\n`,
      },
      plugin,
    );
    const root = makeCatalogueRoot();
    const before = listFiles(root);
    const result = await runImport(root, plugin);
    expectOnlyInside(root, 'hostile-plugin', before);
    expectNoSecret(root, 'hostile-plugin');
    expect(result.files.filter((f) => f.from !== undefined).map((f) => f.path)).toEqual(['agents/fine.md']);
    const refused = result.skipped.filter((s) => s.path === '.claude-plugin/plugin.json').map((s) => s.reason);
    for (const named of ['../outside', '../outside/agent.md', '/etc', './agents/../../outside/agent.md', '.git/agents', 'agents\\..\\..\\outside', '../outside/mcp.json']) {
      expect(refused.some((r) => r.startsWith(`names ${JSON.stringify(named)} in "`)), named).toBe(true);
    }
  });
});
