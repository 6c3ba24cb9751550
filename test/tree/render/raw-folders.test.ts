/**
 * A loadout's skill folders that repeat its raw ones (src/tree/render/raw-folders.ts): in its
 * Agent Skills discovery, such a folder is one symbolic link to the raw folder, and every reader
 * of the tree (here `loadout publish`'s walk) finds the same files with the same bytes as in the
 * raw folder; a skill whose files differ (a link out of the skill, rewritten) keeps a folder of
 * its own. The plugin folder never holds such a link: the agents' plugin managers copy it as it
 * is on disk.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from '../../../src/publish/tree.js';
import { buildCatalogue } from '../../../src/tree/build.js';
import { repeatsRawFolder } from '../../../src/tree/render/raw-folders.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../../helpers/temp.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('repeatsRawFolder', () => {
  const published = ['AGENTS.md', 'skills/a/SKILL.md', 'skills/a/references/r.md', 'skills/ab/SKILL.md'];
  const placed = (entries: [string, string | undefined][]): Map<string, string | undefined> => new Map(entries);

  it('is true only for the same files at the same places with the same bytes', () => {
    expect(repeatsRawFolder('skills/a', placed([['SKILL.md', 'skills/a/SKILL.md'], ['references/r.md', 'skills/a/references/r.md']]), published)).toBe(true);
    // A file of the raw folder missing from the copy, or one more in the copy.
    expect(repeatsRawFolder('skills/a', placed([['SKILL.md', 'skills/a/SKILL.md']]), published)).toBe(false);
    expect(repeatsRawFolder('skills/ab', placed([['SKILL.md', 'skills/ab/SKILL.md'], ['extra.md', 'AGENTS.md']]), published)).toBe(false);
    // Other bytes (rewritten), or another file's bytes at that place.
    expect(repeatsRawFolder('skills/a', placed([['SKILL.md', undefined], ['references/r.md', 'skills/a/references/r.md']]), published)).toBe(false);
    expect(repeatsRawFolder('skills/a', placed([['SKILL.md', 'skills/a/references/r.md'], ['references/r.md', 'skills/a/SKILL.md']]), published)).toBe(false);
    // `skills/ab/` is not below `skills/a/`; a folder the version does not publish is never repeated.
    expect(repeatsRawFolder('skills/ab', placed([['SKILL.md', 'skills/ab/SKILL.md']]), published)).toBe(true);
    expect(repeatsRawFolder('skills/none', placed([]), published)).toBe(false);
  });
});

describe('skill folders in the built tree', () => {
  it('are links to the raw skill folder where they repeat it, and folders of their own where a link was rewritten', async () => {
    const root = makeTempDir('loadout-raw-folders-');
    initRepo(root);
    const skill = (id: string, name: string, body: string): { path: string; role: string; skill: string; content: string }[] => [
      { path: `skills/${name}/SKILL.md`, role: 'skill', skill: name, content: `---\nname: ${name}\ndescription: The ${name} skill of ${id}, for the tests.\n---\n\n# ${name}\n\n${body}\n` },
      { path: `skills/${name}/references/r.md`, role: 'reference', skill: name, content: `# R of ${name}\n` },
    ];
    writeLoadout(root, { id: 'linked', files: [...baseFiles('Test linked'), ...skill('linked', 'tidy', 'Read [r](references/r.md).')] });
    writeLoadout(root, { id: 'outward', files: [...baseFiles('Test outward'), ...skill('outward', 'reach', 'Read [r](references/r.md) and [the guide](../../AGENTS.md).')] });
    commitAll(root, 'two loadouts');
    const dist = join(root, 'dist');
    expect((await buildCatalogue({ root, out: dist, baseUrl: 'http://localhost:8787', now: new Date('2026-11-26T00:00:00Z') })).written).toBe(true);

    const isLink = (path: string): boolean => lstatSync(join(dist, path)).isSymbolicLink();
    expect(isLink('loadouts/linked/.well-known/skills/tidy')).toBe(true);
    // The discovery copy points the link out of the skill at the catalogue: a folder of its own.
    expect(isLink('loadouts/outward/.well-known/skills/reach')).toBe(false);
    // A plugin folder holds folders, files and hard links only (the plugin managers copy it as it is).
    for (const id of ['linked', 'outward']) {
      const plugin = realpathSync(join(dist, 'plugins', id));
      const walk = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          expect(entry.isSymbolicLink(), join(dir, entry.name)).toBe(false);
          if (entry.isDirectory()) walk(join(dir, entry.name));
        }
      };
      walk(plugin);
    }
    expect(readFileSync(join(dist, 'loadouts/outward/.well-known/skills/reach/SKILL.md'), 'utf8')).toContain('(http://localhost:8787/raw/outward/1.0.0/AGENTS.md)');

    // What `loadout publish` uploads: every file under its own address, with the raw file's bytes.
    const published = new Map((await readTree(dist)).files.map((f) => [f.path, f.sha256]));
    for (const [id, name] of [['linked', 'tidy'], ['outward', 'reach']] as const) {
      for (const rel of ['SKILL.md', 'references/r.md']) {
        const raw = sha256(readFileSync(join(dist, `raw/${id}/1.0.0/skills/${name}/${rel}`)));
        expect(published.get(`raw/${id}/latest/skills/${name}/${rel}`)).toBe(raw);
        expect(published.get(`plugins/${id}/skills/${name}/${rel}`), `plugins/${id}/skills/${name}/${rel}`).toBe(raw);
        const discovered = published.get(`loadouts/${id}/.well-known/skills/${name}/${rel}`);
        expect(discovered === raw, `loadouts/${id}/.well-known/skills/${name}/${rel}`).toBe(!(id === 'outward' && rel === 'SKILL.md'));
      }
    }
    // The catalogue's own legacy folder links the same files through the loadouts' folders.
    expect(published.get('.well-known/skills/tidy/references/r.md')).toBe(published.get('raw/linked/1.0.0/skills/tidy/references/r.md'));
  });
});
