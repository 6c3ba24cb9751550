/**
 * Where the installer's own file operations may lead (issue 53, points 1 and 2): a cloned
 * repository may commit symbolic links where the installer keeps its own files (the backup
 * folder, a dated backup, a file in it, `.loadout/`, the lock, its journal, the user scope's
 * `~/.config/loadout/`), pointing at the folder above the project, at the user's home folder or
 * at a sibling repository. For every such layout, install, update and uninstall (and the
 * pruning of backups after the last uninstall) change nothing outside the project: a sentinel
 * tree beside it (`neighbourhood-fixture.ts`: a stand-in home folder with empty files and
 * folders, and a sibling git repository) hashes the same before and after, and so do the
 * project's own files.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { uninstallCommand } from '../../src/cli/commands/uninstall.js';
import { installLoadout } from '../../src/install/install.js';
import { LOCK_FILE } from '../../src/install/project/lock.js';
import { projectScope, userScope, type InstallScope } from '../../src/install/project/scope.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from './lifecycle-fixture.js';
import { makeNeighbourhood, type Neighbourhood } from './neighbourhood-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-confinement-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Puts a symbolic link at `path` (relative to the project) pointing at `target`, making its folder. */
function plant(n: Neighbourhood, path: string, target: string): void {
  const at = join(n.project, path);
  mkdirSync(dirname(at), { recursive: true });
  rmSync(at, { recursive: true, force: true });
  symlinkSync(target, at);
}

/** Runs `run`, returning the error it throws (or undefined). */
async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => undefined,
    (error: unknown) => error,
  );
}

const RUN = '2026-01-01T00-00-00.000Z';

describe('the backups pruned after the last uninstall never lead out of the project (point 1)', () => {
  const layouts: [string, string, (n: Neighbourhood) => string][] = [
    ['the backup folder linked to the folder above the project', '.loadout/backup', () => '../..'],
    ['the backup folder linked to the home folder', '.loadout/backup', () => '../../home'],
    ['the backup folder linked to the home folder, absolutely', '.loadout/backup', (n) => n.home],
    ['the backup folder linked to a sibling repository', '.loadout/backup', () => '../../sibling'],
    ['the backup folder linked to the project itself', '.loadout/backup', () => '..'],
    ['.loadout linked to the folder above the project', '.loadout', () => '..'],
    ['.loadout linked to the home folder', '.loadout', () => '../home'],
    ['a dated backup folder linked to the folder above the project', `.loadout/backup/${RUN}`, () => '../../..'],
    ['a dated backup folder linked to the home folder', `.loadout/backup/${RUN}`, () => '../../../home'],
    ['a dated backup folder linked to a sibling repository', `.loadout/backup/${RUN}`, (n) => n.sibling],
    ['a folder in a dated backup linked to the home folder\'s Documents', `.loadout/backup/${RUN}/Documents`, (n) => join(n.home, 'Documents')],
    ['a file in a dated backup linked to a file of the home folder', `.loadout/backup/${RUN}/Documents/.keep`, (n) => join(n.home, 'Documents/.keep')],
  ];

  it.each(layouts)('%s: uninstall changes nothing outside the project, nor the project\'s own files', async (_name, path, target) => {
    const n = makeNeighbourhood();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: n.project, version: '1.0.0' });
    plant(n, path, target(n));
    const sentinel = n.sentinel();
    const userFiles = n.userFiles();
    let printed = '';
    const code = await uninstallCommand({ id: 'kit', dir: n.project, global: false, dryRun: false, force: false, json: false }, (t) => (printed += t), (t) => (printed += t));
    expect(code, printed).toBe(0);
    expect(printed).toContain('removed   the lock file');
    expect(printed).not.toMatch(/removed {3}\d+ backup cop/u);
    expect(n.sentinel(), `outside the project, after: ${printed}`).toBe(sentinel);
    expect(n.userFiles(), `the project's own files, after: ${printed}`).toBe(userFiles);
  });

  it('a backup folder reached through a link is said to be left alone', async () => {
    const n = makeNeighbourhood();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: n.project, version: '1.0.0' });
    plant(n, '.loadout/backup', '../../home');
    let printed = '';
    await uninstallCommand({ id: 'kit', dir: n.project, global: false, dryRun: false, force: false, json: false }, (t) => (printed += t), (t) => (printed += t));
    expect(printed).toContain("kept      the backups: .loadout/backup is a symbolic link, and the installer's own folders are never reached through a link (expected a real folder); the backups were not looked into");
  });
});

