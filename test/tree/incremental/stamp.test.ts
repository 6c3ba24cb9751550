import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLoadoutSource } from '../../../src/catalogue/source.js';
import { RACY_MS, stampCollector, stampHolds, type FolderStamp } from '../../../src/tree/incremental/stamp.js';
import { makeTempDir } from '../../helpers/temp.js';

/** A loadout folder `demo` with files in nested folders, inside a fresh `loadouts/`. */
function folder(): { loadouts: string; dir: string } {
  const loadouts = makeTempDir();
  const dir = join(loadouts, 'demo');
  mkdirSync(join(dir, 'skills/one/references'), { recursive: true });
  writeFileSync(join(dir, 'loadout.yaml'), 'id: demo\n');
  writeFileSync(join(dir, 'AGENTS.md'), '# Demo\n');
  writeFileSync(join(dir, 'skills/one/SKILL.md'), '---\nname: one\n---\n');
  writeFileSync(join(dir, 'skills/one/references/guide.md'), 'abc\n');
  return { loadouts, dir };
}

/**
 * The stamp of `dir` as the build takes it while reading. The files were just written, so the
 * clock is set `RACY_MS` ahead for them to count as settled (the build reads the real clock).
 */
async function stampOf(loadouts: string, takenAt = Date.now() + 2 * RACY_MS): Promise<FolderStamp | undefined> {
  const collector = stampCollector(takenAt);
  await readLoadoutSource(loadouts, 'demo', undefined, collector.observe);
  return collector.stamp();
}

describe('folder stamps (build change detection)', () => {
  it('covers the folder, its subfolders and its files, and holds while nothing changes', async () => {
    const { loadouts, dir } = folder();
    const stamp = await stampOf(loadouts);
    expect(stamp?.paths).toEqual(['', 'AGENTS.md', 'loadout.yaml', 'skills', 'skills/one', 'skills/one/SKILL.md', 'skills/one/references', 'skills/one/references/guide.md']);
    expect(stamp === undefined ? false : stampHolds(dir, stamp)).toBe(true);
  });

  const changes: [string, (dir: string) => void][] = [
    ['a file rewritten with bytes of the same size', (dir) => writeFileSync(join(dir, 'skills/one/references/guide.md'), 'xyz\n')],
    ['a file added deep down', (dir) => writeFileSync(join(dir, 'skills/one/references/more.md'), 'more\n')],
    ['a file removed', (dir) => rmSync(join(dir, 'AGENTS.md'))],
    ['a file renamed', (dir) => renameSync(join(dir, 'AGENTS.md'), join(dir, 'README.md'))],
    ['a file made executable', (dir) => chmodSync(join(dir, 'AGENTS.md'), 0o755)],
    ['a folder added', (dir) => mkdirSync(join(dir, 'rules'))],
    ['the manifest rewritten', (dir) => writeFileSync(join(dir, 'loadout.yaml'), 'id: demo\nversion: 2.0.0\n')],
  ];
  for (const [name, change] of changes) {
    it(`no longer holds after ${name}`, async () => {
      const { loadouts, dir } = folder();
      const stamp = await stampOf(loadouts);
      if (stamp === undefined) throw new Error('no stamp');
      change(dir);
      expect(stampHolds(dir, stamp)).toBe(false);
    });
  }

  it('no longer holds when the folder is gone', async () => {
    const { loadouts, dir } = folder();
    const stamp = await stampOf(loadouts);
    rmSync(dir, { recursive: true });
    expect(stamp === undefined ? true : stampHolds(dir, stamp)).toBe(false);
  });

  it('gives no stamp for a folder that changed less than RACY_MS before it was read (git racy-git rule)', async () => {
    const { loadouts } = folder();
    expect(await stampOf(loadouts, Date.now())).toBeUndefined();
    expect(await stampOf(loadouts, Date.now() + RACY_MS + 1000)).toBeDefined();
  });
});
