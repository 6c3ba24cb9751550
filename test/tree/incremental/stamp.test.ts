import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/tree/build.js';
import { BUILD_CACHE_FILE } from '../../../src/tree/incremental/cache.js';
import { gitIn, type GitCommands } from '../../../src/tree/history/git-commands.js';
import { openRepository } from '../../../src/tree/history/history.js';
import { readDirtyFolders, readFolderStamps } from '../../../src/tree/incremental/stamp.js';
import { treesFolderOf } from '../../../src/tree/write/output.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, git, initRepo, makeTempDir } from '../../helpers/temp.js';
import { differingFiles } from '../../helpers/tree.js';

/** A public address, as CI builds for (a catalogue built for this machine names its folder in its pages: see the last test). */
const BASE = 'https://catalogue.test';

/**
 * A repository whose catalogue sits in `catalogue/` (not the top), with loadouts a, b, c, d
 * committed, and its folders' modification times set a minute back. git's untracked cache
 * trusts a folder whose time it recorded unless the index is as new (its racy check); it
 * compares whole seconds, so a folder changed later in the second a status read it, once
 * another command rewrote the index in a later second, is taken as unchanged. The tests change
 * folders right after a status: with times of now they met that window now and then.
 */
function repository(): { top: string; root: string } {
  const top = makeTempDir('loadout-stamps-');
  initRepo(top);
  const root = join(top, 'catalogue');
  mkdirSync(root);
  for (const id of ['a-one', 'b-two', 'c-three', 'd-four']) writeLoadout(root, { id });
  commitAll(top, 'four loadouts');
  const aMinuteAgo = new Date(Date.now() - 60_000);
  const age = (dir: string): void => {
    utimesSync(dir, aMinuteAgo, aMinuteAgo);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) age(join(dir, entry.name));
  };
  age(root);
  return { top, root };
}

/** How a build runs git (`BuildOptions.gitFor`): each `raw` request answered by `answer`, which may pass it to git in that folder. */
const answering =
  (answer: (args: string[], git: GitCommands) => Promise<string>) =>
  (cwd: string): GitCommands => {
    const git = gitIn(cwd);
    return { raw: (args) => answer(args, git), pipe: (args) => git.pipe(args) };
  };

