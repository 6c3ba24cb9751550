/**
 * From a submission to a loadout: roles from paths, generated adapters, version 1.0.0, the
 * author, compatibility from `agents`, network use and scripts detected; and the ten checks
 * pass over a complete submission built in memory.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_AUTHOR, deriveLoadout } from '../../src/submissions/derive.js';
import { validateSubmission, type Submission } from '../../src/submissions/validate.js';
import { runChecks } from '../../src/verify/run.js';
import { validBody } from './harness.js';

function submissionOf(overrides: Record<string, unknown>): Submission {
  const result = validateSubmission(validBody(overrides));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.submission;
}

describe('deriveLoadout', () => {
  it('builds the authoring record the checks accept, from a submission with every role', async () => {
    const files = [
      { path: 'AGENTS.md', content: '# Full\n\nUse the [add-route skill](skills/add-route/SKILL.md).\n' },
      { path: 'rules/style.md', content: '---\ndescription: Style\nglobs: "**/*.ts"\napplyTo: "**/*.ts"\n---\n\nUse strict mode.\n' },
      { path: 'skills/add-route/SKILL.md', content: '---\nname: add-route\ndescription: Add a route\n---\n\nSee [the guide](references/guide.md).\n' },
      { path: 'skills/add-route/references/guide.md', content: '# Guide\n\nRoutes live in app/.\n' },
      { path: 'agents/reviewer.md', content: '---\nname: reviewer\ndescription: Reviews changes\n---\n\nReview the diff.\n' },
      { path: 'mcp/servers.json', content: '{"mcpServers": {"docs": {"type": "http", "url": "https://mcp.example.org/mcp"}}}\n' },
    ];
    const derived = deriveLoadout(submissionOf({ files, author: undefined }), '2026-11-22');
    const manifest = parse(derived.manifestText) as Record<string, unknown>;
    expect(manifest).toMatchObject({ id: 'rust-cli-helpers', version: '1.0.0', license: 'MIT', author: { name: ANONYMOUS_AUTHOR }, categories: ['workflow'], last_checked: '2026-11-22', source: { repo: 'https://github.com/ada/rust-cli' } });
    expect(manifest['security']).toEqual({ scanned: false, network: true, scripts: [] });
    expect(manifest['requires']).toEqual({ tools: [], env: [], mcp: ['docs'] });
    expect(manifest['compatibility']).toEqual({ 'claude-code': 'adapter', codex: 'native', cursor: 'native', 'gemini-cli': 'adapter', copilot: 'native' });
    expect((manifest['files'] as { path: string; role: string }[]).map((f) => `${f.path}:${f.role}`)).toEqual([
      'AGENTS.md:instructions', 'rules/style.md:rules', 'skills/add-route/SKILL.md:skill', 'skills/add-route/references/guide.md:reference', 'agents/reviewer.md:subagent', 'mcp/servers.json:mcp', 'CLAUDE.md:adapter', 'GEMINI.md:adapter',
    ]);
    const run = await runChecks(derived.source);
    expect(run.results.filter((r) => r.status === 'fail'), JSON.stringify(run.results.filter((r) => r.status === 'fail'))).toEqual([]);
    expect(derived.contentId).toMatch(/^sha256:[0-9a-f]{12}$/);
  });

  it('keeps the author given and declares no network use when there is none', () => {
    const derived = deriveLoadout(submissionOf({}), '2026-11-22');
    expect(derived.manifest.author).toEqual({ name: 'Ada Lovelace', url: 'https://example.org/ada', github: 'ada' });
    expect(derived.manifest.security.network).toBe(false);
  });
});
