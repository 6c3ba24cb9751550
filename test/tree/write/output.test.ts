import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/tree/build.js';
import { openTrees, treesFolderOf, writeTree } from '../../../src/tree/write/output.js';
import { resolveInside } from '../../../src/tree/write/tree-files.js';
import { LoadoutError } from '../../../src/catalogue/errors.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { runProcess } from '../../helpers/cli.js';
import { TSX_LOADER } from '../../helpers/cli-command.js';
import { commitAll, git, initRepo, makeTempDir } from '../../helpers/temp.js';
import { listFolderEntries } from '../../../src/catalogue/folder-entries.js';

const BASE = 'https://catalogue.test';

/** A pid that surely belongs to no process: one that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Every path below `dir` (files only), relative. */
function filesBelow(dir: string): string[] {
  return listFolderEntries(dir)
    .filter((e) => e.dirent.isFile())
    .map((e) => e.path)
    .sort();
}

describe('the output tree refuses paths outside it', () => {
  const bad = ['', '../x', '../../../../tmp/x', 'raw/../../x', 'raw/a/../../../x', '/etc/passwd', 'C:/x', 'a\\..\\..\\x', 'a//b', 'a/./b', './a', 'a/', 'a\u0000b', 'a/\n/b'];
  it.each(bad)('refuses %j', (path) => {
    const dir = makeTempDir();
    expect(() => resolveInside(dir, path)).toThrow(LoadoutError);
  });

  it('accepts normalised relative paths', () => {
    const dir = makeTempDir();
    expect(resolveInside(dir, 'raw/x/1.0.0/skills/a b/SKILL.md')).toBe(join(dir, 'raw/x/1.0.0/skills/a b/SKILL.md'));
    expect(resolveInside(dir, '..hidden/x')).toBe(join(dir, '..hidden/x'));
  });

  it('write, link and linkFolder go through the same rule, and a refused write leaves the live tree as it was', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    await writeTree(out, async (tree) => tree.write('a.txt', 'one'));
    await expect(writeTree(out, async (tree) => tree.write('raw/x/../../../../escape.txt', 'no'))).rejects.toThrow(/refused to write/u);
    await expect(writeTree(out, async (tree) => tree.link('b.txt', '../outside'))).rejects.toThrow(/refused to write/u);
    await expect(writeTree(out, async (tree) => tree.linkFolder('../escape', 'raw'))).rejects.toThrow(/refused to write/u);
    expect(existsSync(join(root, 'escape.txt'))).toBe(false);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('one');
    expect(readdirSync(treesFolderOf(out)).sort()).toEqual([realpathSync(out).slice(treesFolderOf(out).length + 1), 'store']);
  });
});

