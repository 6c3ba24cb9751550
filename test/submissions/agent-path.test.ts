/**
 * `POST /api/v1/submissions` from an agent (Bearer API key) and `GET
 * /api/v1/submissions/<id>`, against a real server and a real database (SQLite, and
 * PostgreSQL when TEST_DATABASE_URL is set).
 */
import { describe, expect, it } from 'vitest';
import { generateAdapter } from '../../src/adapters/generate.js';
import { DATABASE_KINDS } from '../storage/databases.js';
import { bearer, json, startHarness, TAKEN_ID, validBody } from './harness.js';
import { requires } from '../run/requirements.js';

describe.each(DATABASE_KINDS)('agent submissions on $kind', ({ kind, skip, requirement }) => {
  requires(requirement);
  it.skipIf(skip)('accepts a valid submission: 202 with id, status, status_url, loadout_id and verification', async () => {
    const h = await startHarness(kind);
    const response = await h.post(validBody(), bearer(h.key));
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(['id', 'loadout_id', 'status', 'status_url', 'verification']);
    expect(body['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body['status']).toBe('pending-review');
    expect(body['loadout_id']).toBe('rust-cli-helpers');
    expect(body['status_url']).toBe(`http://catalogue.test/api/v1/submissions/${String(body['id'])}`);
    expect(response.headers.get('location')).toBe(body['status_url']);
    const verification = body['verification'] as { status: string; checks: { id: string; status: string }[] };
    expect(verification.status).toBe('verified');
    expect(verification.checks.map((c) => c.id)).toEqual(['listing', 'parse', 'adapters', 'install-paths', 'mcp', 'safety', 'references', 'size', 'licence', 'starter-build']);

    const stored = await h.stores.submissions.get(String(body['id']));
    expect(stored?.submitter).toMatch(/^key:[0-9a-f]{12}$/);
    expect(stored?.contactEmail).toBe('ada@example.org');
    expect(stored?.manifest).toContain('version: 1.0.0');
    expect((await h.stores.submissions.files(String(body['id']))).map((f) => f.path)).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'rules/errors.md']);
    expect(await h.stores.submissions.events(String(body['id']))).toEqual([{ seq: 1, at: stored?.createdAt, actor: stored?.submitter, from: null, to: 'pending-review', note: null }]);
    const keys = await h.stores.keys.list();
    expect(keys[0]?.lastUsedAt).not.toBeNull();
  });

  it.skipIf(skip)('gives random ids (UUIDv4), never sequential', async () => {
    const h = await startHarness(kind);
    const ids: string[] = [];
    for (const id of ['one-a', 'two-b', 'three-c']) ids.push(String((await json(await h.post(validBody({ id }), bearer(h.key))))['id']));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id[14]).toBe('4');
  });

  it.skipIf(skip)('stores a submission whose checks fail as checks-failed', async () => {
    const h = await startHarness(kind);
    const files = [{ path: 'AGENTS.md', content: '# X\n\nSee [the guide](docs/missing.md).\n' }, { path: 'CLAUDE.md', content: '# my own adapter\n' }];
    const response = await h.post(validBody({ files }), bearer(h.key));
    expect(response.status).toBe(202);
    const body = await json(response);
    expect(body['status']).toBe('checks-failed');
    const checks = (body['verification'] as { checks: { id: string; status: string }[] }).checks;
    expect(checks.find((c) => c.id === 'adapters')?.status).toBe('fail');
  });

  it.skipIf(skip)('generates the adapters only for the agents named', async () => {
    const h = await startHarness(kind);
    const body = await json(await h.post(validBody({ agents: ['codex', 'claude-code'] }), bearer(h.key)));
    const files = await h.stores.submissions.files(String(body['id']));
    expect(files.map((f) => f.path)).toEqual(['AGENTS.md', 'CLAUDE.md', 'rules/errors.md']);
    expect(files.find((f) => f.path === 'CLAUDE.md')?.content).toBe(generateAdapter('claude-code', 'Rust CLI Helpers'));
    const manifest = (await h.stores.submissions.get(String(body['id'])))?.manifest ?? '';
    expect(manifest).toMatch(/gemini-cli: unsupported/);
    expect(body['status']).toBe('pending-review');
  });

  it.skipIf(skip)('answers 401 without a credential, with a wrong, malformed or revoked key', async () => {
    const h = await startHarness(kind);
    const noCredential = await h.post(validBody());
    expect(noCredential.status).toBe(401);
    expect(noCredential.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await json(noCredential)).toMatchObject({ status: 401, code: 'unauthorized', detail: expect.stringMatching(/no credential/) as unknown });
    const wrong = h.key.slice(0, -4) + (h.key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await h.post(validBody(), bearer(wrong))).status).toBe(401);
    expect((await h.post(validBody(), bearer('lk_000000000000_' + 'A'.repeat(43)))).status).toBe(401);
    expect((await h.post(validBody(), bearer('not-a-key'))).status).toBe(401);
    expect((await h.post(validBody(), { authorization: `Basic ${h.key}` })).status).toBe(401);
    const prefix = /^lk_([0-9a-f]{12})_/.exec(h.key)?.[1] ?? '';
    await h.stores.keys.revoke(prefix, new Date().toISOString());
    const revoked = await h.post(validBody(), bearer(h.key));
    expect(revoked.status).toBe(401);
    expect((await json(revoked))['detail']).toMatch(/revoked/);
    expect(await h.stores.submissions.list()).toEqual([]);
  });

  it.skipIf(skip)('answers 422 listing every violation at once', async () => {
    const h = await startHarness(kind);
    const response = await h.post(validBody({ name: 'x', licence: 'GPL', source_url: 'ftp://x', files: [{ path: 'rules/a.md', content: 'x' }], surprise: true }), bearer(h.key));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await json(response);
    expect(body).toMatchObject({ type: '/docs/#problem-invalid_body', title: 'Invalid submission', status: 422, code: 'invalid_body' });
    expect((body['errors'] as { pointer: string }[]).map((e) => e.pointer)).toEqual(['/name', '/files', '/licence', '/source_url', '/surprise']);
  });

  it.skipIf(skip)('answers 422 naming the paths for files that cannot be written together or hold control characters', async () => {
    const h = await startHarness(kind);
    const agents = { path: 'AGENTS.md', content: '# Agents\n\nBe brief.\n' };
    const long = `skills/tool/${'n'.repeat(256)}.md`;
    const files = [agents, { path: 'skills/tool/SKILL.md', content: '---\nname: tool\ndescription: A tool skill for tests.\n---\n# Tool\n' }, { path: 'skills/tool/x', content: 'x' }, { path: 'skills/tool/x/y.md', content: 'y' }, { path: long, content: 'z' }, { path: 'rules/a\u009b2J.md', content: 'c' }, { path: 'rules/b\u2028c.md', content: 'd' }];
    const response = await h.post(validBody({ files }), bearer(h.key));
    expect(response.status).toBe(422);
    const errors = (await json(response))['errors'] as { pointer: string; message: string }[];
    expect(errors.map((e) => e.pointer)).toEqual(['/files/4/path', '/files/5/path', '/files/6/path', '/files/2/path']);
    expect(errors[0]?.message).toBe(`"${long}" has a segment of 259 bytes (expected at most 255 bytes of UTF-8 per file or folder name)`);
    expect(errors[1]?.message).toMatch(/contains U\+009B/);
    expect(errors[2]?.message).toMatch(/contains U\+2028/);
    expect(errors[3]?.message).toBe('"skills/tool/x" is a file, but "skills/tool/x/y.md" needs a folder of that name (expected no path to be both a file and a folder)');
    expect(await h.stores.submissions.list()).toEqual([]);
  });

  it.skipIf(skip)('answers 409 for an id the catalogue publishes', async () => {
    const h = await startHarness(kind);
    const response = await h.post(validBody({ id: TAKEN_ID }), bearer(h.key));
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ code: 'id_taken', detail: expect.stringMatching(/already publishes/) as unknown });
  });

  it.skipIf(skip)('answers 409 when another submitter has the id under review; the same key replaces its own', async () => {
    const h = await startHarness(kind);
    const first = await json(await h.post(validBody(), bearer(h.key)));
    const again = await h.post(validBody({ summary: 'A second, better summary of these Rust helpers.' }), bearer(h.key));
    expect(again.status).toBe(202);
    const second = await json(again);
    expect(second['id']).toBe(first['id']);
    const stored = await h.stores.submissions.get(String(first['id']));
    expect(stored?.request['summary']).toBe('A second, better summary of these Rust helpers.');
    expect((await h.stores.submissions.events(String(first['id']))).map((e) => [e.from, e.to, e.note])).toEqual([
      [null, 'pending-review', null],
      ['pending-review', 'pending-review', 'resubmitted'],
    ]);

    const { createApiKey } = await import('../../src/submissions/api-key.js');
    const other = await createApiKey(h.stores.keys, 'someone else', new Date());
    const conflict = await h.post(validBody(), bearer(other.key));
    expect(conflict.status).toBe(409);
    const formToken = await h.formToken();
    const fromForm = await h.post(validBody({ form_token: formToken, challenge_token: 'pass-1' }));
    expect(fromForm.status).toBe(409);

    // Once a maintainer rejects it, the id is free again.
    await h.stores.submissions.transition(String(first['id']), { from: ['pending-review'], to: 'rejected', actor: 'maintainer:test', at: new Date().toISOString() });
    expect((await h.post(validBody(), bearer(other.key))).status).toBe(202);
  });

  it.skipIf(skip)('answers 429 with Retry-After per API key', async () => {
    const h = await startHarness(kind, { limits: { perKey: 2 } });
    expect((await h.post(validBody({ id: 'a-one' }), bearer(h.key))).status).toBe(202);
    expect((await h.post(validBody({ id: 'a-two' }), bearer(h.key))).status).toBe(202);
    const limited = await h.post(validBody({ id: 'a-three' }), bearer(h.key));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await json(limited)).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/API key/) as unknown });
    const { createApiKey } = await import('../../src/submissions/api-key.js');
    const other = await createApiKey(h.stores.keys, 'other', new Date());
    expect((await h.post(validBody({ id: 'b-one' }), bearer(other.key))).status).toBe(202);
  });

  it.skipIf(skip)('serves the status document without the contact e-mail or the client address', async () => {
    const h = await startHarness(kind);
    const created = await json(await h.post(validBody(), bearer(h.key)));
    const response = await fetch(`${h.url}/api/v1/submissions/${String(created['id'])}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('ada@example.org');
    expect(text).not.toContain('127.0.0.1');
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['capabilities', 'created_at', 'id', 'loadout_id', 'pr_url', 'status', 'updated_at', 'verification']);
    expect(body).toMatchObject({ id: created['id'], loadout_id: 'rust-cli-helpers', status: 'pending-review', pr_url: null, capabilities: { runs: 'nothing', mcp_servers: [], hooks: [] } });
    expect(body['verification']).toEqual(created['verification']);
  });

  it.skipIf(skip)('keeps what the submitted loadout can run, as its checks derived it, in the status document and on the status page (issue 54, point 4)', async () => {
    const h = await startHarness(kind);
    const server = { mcpServers: { docs: { command: 'npx', args: ['-y', '@acme/docs-mcp@2.0.0'], env: { DOCS_TOKEN: '${DOCS_TOKEN}' } } } };
    const body = validBody({ id: 'docs-helper', files: [{ path: 'AGENTS.md', content: '# Docs helper\n\nUse the docs server for questions about the API. <b>Bold</b> claims are text.\n' }, { path: 'mcp/servers.json', content: `${JSON.stringify(server, null, 2)}\n` }] });
    const created = await json(await h.post(body, bearer(h.key)));
    const doc = await json(await fetch(`${h.url}/api/v1/submissions/${String(created['id'])}`));
    const capabilities = doc['capabilities'] as { runs: string; mcp_servers: { name: string; package: { name: string; pinned: boolean } }[]; env: { name: string; secret: boolean }[] };
    expect(capabilities.runs).toBe('something');
    expect(capabilities.mcp_servers.map((s) => [s.name, s.package.name, s.package.pinned])).toEqual([['docs', '@acme/docs-mcp', true]]);
    expect(capabilities.env.map((e) => [e.name, e.secret])).toEqual([['DOCS_TOKEN', true]]);
    const page = await (await fetch(`${h.url}/submissions/${String(created['id'])}/`)).text();
    expect(page).toContain('<h2 id="capabilities">What it can run</h2>');
    expect(page).toContain('&quot;docs&quot;: runs @acme/docs-mcp from npm through npx, pinned at 2.0.0; reads DOCS_TOKEN (secret)');
    expect(page).toContain('Nothing in it needs your consent');
  });

  it.skipIf(skip)('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const h = await startHarness(kind);
    const unknown = await fetch(`${h.url}/api/v1/submissions/5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ code: 'not_found' });
    for (const bad of ['42', 'not-a-uuid', '5D1C2A60-3B1F-4C3E-9A57-8F1E2D3C4B5A', "x'%20or%201=1"]) {
      const response = await fetch(`${h.url}/api/v1/submissions/${bad}`);
      expect(response.status, bad).toBe(400);
      expect(await json(response)).toMatchObject({ code: 'bad_parameter' });
    }
  });
});
