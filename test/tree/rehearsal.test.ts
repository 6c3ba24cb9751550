/**
 * The rehearsal `loadout dev` runs before the first save (build-loadouts.ts
 * `rehearseLoadoutBuild`): a build thread really reads, checks and writes a loadout, into a
 * scratch store that is gone afterwards, and the catalogue and its output are left as they were.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { rehearseLoadoutBuild } from '../../src/tree/build-loadouts.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** Every path below `dir`, sorted. */
const listing = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

describe('the rehearsal of a loadout build', () => {
  it('builds a loadout in a thread into a scratch store it removes, and leaves the catalogue and its output as they were', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    commitAll(root, 'alpha');
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: 'https://example.test' });
    const before = { catalogue: listing(join(root, 'loadouts')), output: listing(join(root, '.dist.trees')) };
    const scratch = makeTempDir();
    const options = { loadoutsDir: join(root, 'loadouts'), fixturesDir: join(root, 'fixtures'), base: 'https://example.test', id: 'alpha', scratch };
    expect(await rehearseLoadoutBuild(options)).toBe('built');
    expect(readdirSync(scratch)).toEqual([]);
    expect({ catalogue: listing(join(root, 'loadouts')), output: listing(join(root, '.dist.trees')) }).toEqual(before);

    // A loadout whose checks fail is refused there too; one with no manifest throws; neither leaves a store.
    writeFileSync(join(root, 'loadouts/alpha/stray.txt'), 'a file the manifest does not declare\n');
    expect(await rehearseLoadoutBuild(options)).toBe('refused');
    await expect(rehearseLoadoutBuild({ ...options, id: 'missing' })).rejects.toThrow(/loadout\.yaml/u);
    expect(readdirSync(scratch)).toEqual([]);
  });
});