describe('switching trees', () => {
  it('makes --out a link to one complete tree, and removes the previous one when no standby is kept', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    await writeTree(out, async (tree) => {
      await tree.write('keep/a.txt', 'kept');
      await tree.write('drop.txt', 'dropped');
    });
    const first = realpathSync(out);
    await writeTree(out, async (tree) => {
      await tree.write('keep/a.txt', 'kept');
      await tree.write('new.txt', 'new');
    });
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(existsSync(first)).toBe(false);
    expect(filesBelow(out)).toEqual(['.complete', 'keep/a.txt', 'new.txt']);
  });

  it('keeps a standby (a copy by hard links the first time) and updates it in place, never writing through a link the live tree shares', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    const origins: (string | undefined)[] = [];
    const options = { startFrom: async () => true };
    await writeTree(out, async (tree) => {
      origins.push(tree.origin);
      await tree.write('a.txt', 'old');
    }, options);
    const live = realpathSync(out);
    const trees = await openTrees(out);
    trees.close();
    const standby = trees.standby ?? '';
    expect(standby).not.toBe('');
    expect(lstatSync(join(standby, 'a.txt')).ino).toBe(lstatSync(join(live, 'a.txt')).ino);
    // Updating the standby replaces its file: the live tree keeps its bytes, also when the update fails.
    await expect(writeTree(out, async (tree) => {
      origins.push(tree.origin);
      await tree.write('a.txt', 'new');
      throw new Error('stop before the switch');
    }, options)).rejects.toThrow('stop');
    expect(readFileSync(join(live, 'a.txt'), 'utf8')).toBe('old');
    expect(realpathSync(out)).toBe(live);
    // The failed update took the standby away: the next tree starts as a copy of the live one,
    // which then stays as the standby.
    await writeTree(out, async (tree) => {
      origins.push(tree.origin);
      expect(readFileSync(join(tree.dir, 'a.txt'), 'utf8')).toBe('old');
      expect(existsSync(join(tree.dir, '.complete'))).toBe(false);
      await tree.write('a.txt', 'new');
    }, options);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('new');
    expect(readFileSync(join(live, 'a.txt'), 'utf8')).toBe('old');
    await writeTree(out, async (tree) => {
      origins.push(tree.origin);
      expect(tree.dir).not.toBe(live);
      await tree.write('a.txt', 'newer');
    }, options);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('newer');
    expect(origins).toEqual([undefined, 'standby', 'live', 'standby']);
  });

  it('lets one build at a time write an output folder, and breaks a lock left by a process that is gone', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    const first = await openTrees(out);
    await expect(openTrees(out)).rejects.toThrow(`another build is writing ${out} (process ${process.pid})`);
    first.close();
    writeFileSync(join(treesFolderOf(out), '.lock'), String(deadPid()));
    const again = await openTrees(out);
    expect(readFileSync(join(treesFolderOf(out), '.lock'), 'utf8')).toBe(String(process.pid));
    again.close();
    expect(existsSync(join(treesFolderOf(out), '.lock'))).toBe(false);
  });

  it('replaces a real output folder of an earlier version, and removes what killed builds left', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    mkdirSync(join(out, 'api'), { recursive: true });
    writeFileSync(join(out, 'api/old.json'), '{}');
    const dead = deadPid();
    const leftovers = [`.dist.tmp-${dead}-abcd1234`, `.dist.old-${dead}-abcd1234`, `.dist.link-${dead}-abcd1234`];
    for (const name of leftovers.slice(0, 2)) mkdirSync(join(root, name, 'raw'), { recursive: true });
    mkdirSync(join(treesFolderOf(out), `${dead}-deadbeef`, 'raw'), { recursive: true });
    // Unfinished trees go whoever wrote them: builds of one output folder run one at a time (the lock).
    mkdirSync(join(treesFolderOf(out), `${process.ppid}-cafebabe`));
    await writeTree(out, async (tree) => tree.write('api/new.json', '{}'));
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(filesBelow(out)).toEqual(['.complete', 'api/new.json']);
    expect(readdirSync(root).sort()).toEqual(['.dist.trees', 'dist']);
    expect(readdirSync(treesFolderOf(out)).sort()).toEqual([realpathSync(out).slice(treesFolderOf(out).length + 1), 'store'].sort());
  });

  it('brings back the newest complete tree when --out went missing between two renames', async () => {
    const root = makeTempDir();
    const out = join(root, 'dist');
    await writeTree(out, async (tree) => tree.write('a.txt', 'one'));
    const live = realpathSync(out);
    // What a build of the earlier code killed between its renames leaves: no --out at all.
    spawnSync('rm', [out]);
    expect(existsSync(out)).toBe(false);
    let seen = '';
    await writeTree(out, async (tree) => {
      seen = readFileSync(join(out, 'a.txt'), 'utf8');
      await tree.write('a.txt', seen);
    });
    expect(seen).toBe('one');
    expect(existsSync(live)).toBe(false);
    expect(readFileSync(join(out, 'a.txt'), 'utf8')).toBe('one');
  });
});

