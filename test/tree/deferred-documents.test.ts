/**
 * A build that defers its catalogue documents (`BuildOptions.documents: 'defer'`, as `loadout
 * dev` runs it) and one that takes what the last build in the process kept
 * (`BuildOptions.kept`): the tree goes live with the changed loadout's own outputs and the
 * previous documents, the deferred writer then brings the documents to what a full build writes,
 * and a build from the files alone (a new process, or after the writer never ran) reads again
 * exactly the loadouts whose lines the carried cache does not hold.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { BUILT_SINCE_FILE } from '../../src/tree/incremental/cache.js';
import { findStandby, treesFolderOf } from '../../src/tree/write/output.js';
import { STORE_FOLDER } from '../../src/tree/write/store.js';
import { trashFolders } from '../../src/tree/write/trash.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { soon } from '../helpers/soon.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';
import { differingFiles, treeEntries } from '../helpers/tree.js';

const BASE = 'https://catalogue.test';
const NOW = new Date('2026-11-26T12:00:00Z');

/** Sets the summary in a loadout's manifest (the list, the search index and the home page carry it). */
function setSummary(root: string, id: string, said: string): void {
  const summary = `${said} A test loadout whose summary changed for the deferred documents.`;
  const manifest = join(root, 'loadouts', id, 'loadout.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^summary: .*$/mu, `summary: ${summary}`));
}

/** The first sentence of a loadout's summary in the list document. */
const listed = (out: string, id: string): string | undefined =>
  (JSON.parse(readFileSync(join(out, 'api', 'loadouts.json'), 'utf8')) as { loadouts: { id: string; summary: string }[] }).loadouts.find((l) => l.id === id)?.summary.replace(/(?<=\.) .*$/u, '');

describe('deferred catalogue documents', () => {
  it('go live after the loadout\'s own outputs, end as a full build writes them, and a build from the files reads again what the carried cache lacks', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta', 'gamma']) writeLoadout(root, { id });
    commitAll(root, 'three loadouts');
    const out = join(root, 'dist');
    const first = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW });
    expect(first.deferred).toBeUndefined();
    const before = listed(out, 'alpha');

    // Deferred: the record is new, the list is the last tree's, and the carried cache says which lines do not hold.
    setSummary(root, 'alpha', 'Changed while the documents waited.');
    const deferred = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: ['alpha'], kept: first.kept, documents: 'defer' });
    expect(deferred.refused).toEqual([]);
    expect(deferred.read).toEqual(['alpha']);
    expect(deferred.deferred?.tree).toBe(realpathSync(out));
    expect(JSON.parse(readFileSync(join(out, 'api', 'loadouts', 'alpha.json'), 'utf8')).summary).toMatch(/^Changed while the documents waited\. /u);
    expect(listed(out, 'alpha')).toBe(before);
    expect(JSON.parse(readFileSync(join(out, BUILT_SINCE_FILE), 'utf8'))).toEqual({ loadouts: ['alpha'] });

    // The writer never ran (the process ended): a build from the files reads alpha again, and only alpha.
    const fromFiles = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: [] });
    expect(fromFiles.read).toEqual(['alpha']);
    expect(fromFiles.reused).toEqual(['beta', 'gamma']);
    expect(listed(out, 'alpha')).toBe('Changed while the documents waited.');
    expect(existsSync(join(out, BUILT_SINCE_FILE))).toBe(false);

    // Two deferred builds in a row, the first one's writer stopped: the carried list names both.
    setSummary(root, 'beta', 'Beta changed.');
    const second = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: ['beta'], kept: fromFiles.kept, documents: 'defer' });
    const stopped = new AbortController();
    stopped.abort();
    expect(await second.deferred?.write(stopped.signal)).toBe(false);
    setSummary(root, 'gamma', 'Gamma changed.');
    const third = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: ['gamma'], kept: second.kept, documents: 'defer' });
    expect(JSON.parse(readFileSync(join(out, BUILT_SINCE_FILE), 'utf8'))).toEqual({ loadouts: ['beta', 'gamma'] });
    // The older writer is for a tree no longer live: it writes nothing.
    expect(await second.deferred?.write()).toBe(false);
    expect(listed(out, 'beta')).not.toBe('Beta changed.');
    expect(await third.deferred?.write()).toBe(true);
    expect(listed(out, 'beta')).toBe('Beta changed.');
    expect(listed(out, 'gamma')).toBe('Gamma changed.');
    expect(existsSync(join(out, BUILT_SINCE_FILE))).toBe(false);

    // What the writer left is what a clean build of the same folders writes, file for file.
    const clean = join(root, 'clean');
    expect((await buildCatalogue({ root, out: clean, baseUrl: BASE, now: NOW, clean: true })).written).toBe(true);
    expect(treeEntries(out)).toEqual(treeEntries(clean));
    expect(differingFiles(out, clean)).toEqual([]);

    // And the next build from the files alone finds nothing to read.
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: [] })).read).toEqual([]);
  }, 120_000);

  it('a build that takes what the last one kept writes the same tree as one that reads it from the files', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta']) writeLoadout(root, { id });
    commitAll(root, 'two loadouts');
    const [kept, read] = [join(root, 'kept'), join(root, 'read')];
    let last = await buildCatalogue({ root, out: kept, baseUrl: BASE, now: NOW });
    await buildCatalogue({ root, out: read, baseUrl: BASE, now: NOW });
    // Three changes: from the third on, the standby's links come from memory too.
    for (const [step, id] of ['alpha', 'beta', 'alpha'].entries()) {
      setSummary(root, id, `Change ${step}.`);
      last = await buildCatalogue({ root, out: kept, baseUrl: BASE, now: NOW, changed: [id], kept: last.kept });
      const other = await buildCatalogue({ root, out: read, baseUrl: BASE, now: NOW, changed: [id] });
      expect(last.read).toEqual(other.read);
      expect(treeEntries(kept)).toEqual(treeEntries(read));
      expect(differingFiles(kept, read)).toEqual([]);
    }
    // A kept build of another tree (here: the other output folder's) is not taken.
    setSummary(root, 'beta', 'Last change.');
    const elsewhere = await buildCatalogue({ root, out: read, baseUrl: BASE, now: NOW, changed: ['beta'], kept: last.kept });
    expect(elsewhere.read).toEqual(['beta']);
    expect(listed(read, 'beta')).toBe('Last change.');
  }, 120_000);

  it('sets aside into the store\'s trash the documents of the standby it replaces, deleted once the deferred writer has written', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta']) writeLoadout(root, { id });
    commitAll(root, 'two loadouts');
    const out = join(root, 'dist');
    const trees = treesFolderOf(out);
    const store = join(trees, STORE_FOLDER);
    const first = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW });
    setSummary(root, 'alpha', 'Alpha changed.');
    const one = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: ['alpha'], kept: first.kept, documents: 'defer' });
    expect(await one.deferred?.write()).toBe(true);
    // The live tree's documents are its own now; the standby's are the last links of the older ones.
    const live = realpathSync(out);
    const standby = findStandby(out) ?? '';
    const older = lstatSync(join(standby, 'api', 'loadouts.json')).ino;
    expect(older).not.toBe(lstatSync(join(out, 'api', 'loadouts.json')).ino);

    setSummary(root, 'beta', 'Beta changed.');
    const two = await buildCatalogue({ root, out, baseUrl: BASE, now: NOW, changed: ['beta'], kept: one.kept, documents: 'defer' });
    // The standby (renamed for this build) went live carrying the documents of the tree before,
    // and the file it held is in the trash, whole.
    expect(realpathSync(out)).not.toBe(live);
    expect(lstatSync(join(out, 'api', 'loadouts.json')).ino).toBe(lstatSync(join(live, 'api', 'loadouts.json')).ino);
    const [trash, ...more] = trashFolders(store);
    expect(more).toEqual([]);
    const taken = readdirSync(trash ?? '').map((name) => lstatSync(join(trash ?? '', name)));
    expect(taken.map((stat) => stat.ino)).toContain(older);
    expect(listed(out, 'beta')).not.toBe('Beta changed.');
    // The writer writes the documents, then deletes the trash.
    expect(await two.deferred?.write()).toBe(true);
    expect(listed(out, 'beta')).toBe('Beta changed.');
    expect(await soon(() => trashFolders(store).length === 0, 30_000)).toBe(true);
  }, 120_000);
});
