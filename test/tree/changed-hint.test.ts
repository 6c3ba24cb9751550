/**
 * `BuildOptions.changed` (tree/build.ts): a watcher's list of the loadouts that changed stands
 * for git's status of the folders, as `loadout dev` uses it.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'https://catalogue.test';

describe('a build told which loadouts changed', () => {
  it('reads those, carries every other over whatever its folder holds, and a commit since still counts', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['one', 'two', 'three']) writeLoadout(root, { id });
    commitAll(root, 'three loadouts');
    const out = join(root, 'dist');
    expect((await buildCatalogue({ root, out, baseUrl: BASE })).written).toBe(true);

    appendFileSync(join(root, 'loadouts', 'one', 'AGENTS.md'), '\nOne changed.\n');
    appendFileSync(join(root, 'loadouts', 'two', 'AGENTS.md'), '\nTwo changed, unseen by the watcher.\n');
    const told = await buildCatalogue({ root, out, baseUrl: BASE, changed: ['one'] });
    expect(told.read).toEqual(['one']);
    expect(told.reused.sort()).toEqual(['three', 'two']);

    // Without the list, git's status finds the folder the watcher did not report (and reads
    // again the one left uncommitted, as every build without the list does).
    const asked = await buildCatalogue({ root, out, baseUrl: BASE });
    expect(asked.read.sort()).toEqual(['one', 'two']);

    // A commit since the last build touches its loadouts whatever the list says.
    appendFileSync(join(root, 'loadouts', 'three', 'AGENTS.md'), '\nThree changed and committed.\n');
    commitAll(root, 'three changed');
    const committed = await buildCatalogue({ root, out, baseUrl: BASE, changed: [] });
    expect(committed.read).toContain('three');
  }, 120_000);
});