describe('versions from git history are checked like the current manifest', () => {
  const hostile = ['../../../../tmp/loadout-escape', '../x', '/tmp/abs', '1.0.0/../../../x', '1.0.0\\..\\x', '1.0', 'latest', ' 1.0.0', '1.0.0-beta'];

  it('skips each hostile version with a warning that names its commit, and writes nothing outside --out', async () => {
    const base = makeTempDir();
    const root = join(base, 'deep', 'er', 'catalogue');
    mkdirSync(root, { recursive: true });
    initRepo(root);
    const commits = new Map<string, string>();
    for (const version of hostile) {
      writeLoadout(root, { id: 'tools', version: '1.0.0' });
      // The manifest as an old commit held it: the version quoted, whatever it is.
      const manifest = join(root, 'loadouts/tools/loadout.yaml');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^version: .*$/mu, `version: ${JSON.stringify(version)}`));
      commits.set(version, commitAll(root, `version ${version}`));
    }
    writeLoadout(root, { id: 'tools', version: '2.0.0' });
    commitAll(root, 'fixed');
    const out = join(root, 'dist');
    const before = filesBelow(base).filter((p) => !p.includes('/.git/'));
    const result = await buildCatalogue({ root, out, baseUrl: BASE });
    expect(result.written).toBe(true);
    expect(result.loadouts).toEqual([{ id: 'tools', version: '2.0.0', versions: ['2.0.0'] }]);
    for (const [version, commit] of commits) {
      expect(result.warnings).toContain(`loadouts/tools: version ${JSON.stringify(version)} in loadout.yaml of commit ${commit} does not match MAJOR.MINOR.PATCH, digits only: not published`);
    }
    const after = filesBelow(base).filter((p) => !p.includes('/.git/') && !p.includes('/.dist.trees/'));
    expect(after.filter((p) => !before.includes(p))).toEqual([]);
    expect(existsSync('/tmp/loadout-escape')).toBe(false);
    expect(existsSync('/tmp/abs')).toBe(false);
    expect(dirname(realpathSync(out))).toBe(treesFolderOf(out));
  });

  it('leaves out a historic file whose path breaks the rule, with a warning naming the commit', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'tools', version: '1.0.0' });
    // Git allows a backslash in a file name; such a path must not reach the tree.
    writeFileSync(join(root, 'loadouts/tools/a\\..\\b.md'), 'x');
    const manifest = join(root, 'loadouts/tools/loadout.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('files:\n', 'files:\n  - path: "a\\\\..\\\\b.md"\n    role: rules\n    description: bad\n'));
    commitAll(root, 'bad path');
    const commit = git(root, ['rev-parse', 'HEAD']).trim();
    git(root, ['rm', '-q', 'loadouts/tools/a\\..\\b.md']);
    writeLoadout(root, { id: 'tools', version: '1.1.0' });
    commitAll(root, '1.1.0');
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out, baseUrl: BASE });
    expect(result.loadouts).toEqual([{ id: 'tools', version: '1.1.0', versions: ['1.0.0', '1.1.0'] }]);
    expect(result.warnings).toContain(`loadouts/tools: file "a\\\\..\\\\b.md" of version 1.0.0 (commit ${commit}) contains a backslash (expected forward slashes): not published`);
    expect(filesBelow(join(out, 'raw/tools/1.0.0'))).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);
  });
});

describe("the build's worker threads", () => {
  it('build in a process started with --input-type=module (as the crash test starts the compiled build)', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'tools' });
    commitAll(root, 'tools');
    const out = join(root, 'dist');
    const code = `const { buildCatalogue } = await import(${JSON.stringify(new URL('../../../src/tree/build.ts', import.meta.url).href)});
const result = await buildCatalogue({ root: ${JSON.stringify(root)}, out: ${JSON.stringify(out)}, baseUrl: ${JSON.stringify(BASE)} });
if (!result.written) throw new Error('refused');`;
    const run = await runProcess(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', code], root, { PATH: process.env['PATH'] ?? '' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(join(out, 'download/tools/claude-code.zip'))).toBe(true);
    expect(readFileSync(join(out, 'raw/tools/latest/AGENTS.md'), 'utf8')).toContain('#');
  });
});
