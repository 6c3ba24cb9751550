/**
 * The pull request's title and body (pure): submitter text cannot inject HTML, Markdown,
 * mentions or references, cannot break the tables, and the body is capped.
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, MAX_BODY_BYTES, pullRequestTitle, renderPullRequestBody, type PullRequestBodyInput } from '../../src/bot/pull-request-body.js';
import { CHECK_IDS } from '../../src/catalogue/vocabulary.js';
import { deriveCapabilities } from '../../src/layout/capabilities.js';
import type { FileEntry } from '../../src/catalogue/manifest.js';

const HOSTILE = 'Evil | cell @octocat @octo-org/team #12 other/repo#3 <script>alert(1)</script> <!-- hidden --> [click](javascript:alert(1)) ![x](https://tracker.example/p.png) **bold** `code` &#64;entity\u202eevil\u200b\nSecond line\r\n# Heading\n- item\n> quote';

function input(overrides: Partial<PullRequestBodyInput> = {}): PullRequestBodyInput {
  return {
    submissionId: '5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a',
    loadoutId: 'rust-cli',
    version: '1.0.0',
    request: { name: 'Rust CLI', summary: 'Conventions for Rust command-line tools.', category: 'workflow', stacks: ['rust'], agents: ['codex', 'cursor'], licence: 'MIT', author: { name: 'Ada Lovelace', github: 'ada' }, source_url: 'https://github.com/ada/rust-cli', notes: 'Please review.' },
    files: [{ path: 'AGENTS.md', bytes: 120 }, { path: 'loadout.yaml', bytes: 900 }],
    checks: CHECK_IDS.map((id) => ({ id, name: id, status: id === 'starter-build' ? 'n/a' : 'pass', summary: `${id} ok`, details: [] })),
    verificationLabel: 'Verified install: 9 of 9 automated checks pass',
    decisions: [{ actor: 'maintainer:ada', at: '2026-11-22T11:00:00.000Z', note: null }],
    ...overrides,
  };
}

/** The cells of a table row, split at pipes that are not escaped. */
function cells(line: string): string[] {
  return line.split(/(?<!\\)\|/u).slice(1, -1);
}

