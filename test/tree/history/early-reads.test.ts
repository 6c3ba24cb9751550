/**
 * git's reads of a few loadouts started before the repository is opened (history.ts
 * `startHistoryReads`, as a `loadout dev` build starts them): taken, they give the history a
 * fresh read gives; for other loadouts or another repository they are discarded and read again.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHistory, openRepository, startHistoryReads, type CatalogueHistory } from '../../../src/tree/history/history.js';
import { writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../../helpers/temp.js';

/** What a history says of `ids`: dirty folders, and each loadout's versions, dates and commit. */
async function said(history: CatalogueHistory, ids: readonly string[]): Promise<unknown> {
  const of = await Promise.all(ids.map(async (id) => ({ id, ...(await history.historyOf(id, '1.0.0')) })));
  history.close();
  return { dirty: [...history.dirty].sort(), of };
}

describe('history reads started early', () => {
  it('are taken when they are of the loadouts and repository the build reads, and give what a fresh read gives', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta', 'gamma']) writeLoadout(root, { id });
    commitAll(root, 'three loadouts', '2026-11-01T10:00:00Z');
    appendFileSync(join(root, 'loadouts', 'beta', 'AGENTS.md'), '\nedited\n');
    const repo = await openRepository(join(root, 'loadouts'));
    if (repo === undefined) throw new Error('expected a repository');
    const ids = ['beta', 'gamma'];

    const early = startHistoryReads(repo, ids, { blobs: true });
    const taken = await said(await openHistory(repo, ids, early), ids);
    expect(early.claimed).toBe(true);
    expect(taken).toEqual(await said(await openHistory(repo, ids), ids));
    expect((taken as { dirty: string[] }).dirty).toEqual(['beta']);
  });

  it('are discarded, and the loadouts read again, when they are of other loadouts or of another repository', async () => {
    const root = makeTempDir();
    initRepo(root);
    for (const id of ['alpha', 'beta']) writeLoadout(root, { id });
    commitAll(root, 'two loadouts', '2026-11-01T10:00:00Z');
    appendFileSync(join(root, 'loadouts', 'alpha', 'AGENTS.md'), '\nedited\n');
    const repo = await openRepository(join(root, 'loadouts'));
    if (repo === undefined) throw new Error('expected a repository');
    const fresh = await said(await openHistory(repo, ['alpha']), ['alpha']);

    // Started for a loadout since removed (the build reads only alpha).
    const other = startHistoryReads(repo, ['alpha', 'removed'], { blobs: true });
    expect(await said(await openHistory(repo, ['alpha'], other), ['alpha'])).toEqual(fresh);
    expect(other.claimed).toBe(true);
    // Started in another repository (its top moved): not taken.
    const elsewhere = startHistoryReads({ ...repo, top: makeTempDir() }, ['alpha'], { blobs: true });
    expect(await said(await openHistory(repo, ['alpha'], elsewhere), ['alpha'])).toEqual(fresh);
  });
});