describe('folder stamps: git tree ids (build change detection)', () => {
  it('are the tree ids at HEAD of the clean folders, and no stamp for a folder changed in any way', async () => {
    const { top, root } = repository();
    const loadouts = join(root, 'loadouts');
    const repo = await openRepository(loadouts);
    const clean = await readFolderStamps(repo);
    expect([...clean.keys()].sort()).toEqual(['a-one', 'b-two', 'c-three', 'd-four']);
    for (const [id, stamp] of clean) expect(stamp.tree).toBe(git(top, ['rev-parse', `HEAD:catalogue/loadouts/${id}`]).trim());

    writeFileSync(join(loadouts, 'a-one/AGENTS.md'), '# changed\n'); // modified
    mkdirSync(join(loadouts, 'b-two/deep/er'), { recursive: true });
    writeFileSync(join(loadouts, 'b-two/deep/er/new.md'), 'new\n'); // untracked, deep down
    git(top, ['mv', 'catalogue/loadouts/c-three/CLAUDE.md', 'catalogue/loadouts/c-three/CLAUDE2.md']); // renamed in the index
    const changed = await readFolderStamps(await openRepository(loadouts));
    expect([...changed.keys()]).toEqual(['d-four']);
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>))].sort()).toEqual(['a-one', 'b-two', 'c-three']);
    // After reading, a build asks again only about the folders it read.
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>, ['b-two', 'd-four']))]).toEqual(['b-two']);
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>, ['c-three']))]).toEqual(['c-three']);
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>, ['d-four']))]).toEqual([]);
    expect(await readFolderStamps(undefined)).toEqual(new Map());
  });

  it("see untracked files through git's untracked cache, which the first status keeps in the index", async () => {
    const { top, root } = repository();
    const loadouts = join(root, 'loadouts');
    writeFileSync(join(top, 'outside.txt'), 'not a loadout\n'); // untracked, outside loadouts/: no loadout's
    const repo = await openRepository(loadouts);
    expect([...(await readFolderStamps(repo)).keys()].sort()).toEqual(['a-one', 'b-two', 'c-three', 'd-four']);
    // git keeps the cache as an index extension ("UNTR", git's Documentation/gitformat-index.txt).
    expect(readFileSync(join(top, '.git/index')).includes('UNTR')).toBe(true);
    // Folders the cache knows, changed after it was made: a new file deep in one, a new folder in another, a new loadout.
    mkdirSync(join(loadouts, 'a-one/notes'), { recursive: true });
    writeFileSync(join(loadouts, 'a-one/notes/draft.md'), 'draft\n');
    writeFileSync(join(loadouts, 'c-three/extra.md'), 'extra\n');
    mkdirSync(join(loadouts, 'e-five'));
    writeFileSync(join(loadouts, 'e-five/loadout.yaml'), 'id: e-five\n');
    expect([...(await readFolderStamps(repo)).keys()].sort()).toEqual(['b-two', 'd-four']);
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>))].sort()).toEqual(['a-one', 'c-three', 'e-five']);
    // Removed again: clean again.
    rmSync(join(loadouts, 'a-one/notes'), { recursive: true });
    rmSync(join(loadouts, 'c-three/extra.md'));
    expect([...(await readDirtyFolders(repo as NonNullable<typeof repo>))]).toEqual(['e-five']);
  });

  it('come from the one status a build asks git for before it reads, which the histories share, first build and rebuild alike', async () => {
    const { top, root } = repository();
    writeFileSync(join(root, 'loadouts/b-two/AGENTS.md'), '# b-two, edited\n\nUncommitted.\n');
    const statuses: string[][] = [];
    const gitFor = answering((args, git) => (args.includes('status') && statuses.push(args), git.raw(args)));
    const result = await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z'), gitFor });
    expect(result.read).toHaveLength(4);
    // One of the whole working tree before reading (stamps and histories), one of the folders read after.
    expect(statuses).toHaveLength(2);
    expect(statuses[0]).not.toContain('--');
    // The history took that status: the edited loadout is built as uncommitted work.
    const head = git(top, ['rev-parse', 'HEAD']).trim();
    const commitOf = (id: string): unknown => (JSON.parse(readFileSync(join(root, `dist/api/loadouts/${id}.json`), 'utf8')) as { verification: { commit: unknown } }).verification.commit;
    expect(commitOf('b-two')).toBe(`${head}+dirty`);
    expect(commitOf('a-one')).toBe(head);

    // A rebuild after an uncommitted edit: the same two, the histories of the loadout read taking the first.
    statuses.length = 0;
    writeFileSync(join(root, 'loadouts/c-three/AGENTS.md'), '# c-three, edited\n\nUncommitted too.\n');
    const rebuilt = await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z'), gitFor });
    expect(rebuilt.read).toEqual(['b-two', 'c-three']);
    expect(statuses).toHaveLength(2);
    expect(statuses[0]).not.toContain('--');
    expect(commitOf('c-three')).toBe(`${head}+dirty`);
    expect(commitOf('a-one')).toBe(head);
  });

  it('leave out a folder edited while the build read it (git asked after the reading, while the tree is written), which the next build reads again', async () => {
    const { root } = repository();
    const out = join(root, 'dist');
    // The edit lands once a-one is built: after its folder was read, before the build ends.
    const onProgress = (_done: number, _total: number, id: string): void => {
      if (id === 'a-one') writeFileSync(join(root, 'loadouts/a-one/AGENTS.md'), '# a-one, edited during the build\n');
    };
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z'), concurrency: 1, onProgress })).read).toHaveLength(4);
    const stamps = new Map(
      readFileSync(join(out, BUILD_CACHE_FILE), 'utf8')
        .split('\n')
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { id: string; stamp?: { tree: string }; listing?: unknown })
        .filter((line) => line.listing === undefined)
        .map((line) => [line.id, line.stamp?.tree]),
    );
    expect([...stamps.keys()].sort()).toEqual(['a-one', 'b-two', 'c-three', 'd-four']);
    expect(stamps.get('a-one')).toBeUndefined();
    for (const id of ['b-two', 'c-three', 'd-four']) expect(stamps.get(id)).toMatch(/^[0-9a-f]{40}$/u);
    const again = await buildCatalogue({ root, out, baseUrl: BASE, now: new Date('2026-03-02T00:00:00Z') });
    expect(again.read).toEqual(['a-one']);
  });

  it("fail the build with git's error when git cannot say after the reading, and leave the live tree as it was", async () => {
    const { root } = repository();
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    await buildCatalogue({ root, out, baseUrl: BASE, now });
    const before = readFileSync(join(out, BUILD_CACHE_FILE), 'utf8');
    writeFileSync(join(root, 'loadouts/d-four/AGENTS.md'), '# d-four, edited\n');
    // The status of the folders read, after the reading, fails; every other request runs.
    const gitFor = answering((args, git) => (args.includes('status') && args.includes('--') ? Promise.reject(new Error('fatal: index file corrupt')) : git.raw(args)));
    await expect(buildCatalogue({ root, out, baseUrl: BASE, now, gitFor })).rejects.toMatchObject({ name: 'LoadoutError', code: 'git', message: expect.stringMatching(/cannot read the git status of .*index file corrupt/u) as unknown });
    expect(readFileSync(join(out, BUILD_CACHE_FILE), 'utf8')).toBe(before);
    // The next build, with git well again, reads the edited loadout and writes its tree.
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now })).read).toEqual(['d-four']);
  });

  it('let a fresh clone in another folder, with the previous tree restored, rebuild only the loadout that changed', async () => {
    const { top, root } = repository();
    const out = join(root, 'dist');
    const now = new Date('2026-03-02T00:00:00Z');
    expect((await buildCatalogue({ root, out, baseUrl: BASE, now })).read).toHaveLength(4);

    // CI: a fresh clone elsewhere, the tree and its trees folder restored beside `dist` (actions/cache).
    const clone = join(makeTempDir('loadout-clone-'), 'checkout');
    git(top, ['clone', '-q', top, clone]);
    const cloneRoot = join(clone, 'catalogue');
    const cloneOut = join(cloneRoot, 'dist');
    cpSync(treesFolderOf(out), treesFolderOf(cloneOut), { recursive: true, verbatimSymlinks: true });
    // `dist` is a relative link to the live tree: made again as it is (cpSync of a link to a folder
    // without `recursive` throws on Node 22 and 24, nodejs/node#58939).
    symlinkSync(readlinkSync(out), cloneOut);
    writeLoadout(cloneRoot, { id: 'c-three', version: '1.1.0' });
    commitAll(clone, 'c-three 1.1.0');
    const result = await buildCatalogue({ root: cloneRoot, out: cloneOut, baseUrl: BASE, now });
    expect(result.read).toEqual(['c-three']);
    expect(result.reused.sort()).toEqual(['a-one', 'b-two', 'd-four']);

    // The same tree as a clean build of the clone.
    const clean = join(cloneRoot, 'clean');
    await buildCatalogue({ root: cloneRoot, out: clean, baseUrl: BASE, now, clean: true });
    expect(differingFiles(cloneOut, clean)).toEqual([]);
    rmSync(clean, { recursive: true, force: true });
    // Moving the checkout keeps the cache too (relative paths only in the fingerprint).
    const moved = join(makeTempDir('loadout-moved-'), 'elsewhere');
    renameSync(clone, moved);
    expect((await buildCatalogue({ root: join(moved, 'catalogue'), out: join(moved, 'catalogue', 'dist'), baseUrl: BASE, now })).read).toEqual([]);
  }, 180_000);

  it('rebuilds every loadout of a catalogue built for this machine once it is moved, whose pages name the plugins folder where it now lies (issue 57, point 3)', async () => {
    const { top, root } = repository();
    const local = 'http://localhost:8787';
    const now = new Date('2026-03-02T00:00:00Z');
    expect((await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: local, now })).read).toHaveLength(4);
    const page = (dir: string): string => readFileSync(join(dir, 'dist', 'loadouts', 'a-one', 'index.html'), 'utf8');
    expect(page(root)).toContain(`claude plugin marketplace add ${join(root, 'dist', 'plugins')}`);
    const moved = join(makeTempDir('loadout-moved-'), 'elsewhere');
    renameSync(top, moved);
    const movedRoot = join(moved, 'catalogue');
    const again = await buildCatalogue({ root: movedRoot, out: join(movedRoot, 'dist'), baseUrl: local, now });
    expect(again.reused).toEqual([]);
    expect(page(movedRoot)).toContain(`claude plugin marketplace add ${join(movedRoot, 'dist', 'plugins')}`);
    expect(page(movedRoot)).not.toContain(root);
  }, 180_000);
});