describe('the pull request', () => {
  it('is titled Add <id> <version> and shows the submission, the ten checks and the notes', () => {
    expect(pullRequestTitle('rust-cli', '1.0.0')).toBe('Add rust-cli 1.0.0');
    const body = renderPullRequestBody(input());
    expect(body).toContain('from submission `5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a`, accepted by maintainer:ada on 2026\\-11\\-22.');
    expect(body).toContain('| Summary | Conventions for Rust command\\-line tools\\. |');
    expect(body).toContain('| Author | Ada Lovelace \\(GitHub: ada\\) |');
    expect(body).toContain('| Source | https://github\\.com/ada/rust\\-cli |');
    expect(body).toContain('| Files | 2 files, 1020 bytes: AGENTS\\.md, loadout\\.yaml |');
    expect(body).toContain('### Checks: Verified install: 9 of 9 automated checks pass');
    for (const id of CHECK_IDS) expect(body).toMatch(new RegExp(`^\\| \`${id}\` \\| (pass|n/a) \\| ${id.replace('-', '\\\\-')} ok \\|$`, 'mu'));
    expect(body).toContain('### Reviewer notes\n\n> Please review\\.');
    expect(renderPullRequestBody(input({ request: {} }))).toContain('_The submitter left no notes._');
  });

  it('escapes submitter text: no HTML, no Markdown, no mentions or references, no broken table', () => {
    const body = renderPullRequestBody(input({ request: { name: HOSTILE, summary: HOSTILE, stacks: [HOSTILE], author: { name: HOSTILE, github: 'ada' }, notes: HOSTILE }, decisions: [{ actor: 'maintainer:ada', at: '2026-11-22T11:00:00.000Z', note: HOSTILE }] }));
    expect(body).not.toMatch(/<script|<!--|<\/?[a-z]/iu);
    expect(body).not.toMatch(/@octocat|@octo-org|#12|#3/u);
    expect(body).toContain('@&#8203;octocat');
    expect(body).toContain('#&#8203;12');
    expect(body).toContain(`| Name | ${escapeMarkdown(HOSTILE)} |`);
    expect(escapeMarkdown(HOSTILE)).not.toMatch(/(?<!\\)[[\]()!*`|]/u);
    expect(body).not.toContain('&#64;');
    expect(body).toContain('&amp;#&#8203;64;entity');
    expect(body).not.toMatch(/[\u202e\u200b]/u);
    // Every row of both tables still has exactly its columns, and stays on one line.
    const rows = body.split('\n').filter((line) => line.startsWith('|'));
    expect(rows.filter((line) => cells(line).length === 2)).toHaveLength(2 + 9);
    expect(rows.filter((line) => cells(line).length === 3)).toHaveLength(2 + CHECK_IDS.length);
    expect(rows).toHaveLength(2 + 9 + 2 + CHECK_IDS.length);
    // In the notes, no line can start a heading, a list or a quote of its own: each is quoted text.
    const notes = body.slice(body.indexOf('### Reviewer notes'));
    for (const line of notes.split('\n').slice(2).filter((l) => l !== '' && !l.endsWith(':'))) expect(line).toMatch(/^>( |$)/u);
    expect(notes).toContain('> #&#8203; Heading');
    expect(notes).toContain('> \\- item');
    expect(notes).toContain('> &gt; quote');
  });

  it('breaks GH-<n> and GHSA-… references, in any case, so GitHub links no issue or advisory', () => {
    const text = 'See GH-123, gh-7, (GH-45) and GHSA-abcd-efgh-ijkl; also X-GH-9 and ghsa-x.';
    const escaped = escapeMarkdown(text);
    expect(escaped).toBe('See GH&#8203;\\-123, gh&#8203;\\-7, \\(GH&#8203;\\-45\\) and GHSA&#8203;\\-abcd\\-efgh\\-ijkl; also X\\-GH&#8203;\\-9 and ghsa&#8203;\\-x\\.');
    // What GitHub sees once Markdown's escapes are read: no GH-<digits> or GHSA- left whole.
    const rendered = escaped.replaceAll('&#8203;', '\u200b').replace(/\\(.)/gu, '$1');
    expect(rendered).not.toMatch(/gh-\d|ghsa-/iu);
    const body = renderPullRequestBody(input({ request: { name: 'Fixes GH-1', notes: 'Related: GH-42 and GHSA-xxxx-yyyy-zzzz' } }));
    expect(body.replaceAll('&#8203;', '\u200b').replace(/\\(.)/gu, '$1')).not.toMatch(/gh-\d|ghsa-/iu);
  });

  it('escapes one line at a time', () => {
    expect(escapeMarkdown('@octocat <b>|x|</b>')).toBe('@&#8203;octocat &lt;b&gt;\\|x\\|&lt;/b&gt;');
    expect(escapeMarkdown('a\nb\r\nc')).toBe('a b c');
    expect(escapeMarkdown('a\nb', { inline: false })).toBe('a\nb');
    expect(escapeMarkdown('tag\u{e0041}ged')).toBe('tag\ufffdged');
  });

  it('is cut below GitHub\'s limit, at a line, and says so', () => {
    const notes = Array.from({ length: 3000 }, (_, i) => `line ${i} with a mention @someone and ünïcödé`).join('\n');
    const body = renderPullRequestBody(input({ request: { name: 'Long', notes } }));
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(MAX_BODY_BYTES).toBeLessThan(65_536);
    expect(body).toMatch(/\n> line \d+ with a mention @&#8203;someone and ünïcödé\n\n---\n_This description was cut at 50000 bytes\. Run `loadout submissions show 5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a` for the whole submission\._\n$/u);
    const small = renderPullRequestBody(input({ request: { notes } }), 2000);
    expect(Buffer.byteLength(small, 'utf8')).toBeLessThanOrEqual(2000);
    expect(small).toContain('was cut at 2000 bytes');
    expect(renderPullRequestBody(input())).not.toContain('was cut');
  });
});

describe('what the loadout can run, in the body', () => {
  const derive = (files: (FileEntry & { content: string })[]) => deriveCapabilities({ files, text: (p) => files.find((f) => f.path === p)?.content });
  // A hook whose command is hostile text, which a catalogue allowing hooks would publish.
  const hooked = derive([{ path: 'skills/x/SKILL.md', role: 'skill', skill: 'x', description: 'x', content: `---\nname: x\ndescription: X.\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${JSON.stringify(HOSTILE.split('\n')[0])}\n---\n\nX.\n` }]);

  it('shows each item as escaped text, what needs consent marked, and nothing of it as markup', () => {
    const body = renderPullRequestBody(input({ capabilities: hooked }));
    const section = body.slice(body.indexOf('### What it can run'), body.indexOf('### Reviewer notes'));
    expect(section).toContain(`**${escapeMarkdown('Hooks the agent runs on its events')}**`);
    expect(section).toMatch(/^- Stop in skills\/x\/SKILL\\\.md: runs .* — \*\*needs consent\*\*: runs a shell command on the agent's Stop event$/mu);
    expect(section).not.toMatch(/<script>|@octocat|#12|\[click\]\(/u);
    expect(section).toContain('@&#8203;octocat');
  });

  it('says when the checks made no list, and when the published version has none to compare with', () => {
    const none = renderPullRequestBody(input({ published: { version: '1.0.0' } }));
    expect(none).toContain('### What it can run\n\n_Not known: the checks could not read what it runs._');
    expect(none).toContain('### What it changes against 1\\.0\\.0, the published version\n\n_Not known: the catalogue publishes no capability list for that version, or the checks made none._');
    const same = renderPullRequestBody(input({ capabilities: hooked, published: { version: '1.0.0', capabilities: hooked } }));
    expect(same).toContain('the published version\n\n_No change in what it can run._');
    expect(same).not.toContain('It adds to what the loadout can run');
    const fewer = renderPullRequestBody(input({ capabilities: derive([]), published: { version: '1.0.0', capabilities: hooked } }));
    expect(fewer).toMatch(/^- − removed: gone: hook Stop in skills\/x\/SKILL\\\.md: /mu);
    expect(fewer).not.toContain('It adds to what the loadout can run');
  });
});