describe('the lock, its journal and the backups are never written through a link (point 2)', () => {
  /** A layout: where the link goes, where it points, and whether every command must be refused. */
  const layouts: [string, string, (n: Neighbourhood) => string, 'refused' | 'either'][] = [
    ['a dangling link at the journal, into the home folder', `${LOCK_FILE}.journal`, () => '../home/journal.json', 'refused'],
    ['a dangling link at the journal, absolute', `${LOCK_FILE}.journal`, (n) => join(n.home, 'journal.json'), 'refused'],
    ['a dangling link at the journal, into a sibling repository\'s .git', `${LOCK_FILE}.journal`, () => '../sibling/.git/loadout-journal', 'refused'],
    ['a link at the journal to a file of the home folder', `${LOCK_FILE}.journal`, () => '../home/Documents/notes.txt', 'refused'],
    ['a link at the journal to a file of the project', `${LOCK_FILE}.journal`, () => 'src/main.js', 'refused'],
    ['a dangling link at the lock, into the home folder', LOCK_FILE, () => '../home/lock.json', 'refused'],
    ['a link at the lock to a copy outside the project', LOCK_FILE, (n) => join(n.home, 'lock.json'), 'refused'],
    ['.loadout linked to the home folder', '.loadout', () => '../home', 'either'],
    ['the backup folder linked to a sibling repository', '.loadout/backup', () => '../../sibling', 'either'],
    ['the backup folder linked to the project\'s src', '.loadout/backup', () => '../src', 'either'],
  ];

  it.each(layouts)('%s: install --force, update and uninstall change nothing outside the project', async (_name, path, target, expected) => {
    const n = makeNeighbourhood();
    const scope = projectScope(n.project);
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: n.project, version: '1.0.0' });
    // An installed file the user changed: install --force backs it up first.
    writeFileSync(join(n.project, '.claude/skills/review/SKILL.md'), 'mine\n');
    if (path === LOCK_FILE) writeFileSync(join(n.home, 'lock.json'), '{"lockfileVersion": 1, "installs": []}\n');
    plant(n, path, target(n));
    const sentinel = n.sentinel();
    const userFiles = n.userFiles();
    const failures = [
      await failureOf(() => installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: n.project, version: '1.0.0', force: true })),
      await failureOf(() => updateLoadouts({ scope, ids: [], force: true })),
      await failureOf(() => uninstallLoadout({ scope, id: 'kit', force: true })),
    ];
    expect(n.sentinel(), `outside the project, after: ${failures.map(String).join('; ')}`).toBe(sentinel);
    expect(n.userFiles()).toBe(userFiles);
    if (expected === 'refused') for (const failure of failures) expect(failure, String(failure)).toBeInstanceOf(LoadoutError);
    if (path.endsWith('.journal')) for (const failure of failures) expect(String(failure)).toContain(`${LOCK_FILE}.journal cannot be used: it is a symbolic link, not a regular file (expected a regular file, or nothing)`);
  });

  it('the user scope: a ~/.config/loadout linked out of the home folder holds no lock, journal or backup', async () => {
    const n = makeNeighbourhood();
    // The project folder stands for the home folder of the user scope; its .config/loadout leads to the other home's .config.
    const scope: InstallScope = userScope(n.project);
    plant(n, '.config/loadout', '../../home/.config');
    const sentinel = n.sentinel();
    const failure = await failureOf(() => installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: n.project, scope, version: '1.0.0' }));
    expect(String(failure)).toContain("goes through the symbolic link .config/loadout, and the installer's own files are never reached through a link");
    expect(n.sentinel()).toBe(sentinel);
  });

  it('a ~/.config linked inside the home folder is followed, as the user\'s own folders are', async () => {
    const home = makeTempDir('loadout-home-');
    mkdirSync(join(home, 'dotfiles/config'), { recursive: true });
    symlinkSync('dotfiles/config', join(home, '.config'));
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: home, scope: userScope(home), version: '1.0.0' });
    expect(await uninstallLoadout({ scope: userScope(home), id: 'kit' })).toMatchObject({ uninstalled: true, lock_removed: true });
  });
});
