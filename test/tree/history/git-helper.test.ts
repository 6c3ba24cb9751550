/**
 * git run from `loadout dev`'s helper process (git-helper.ts): what it says is what git run
 * from this process says (git-commands.ts `gitIn`), output, errors and piped blobs alike, in
 * real repositories; a history read through it equals one read directly; a helper that dies
 * fails what waited on it and is forked again; a closed one refuses.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, realpathSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn, type GitCommands } from '../../../src/tree/history/git-commands.js';
import { GitHelper } from '../../../src/tree/history/git-helper.js';
import { openHistory, openRepository, type CatalogueHistory } from '../../../src/tree/history/history.js';
import { BlobReader } from '../../../src/tree/history/version-files.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { soon } from '../../helpers/soon.js';
import { commitAll, git, initRepo, makeTempDir } from '../../helpers/temp.js';

const run = promisify(execFile);
const helpers: GitHelper[] = [];
const newHelper = (): GitHelper => {
  const helper = new GitHelper();
  helpers.push(helper);
  return helper;
};
afterEach(() => {
  for (const helper of helpers.splice(0)) helper.close();
});

/** A repository with two versions of `tools` (1.0.0, then 1.1.0 with another AGENTS.md) and an uncommitted edit. */
function twoVersions(): string {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, { id: 'tools', version: '1.0.0' });
  commitAll(root, 'tools 1.0.0', '2026-11-01T10:00:00Z');
  writeLoadout(root, { id: 'tools', version: '1.1.0' });
  appendFileSync(join(root, 'loadouts/tools/AGENTS.md'), '\nSecond version.\n');
  commitAll(root, 'tools 1.1.0', '2026-11-02T10:00:00Z');
  appendFileSync(join(root, 'loadouts/tools/AGENTS.md'), '\nNot committed.\n');
  writeFileSync(join(root, 'loadouts/tools/notes.md'), 'untracked\n');
  return root;
}

/** Output or error message of `args`, as a comparable value. */
const outcome = (commands: GitCommands, args: string[]): Promise<{ out: string } | { error: string }> =>
  commands.raw(args).then(
    (out) => ({ out }),
    (error: unknown) => ({ error: (error as Error).message }),
  );

/** What a history says of `tools`: dirty folders, versions, and each version's files. */
async function said(history: CatalogueHistory): Promise<unknown> {
  const { versions, ...rest } = await history.historyOf('tools', '1.1.0');
  const snapshots = await Promise.all(versions.map(async ({ load, ...version }) => ({ ...version, snapshot: await load() })));
  history.close();
  return { dirty: [...history.dirty], rest, snapshots };
}

