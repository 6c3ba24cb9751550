/**
 * The GitHub client's plugins at work against the fake: a server error is retried with backoff
 * (retry plugin), a secondary rate limit is waited out as GitHub's Retry-After says and reported
 * through `warn` (throttling plugin), and a refusal becomes a LoadoutError that names the request
 * and says what to do. The waits are octokit's own (one second each), not the test's.
 */
import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/bot/github-client.js';
import { startFakeGitHub } from './fake-github.js';

describe('the GitHub client', () => {
  it('retries server errors, waits out a secondary rate limit, and explains a refusal', async () => {
    const fake = await startFakeGitHub();
    const warnings: string[] = [];
    const client = createGitHubClient({ token: fake.token, owner: fake.owner, repo: fake.repo, apiUrl: fake.url }, { warn: (m) => warnings.push(m) });
    const { number } = fake.open({ title: 'Add x 1.0.0', head: 'submission/x', base: 'main' });

    fake.failNext({ status: 502, message: 'Server Error' });
    expect(await client.getPullRequest(number)).toMatchObject({ number, state: 'open', merged: false, head: 'submission/x', labels: [] });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /repos/octo-org/loadouts/pulls/1', 'GET /repos/octo-org/loadouts/pulls/1']);

    fake.failNext({ status: 403, headers: { 'retry-after': '1' }, message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' });
    expect(await client.findOpenPullRequest('submission/x')).toMatchObject({ number, url: `${fake.url}/octo-org/loadouts/pull/1` });
    expect(warnings).toEqual([`GitHub secondary rate limit on GET /repos/{owner}/{repo}/pulls; retrying in 1 s`]);

    const wrong = createGitHubClient({ token: 'not-the-token', owner: fake.owner, repo: fake.repo, apiUrl: fake.url });
    const refused = wrong.getPullRequest(number);
    await expect(refused).rejects.toThrow('GitHub answered 401 to GET /repos/octo-org/loadouts/pulls/1: Bad credentials');
    await expect(refused).rejects.toMatchObject({ code: 'io', hint: 'Check GITHUB_TOKEN: it is missing, expired or revoked.' });
    await expect(client.getPullRequest(99)).rejects.toMatchObject({ hint: 'Check GITHUB_REPOSITORY (octo-org/loadouts) and that the token can see it.' });
    expect(fake.violations).toEqual([]);
  });
});
