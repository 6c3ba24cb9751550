/**
 * git's blobs are read by object id (commit-log.ts `readManifestCommits`, version-files.ts
 * `readSnapshot`): a request of `<commit>:<path>` has `git cat-file` read the commit's whole
 * `loadouts/` tree each time, which at 10,000 loadouts cost git 14 s of processor time in a cold
 * build. These tests read a real repository's log and versions, and count what the blob reader asks.
 */
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifestCommits } from '../../../src/tree/history/commit-log.js';
import { gitIn, type GitCommands } from '../../../src/tree/history/git-commands.js';
import { openHistory, openRepository } from '../../../src/tree/history/history.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, git, initRepo, makeTempDir } from '../../helpers/temp.js';

/** `gitIn(cwd)`, with every line written to a `git cat-file` process kept in `requests`. */
function recordingGit(cwd: string, requests: string[]): GitCommands {
  const inner = gitIn(cwd);
  return {
    raw: (args) => inner.raw(args),
    pipe: (args) => {
      const pipe = inner.pipe(args);
      return {
        write: (text) => {
          requests.push(...text.split('\n').filter((line) => line !== ''));
          pipe.write(text);
        },
        end: () => pipe.end(),
        onData: (listener) => pipe.onData(listener),
        onExit: (listener) => pipe.onExit(listener),
      };
    },
  };
}

const bump = (root: string, id: string, from: string, to: string): void => {
  const path = join(root, 'loadouts', id, 'loadout.yaml');
  writeFileSync(path, git(root, ['show', `HEAD:loadouts/${id}/loadout.yaml`]).replace(`version: ${from}`, `version: ${to}`));
};

describe('reading manifests and versions from git by object id', () => {
  it("lists each manifest commit with the manifest's object id after it: none for a deletion, the new path's for a rename", async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta', 'gamma']) writeLoadout(root, { id });
    commitAll(root, 'three loadouts', '2026-11-01T10:00:00Z');
    bump(root, 'alpha', '1.0.0', '1.1.0');
    const bumped = commitAll(root, 'alpha 1.1.0', '2026-11-02T10:00:00Z');
    rmSync(join(root, 'loadouts', 'beta', 'loadout.yaml'));
    const deleted = commitAll(root, 'beta loses its manifest', '2026-11-03T10:00:00Z');
    git(root, ['-c', 'diff.renames=true', 'mv', 'loadouts/gamma', 'loadouts/delta']);
    const renamed = commitAll(root, 'gamma becomes delta', '2026-11-04T10:00:00Z');

    const commits = await readManifestCommits(gitIn(root), 'loadouts', [':(top,glob)loadouts/*/loadout.yaml']);
    const blobAt = (commit: string, path: string): string => git(root, ['rev-parse', `${commit}:${path}`]).trim();
    const alpha = commits.get('alpha') ?? [];
    expect(alpha.map((c) => c.commit)).toEqual([bumped, git(root, ['rev-parse', `${bumped}^`]).trim()]);
    expect(alpha.map((c) => c.blob)).toEqual([blobAt(bumped, 'loadouts/alpha/loadout.yaml'), blobAt(`${bumped}^`, 'loadouts/alpha/loadout.yaml')]);
    expect(alpha[0]).toMatchObject({ parent: git(root, ['rev-parse', `${bumped}^`]).trim(), date: '2026-11-02' });
    expect(commits.get('beta')?.[0]).toEqual({ commit: deleted, parent: bumped, date: '2026-11-03', blob: undefined });
    // Whether git's log detects the rename (diff.renames) or not, the new folder's manifest has its id.
    expect(commits.get('delta')?.[0]).toMatchObject({ commit: renamed, blob: blobAt(renamed, 'loadouts/delta/loadout.yaml') });
  });

  it("reads every manifest and an older version's files by id, never by a commit's path", async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta']) writeLoadout(root, { id });
    commitAll(root, 'two loadouts', '2026-11-01T10:00:00Z');
    appendFileSync(join(root, 'loadouts', 'alpha', 'AGENTS.md'), '\n- Another line.\n');
    bump(root, 'alpha', '1.0.0', '2.0.0');
    commitAll(root, 'alpha 2.0.0', '2026-11-02T10:00:00Z');
    const requests: string[] = [];
    const repo = await openRepository(join(root, 'loadouts'), (cwd) => recordingGit(cwd, requests));
    if (repo === undefined) throw new Error('expected a repository');

    const history = await openHistory(repo);
    const alpha = await history.historyOf('alpha', '2.0.0');
    const older = await alpha.versions[0]?.load();
    await history.historyOf('beta', '1.0.0');
    history.close();

    expect(alpha.versions.map((v) => v.version)).toEqual(['1.0.0']);
    expect(older?.manifestText).toContain('version: 1.0.0');
    expect([...(older?.files.keys() ?? [])].sort()).toEqual(git(root, ['ls-tree', '-r', '--name-only', 'HEAD^', '--', 'loadouts/alpha/']).trim().split('\n').map((p) => p.slice('loadouts/alpha/'.length)).filter((p) => p !== 'loadout.yaml').sort());
    expect(new TextDecoder().decode(older?.files.get('AGENTS.md'))).not.toContain('Another line');
    // Three manifests (alpha twice, beta once) and the older version's files; every one by id.
    expect(requests.length).toBeGreaterThanOrEqual(3 + (older?.files.size ?? 0) + 1);
    expect(requests.filter((r) => !/^[0-9a-f]{40,64}$/u.test(r))).toEqual([]);
  });
});
