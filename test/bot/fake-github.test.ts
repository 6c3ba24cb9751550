/**
 * The fake GitHub holds itself to GitHub's OpenAPI description: a request the real API would
 * not accept is refused and listed, so a client that drifts fails its tests.
 */
import { describe, expect, it } from 'vitest';
import { startFakeGitHub } from './fake-github.js';

describe('the fake GitHub', () => {
  it('refuses requests that do not match the OpenAPI description, and endpoints the bot may not use', async () => {
    const fake = await startFakeGitHub();
    const call = (method: string, path: string, body?: unknown, token = fake.token): Promise<Response> =>
      fetch(`${fake.url}${path}`, { method, headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

    const created = await call('POST', '/repos/octo-org/loadouts/pulls', { title: 'Add x 1.0.0', head: 'submission/x', base: 'main', body: 'text' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ number: 1, state: 'open', html_url: `${fake.url}/octo-org/loadouts/pull/1`, head: { ref: 'submission/x' }, merged_at: null });
    expect(fake.violations).toEqual([]);

    const refused: [string, string, unknown, RegExp][] = [
      ['POST', '/repos/octo-org/loadouts/pulls', { title: 'x', head: 'a', base: 'main', draft: 'yes' }, /body\/draft must be boolean/u],
      ['POST', '/repos/octo-org/loadouts/issues/1/labels', { labels: [] }, /body\/labels must NOT have fewer than 1 items|must match exactly one schema/u],
      ['GET', '/repos/octo-org/loadouts/pulls?state=merged', undefined, /query parameter state must be equal to one of the allowed values/u],
      ['GET', '/repos/octo-org/loadouts/pulls?label=submission', undefined, /the query parameter label is not in the description/u],
      ['PATCH', '/repos/octo-org/loadouts/pulls/first', { body: 'x' }, /path parameter pull_number must be integer/u],
      ['PATCH', '/repos/octo-org/loadouts/pulls/1', { state: 'merged' }, /body\/state must be equal to one of the allowed values/u],
      ['PUT', '/repos/octo-org/loadouts/pulls/1/merge', {}, /is not one of the bot's five endpoints/u],
      ['DELETE', '/repos/octo-org/loadouts/issues/1/labels/submission', undefined, /is not one of the bot's five endpoints/u],
    ];
    for (const [method, path, body, why] of refused) {
      const response = await call(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(((await response.json()) as { message: string }).message).toMatch(why);
    }
    expect(fake.violations).toHaveLength(refused.length);

    // GitHub's own rules that the bot relies on.
    const again = await call('POST', '/repos/octo-org/loadouts/pulls', { title: 'Add x 1.0.0', head: 'submission/x', base: 'main' });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ errors: [{ message: 'A pull request already exists for octo-org:submission/x.' }] });
    expect((await call('GET', '/repos/octo-org/loadouts/pulls/1', undefined, 'wrong')).status).toBe(401);
    expect((await call('GET', '/repos/octo-org/other/pulls/1')).status).toBe(404);
    expect((await call('GET', '/repos/octo-org/loadouts/pulls/9')).status).toBe(404);
    const listed = (await (await call('GET', '/repos/octo-org/loadouts/pulls?state=open&head=octo-org:submission/x')).json()) as { number: number }[];
    expect(listed.map((p) => p.number)).toEqual([1]);
    expect(await (await call('GET', '/repos/octo-org/loadouts/pulls?head=octo-org:submission/y')).json()).toEqual([]);
    fake.merge(1);
    expect(await (await call('GET', '/repos/octo-org/loadouts/pulls/1')).json()).toMatchObject({ state: 'closed', merged: true, merged_at: expect.any(String) as unknown });
    expect(fake.violations).toHaveLength(refused.length);
  });
});
