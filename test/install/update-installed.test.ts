/**
 * Issue 57, point 7: `update` said "unchanged AGENTS.md" for Codex when a rule composed into it
 * changed (the author's AGENTS.md was the same; Codex's installed AGENTS.md was not). The files of
 * an update are compared, and their diffs made, as installed for the agent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { installLoadouts } from '../../src/install/install.js';
import { updateLoadouts } from '../../src/install/update.js';
import { projectScope } from '../../src/install/project/scope.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const rule = (body: string): TestFile => ({ path: 'rules/sql-style.md', role: 'rules', content: `---\ndescription: SQL style\nalwaysApply: true\napplyTo: "**/*.sql"\npaths:\n  - "**/*.sql"\n---\n\n${body}` });
let root: string;
let dist: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-update-installed-'));
  initRepo(root);
  writeLoadout(root, { id: 'sql', title: 'SQL', version: '1.0.0', files: [...baseFiles('SQL'), rule('Use lower-case keywords.\n')] });
  commitAll(root, 'sql 1.0.0', '2026-03-01T10:00:00Z');
  writeLoadout(root, { id: 'sql', title: 'SQL', version: '1.0.1', files: [...baseFiles('SQL'), rule('Use lower-case keywords.\nName CTEs after what they hold.\n')] });
  commitAll(root, 'sql 1.0.1: one more line in the rule', '2026-03-02T10:00:00Z');
  dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  expect(built.refused, JSON.stringify(built.runs.flatMap((r) => r.diagnostics))).toEqual([]);
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('update compares the files as installed', () => {
  it('a rule composed into Codex\'s AGENTS.md changes AGENTS.md, with the rule\'s line in its diff; Claude Code\'s rule file changes too', async () => {
    const dir = makeTempDir();
    await installLoadouts({ from: dist, id: 'sql', agents: ['codex', 'claude-code'], dir, version: '1.0.0' });
    const outcome = await updateLoadouts({ scope: projectScope(dir), ids: [], dryRun: true });
    const codex = outcome.updates.find((u) => u.agent === 'codex');
    const agents = codex?.files.find((f) => f.target === 'AGENTS.md');
    expect(agents?.change).toBe('modified');
    expect(agents?.diff).toContain('+Name CTEs after what they hold.');
    expect(agents?.diff).toContain('## Rule sql-style');
    const claude = outcome.updates.find((u) => u.agent === 'claude-code');
    expect(claude?.files.find((f) => f.target === '.claude/rules/sql-style.md')).toMatchObject({ change: 'modified', diff: expect.stringContaining('+Name CTEs after what they hold.') });
    // AGENTS.md is one file for both: Codex's rule section is in it, so it changes for Claude Code's install too.
    expect(claude?.files.find((f) => f.target === 'AGENTS.md')?.change).toBe('modified');
  });

  it('for Claude Code alone, whose AGENTS.md holds no rule, AGENTS.md is unchanged and has no diff', async () => {
    const dir = makeTempDir();
    await installLoadouts({ from: dist, id: 'sql', agents: ['claude-code'], dir, version: '1.0.0' });
    const [update] = (await updateLoadouts({ scope: projectScope(dir), ids: [], dryRun: true })).updates;
    expect(update?.files.find((f) => f.target === 'AGENTS.md')).toMatchObject({ change: 'unchanged' });
    expect(update?.files.find((f) => f.target === 'AGENTS.md')?.diff).toBeUndefined();
  });
});