describe('git from the helper process', () => {
  it("says what git run from this process says: output, an error's message, and a failure with nothing on standard error", async () => {
    const root = twoVersions();
    const helper = newHelper().commandsIn(root);
    const direct = gitIn(root);
    const commands: string[][] = [
      ['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD'],
      ['log', '--format=%x00%H %cs%x09%s', '--name-only', '--', 'loadouts/tools'],
      ['status', '--porcelain=v1', '-z', '--untracked-files=all'],
      ['ls-tree', '-r', '-z', '--name-only', 'HEAD~1', '--', 'loadouts/tools/'],
      // An error: git's message on standard error.
      ['log', 'no-such-revision'],
      // Exit code 1 and nothing on standard error: resolves, as simple-git's raw does.
      ['rev-parse', '--verify', '-q', 'no-such-revision'],
    ];
    for (const args of commands) {
      const [viaHelper, viaThisProcess] = await Promise.all([outcome(helper, args), outcome(direct, args)]);
      expect(viaHelper, args.join(' ')).toEqual(viaThisProcess);
    }
    expect(await outcome(helper, ['log', 'no-such-revision'])).toEqual({ error: expect.stringMatching(/no-such-revision/u) as unknown });
    // Many at once come back each to its own caller.
    const many = Array.from({ length: 40 }, (_, n) => ['rev-parse', `HEAD~${n % 2}`]);
    expect(await Promise.all(many.map((args) => outcome(helper, args)))).toEqual(await Promise.all(many.map((args) => outcome(direct, args))));
  });

  it('pipes a cat-file --batch: the blob reader reads the same bytes, missing blobs and all', async () => {
    const root = twoVersions();
    const specs = ['HEAD:loadouts/tools/AGENTS.md', 'HEAD~1:loadouts/tools/AGENTS.md', 'HEAD:loadouts/tools/loadout.yaml', 'HEAD:no/such/file', 'HEAD:loadouts/tools'];
    const read = async (reader: BlobReader): Promise<(string | undefined)[]> => {
      const blobs = await Promise.all(specs.map((spec) => reader.read(spec)));
      reader.close();
      return blobs.map((b) => (b === undefined ? undefined : Buffer.from(b).toString('utf8')));
    };
    const viaHelper = await read(new BlobReader(newHelper().commandsIn(root)));
    expect(viaHelper).toEqual(await read(new BlobReader(gitIn(root))));
    expect(viaHelper[0]).toContain('Second version.');
    expect(viaHelper[1]).not.toContain('Second version.');
    expect(viaHelper.slice(3)).toEqual([undefined, undefined]);
  });

  it("reads a loadout's history, versions and files as a direct read does", async () => {
    const root = twoVersions();
    const viaHelper = await openRepository(join(root, 'loadouts'), (cwd) => newHelper().commandsIn(cwd));
    const direct = await openRepository(join(root, 'loadouts'));
    if (viaHelper === undefined || direct === undefined) throw new Error('expected a repository');
    expect(viaHelper.head).toBe(direct.head);
    const history = await said(await openHistory(viaHelper, ['tools']));
    expect(history).toEqual(await said(await openHistory(direct, ['tools'])));
    expect((history as { dirty: string[] }).dirty).toEqual(['tools']);
    // The earlier version, read through the helper's cat-file (the current one is the working tree's).
    expect((history as { snapshots: { version: string; snapshot: { manifestText: string } }[] }).snapshots.map((s) => [s.version, s.snapshot.manifestText.includes('version: 1.0.0')])).toEqual([['1.0.0', true]]);
    // Outside a repository: no history, as directly.
    expect(await openRepository(join(makeTempDir(), 'loadouts'), (cwd) => newHelper().commandsIn(cwd))).toBeUndefined();
  });

  it('fails what waited on a helper that died, naming it, and forks a new one for the next command', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeFileSync(join(root, 'a.txt'), 'a\n');
    git(root, ['add', 'a.txt']);
    const helper = newHelper();
    const commands = helper.commandsIn(root);
    // A command that runs for 5 s, and a cat-file waiting for input, are open when the helper is killed.
    const waiting = commands.raw(['-c', 'alias.wait=!sleep 5', 'wait']);
    const exited = new Promise<string | undefined>((resolve) => commands.pipe(['cat-file', '--batch']).onExit((_code, error) => resolve(error?.message)));
    const pid = helper.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await expect(waiting).rejects.toThrow(/git helper process ended \(SIGKILL\)/u);
    expect(await exited).toMatch(/git helper process ended \(SIGKILL\)/u);
    expect((await commands.raw(['ls-files'])).trim()).toBe('a.txt');
  });

  it('keeps no process alive: a process that never closes its helper exits, and the helper follows it', async () => {
    const root = makeTempDir();
    initRepo(root);
    const helperModule = new URL('../../../src/tree/history/git-helper.ts', import.meta.url).href;
    const script = `import { GitHelper } from ${JSON.stringify(helperModule)};
const helper = new GitHelper();
const top = await helper.commandsIn(${JSON.stringify(root)}).raw(['rev-parse', '--show-toplevel']);
console.log(JSON.stringify({ top: top.trim(), pid: helper.pid }));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    const said = JSON.parse(stdout) as { top: string; pid: number };
    expect(said.top).toBe(realpathSync(root));
    // The helper sees its parent's channel close and exits.
    const running = (): boolean => {
      try {
        process.kill(said.pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(await soon(() => !running(), 10_000)).toBe(true);
  });

  it('refuses commands and pipes once closed', async () => {
    const root = makeTempDir();
    initRepo(root);
    const helper = newHelper();
    const commands = helper.commandsIn(root);
    helper.close();
    await expect(commands.raw(['status'])).rejects.toThrow('the git helper process was closed');
    await expect(new BlobReader(commands).read('HEAD:x')).rejects.toThrow('the git helper process was closed');
  });
});
