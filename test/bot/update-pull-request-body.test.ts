/**
 * The body of an update pull request (bot/update-pull-request-body.ts): catalogue text cannot
 * become HTML, a mention or a broken table; a diff cannot close its code block; the capability
 * change that `loadout update --json` reports is shown under its heading; diffs that do not fit
 * are left out, saying how many, and the body stays within its size.
 */
import { describe, expect, it } from 'vitest';
import { renderUpdatePullRequestBody, updatePullRequestTitle, type PrintedUpdate } from '../../src/bot/update-pull-request-body.js';

const update = (overrides: Partial<PrintedUpdate> = {}): PrintedUpdate => ({
  id: 'kit',
  agent: 'claude-code',
  source: 'https://catalogue.example',
  from: '1.0.0',
  to: '1.1.0',
  changelog: { direction: 'upgrade', entries: [{ version: '1.1.0', date: '2026-02-20', changes: ['Ping @octocat about #12 <img src=x onerror=alert(1)>'] }] },
  files: [{ target: 'AGENTS.md', change: 'modified', action: 'write', diff: '--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1 +1 @@\n-one\n+```\n+two\u202e\n' }],
  manual_steps: [],
  ...overrides,
});

describe('the update pull request body', () => {
  it('names the updates the policy held back, with the time each becomes eligible, and those it refused, with their rule', () => {
    const rows = [
      { id: 'kit', agent: 'claude-code', installed: '1.0.0', latest: '1.2.0', outdated: true, source: 'https://c.example', held: { version: '1.2.0', eligible_at: '2026-03-08T00:00:00.000Z' }, policy: [] },
      { id: 'dbt', agent: 'cursor', installed: '2.0.0', latest: '2.1.0', outdated: true, source: 'https://c.example', held: null, policy: [{ rule: 'deny.hooks', message: 'deny.hooks: dbt has a Stop hook in skills/x/SKILL.md for Cursor ("@octocat"); the policy denies hooks' }] },
    ];
    const body = renderUpdatePullRequestBody({ updates: [update()], policy: 'app/loadout-policy.yaml', errors: [], rows });
    expect(body).toContain('**Held back by the policy app/loadout\\-policy\\.yaml** (`min_release_age`): the update moves to the newest version old enough.\n\n- kit for claude\\-code: 1\\.2\\.0 is eligible from 2026\\-03\\-08T00:00:00\\.000Z\n');
    expect(body).toContain('**Refused by the policy app/loadout\\-policy\\.yaml**, and not in this pull request:\n\n- dbt for cursor: deny\\.hooks: dbt has a Stop hook in skills/x/SKILL\\.md for Cursor \\("@&#8203;octocat"\\); the policy denies hooks\n');
    expect(renderUpdatePullRequestBody({ updates: [update()], policy: null, errors: [] })).not.toContain('Held back');
  });

  it('escapes what the catalogue wrote and fences each diff beyond its backticks', () => {
    const body = renderUpdatePullRequestBody({ updates: [update()], policy: 'loadout-policy.yaml', errors: ['other for codex: cannot reach https://x.example'] });
    expect(body).toContain('as the policy loadout\\-policy\\.yaml allows');
    expect(body).toContain('  - Ping @&#8203;octocat about #&#8203;12 &lt;img src\\=x onerror\\=alert\\(1\\)&gt;');
    expect(body).not.toContain('<img');
    expect(body).toContain('**Not checked** (their catalogue could not be read):\n\n- other for codex: cannot reach https://x\\.example');
    // The diff holds a run of three backticks: its fence has four, and the RTL override shows.
    expect(body).toContain('````diff\n--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1 +1 @@\n-one\n+```\n+two\ufffd\n````');
    // No capability change reported: no heading for it.
    expect(body).not.toContain('What it can run');
  });

  it('shows the capability change loadout update --json reports, an update that adds to it called out for review', () => {
    const widened = renderUpdatePullRequestBody({ updates: [update({ capabilities: { widens: true, items: [{ list: 'mcp_servers', change: 'added', key: 'kit-search', text: 'new: MCP server "kit-search": runs kit-search from npm through npx @1' }, { list: 'env', change: 'removed', key: 'OLD', text: 'gone: variable OLD' }] } })], policy: null, errors: [] });
    expect(widened).toContain('#### What it can run: this update adds to it (review before merging)\n\n- **+** added: new: MCP server "kit\\-search": runs kit\\-search from npm through npx @&#8203;1\n- − removed: gone: variable OLD\n');
    const same = renderUpdatePullRequestBody({ updates: [update({ capabilities: { widens: false, items: [] } })], policy: null, errors: [] });
    expect(same).toContain('#### What it can run\n\n_No change in what it can run._\n');
  });

  it('leaves out the diffs that do not fit, saying how many, and stays within its size', () => {
    const big = (n: number): PrintedUpdate['files'][number] => ({ target: `rules/r${n}.md`, change: 'modified', action: 'write', diff: `@@ -1 +1 @@\n${'+line\n'.repeat(400)}` });
    const body = renderUpdatePullRequestBody({ updates: [update({ files: [big(1), big(2), big(3), big(4)] })], policy: null, errors: [] }, 6_000);
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(6_000);
    expect(body).toContain('**kit for claude\\-code: rules/r2\\.md**');
    expect(body).not.toContain('rules/r3\\.md**');
    expect(body).toContain("```\n\n_2 diffs left out here for length: the pull request's files show them._\n\n</details>");
    // Every table row of the files is there, also when the diffs are not.
    expect(body).toContain('| rules/r4\\.md | modified |');
  });

  it('is titled after the one loadout it updates, or counts them', () => {
    expect(updatePullRequestTitle([update(), update({ agent: 'codex' })])).toBe('Update kit to 1.1.0');
    expect(updatePullRequestTitle([update(), update({ id: 'other' })])).toBe('Update 2 loadouts');
  });
});
