/**
 * `loadout submissions sync` (docs/maintaining.md "Maintainers"): pull requests read from the
 * fake GitHub, submissions in a real SQLite file, moves as DESIGN.md section 5 lists them.
 */
import { describe, expect, it } from 'vitest';
import { syncPullRequests, pullRequestNumber } from '../../src/bot/sync.js';
import { sourcesOf, transitionSubmission } from '../../src/submissions/transitions.js';
import type { SubmissionStore } from '../../src/storage/submission-store.js';
import type { FakeGitHub } from './fake-github.js';
import { acceptedSubmission, openStore, startGitHub } from './setup.js';

/** An accepted submission whose pull request is open on the fake, recorded as pr-opened. */
async function withPullRequest(store: SubmissionStore, fake: FakeGitHub, name: string): Promise<{ id: string; number: number; url: string }> {
  const submission = await acceptedSubmission(store, { name });
  const pull = fake.open({ title: `Add ${submission.loadoutId} 1.0.0`, body: 'body', head: `submission/${submission.loadoutId}`, base: 'main' });
  const moved = await transitionSubmission(store, submission.id, 'pr-opened', { actor: 'bot', at: '2026-11-22T12:00:00.000Z', prUrl: pull.url });
  if (!moved.ok) throw new Error(moved.message);
  return { id: submission.id, number: pull.number, url: pull.url };
}

describe('loadout submissions sync', () => {
  it('moves a merged pull request to merged and a closed one to closed, and leaves an open one', async () => {
    const { fake, client } = await startGitHub();
    const { store } = await openStore();
    const merged = await withPullRequest(store, fake, 'Merged Loadout');
    const closed = await withPullRequest(store, fake, 'Closed Loadout');
    const open = await withPullRequest(store, fake, 'Open Loadout');
    fake.merge(merged.number);
    fake.close(closed.number);

    const outcomes = await syncPullRequests({ store, github: client, ids: [], now: () => new Date('2026-11-23T09:00:00.000Z') });
    expect(outcomes).toEqual([
      { submission: merged.id, loadout_id: 'merged-loadout', pr_url: merged.url, pull_request: 'merged', status: 'merged', changed: true },
      { submission: closed.id, loadout_id: 'closed-loadout', pr_url: closed.url, pull_request: 'closed', status: 'closed', changed: true },
      { submission: open.id, loadout_id: 'open-loadout', pr_url: open.url, pull_request: 'open', status: 'pr-opened', changed: false },
    ]);
    expect((await store.events(merged.id)).at(-1)).toEqual({ seq: 4, at: '2026-11-23T09:00:00.000Z', actor: 'bot', from: 'pr-opened', to: 'merged', note: `pull request #${merged.number} merged` });
    expect((await store.events(closed.id)).at(-1)).toMatchObject({ from: 'pr-opened', to: 'closed', actor: 'bot' });
    expect((await store.get(open.id))?.status).toBe('pr-opened');
    expect(fake.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([1, 2, 3].map((n) => `/repos/octo-org/loadouts/pulls/${n}`));

    // A second sync finds only the open one left.
    expect((await syncPullRequests({ store, github: client, ids: [] })).map((o) => o.submission)).toEqual([open.id]);
    expect(fake.violations).toEqual([]);
  });

  it('refuses an illegal move with a clear message and changes nothing', async () => {
    const { fake, client } = await startGitHub();
    const { store } = await openStore();
    const accepted = await acceptedSubmission(store, { name: 'Still Accepted' });
    const done = await withPullRequest(store, fake, 'Already Merged');
    fake.merge(done.number);
    await syncPullRequests({ store, github: client, ids: [done.id] });

    const outcomes = await syncPullRequests({ store, github: client, ids: [accepted.id, done.id] });
    expect(outcomes.map((o) => o.refused)).toEqual([
      `submission ${accepted.id} is accepted (expected pr-opened to become merged or closed)`,
      `submission ${done.id} is merged (expected pr-opened to become merged or closed)`,
    ]);
    expect(outcomes.map((o) => o.changed)).toEqual([false, false]);
    expect((await store.get(accepted.id))?.status).toBe('accepted');
    await expect(syncPullRequests({ store, github: client, ids: ['missing'] })).rejects.toThrow(/no submission missing/u);

    // The same table refuses every move DESIGN.md section 5 does not list.
    expect(await transitionSubmission(store, done.id, 'pr-opened', { actor: 'bot', at: '2026-11-23T00:00:00.000Z' })).toEqual({ ok: false, message: `submission ${done.id} is merged (expected accepted to become pr-opened)` });
    expect(await transitionSubmission(store, accepted.id, 'merged', { actor: 'bot', at: '2026-11-23T00:00:00.000Z' })).toEqual({ ok: false, message: `submission ${accepted.id} is accepted (expected pr-opened to become merged)` });
    expect(await transitionSubmission(store, 'nope', 'closed', { actor: 'bot', at: '2026-11-23T00:00:00.000Z' })).toEqual({ ok: false, message: 'submission nope does not exist' });
    expect(sourcesOf('rejected')).toEqual(['pending-review', 'checks-failed', 'accepted']);
  });

  it('reads the pull request number only from an address in GITHUB_REPOSITORY', () => {
    expect(pullRequestNumber('https://github.com/octo-org/loadouts/pull/12', 'octo-org/loadouts')).toBe(12);
    expect(pullRequestNumber('https://ghe.example/Octo-Org/Loadouts/pull/7', 'octo-org/loadouts')).toBe(7);
    expect(pullRequestNumber('https://github.com/someone/else/pull/12', 'octo-org/loadouts')).toMatch(/is in someone\/else, not in GITHUB_REPOSITORY octo-org\/loadouts/u);
    expect(pullRequestNumber('https://github.com/octo-org/loadouts/issues/12', 'octo-org/loadouts')).toMatch(/does not end in \/pull\/<number>/u);
    expect(pullRequestNumber('not a url', 'octo-org/loadouts')).toMatch(/is not a URL/u);
    expect(pullRequestNumber(null, 'octo-org/loadouts')).toMatch(/has no pull request address/u);
  });
});
