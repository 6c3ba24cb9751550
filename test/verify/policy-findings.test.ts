/**
 * A maintainer's policy on the catalogue side (issue 55, point 2; verify/policy-findings.ts): what
 * it refuses of a loadout is a failing finding `policy/<rule>` of `listing`, `mcp` or `safety` on
 * the line that brings it, in `verify` (text, SARIF), `build --policy` (refused, and checked again
 * when only the policy changed) and the submissions API (stored `checks-failed`). Real catalogue
 * folders in git, the real CLI, the real submission check threads.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/parse.js';
import type { Policy } from '../../src/policy/policy.js';
import { CheckPool } from '../../src/submissions/check-pool.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';
import { POLICY_RULE_CHECKS } from '../../src/verify/policy-findings.js';
import { RULES } from '../../src/verify/rules.js';
import { sarifLogOf } from '../../src/verify/sarif.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';
import { bearer, json, startHarness, validBody } from '../submissions/harness.js';

const policy = (yaml: string): Policy => {
  const parsed = parsePolicy(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.policy;
};

const SERVERS = `{
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "kit-docs@1.2.3"] },
    "pg": { "command": "uvx", "args": ["postgres-mcp==0.3.0"] }
  }
}
`;

/** A catalogue in git with `kit` (two MCP servers and a script) and `plain`. */
function catalogue(): string {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, {
    id: 'kit',
    title: 'Kit',
    files: [...baseFiles('Kit'), { path: 'mcp/servers.json', role: 'mcp', content: SERVERS }, { path: 'skills/run/SKILL.md', role: 'skill', skill: 'run', content: '---\nname: run\ndescription: Runs the tests.\n---\n\nRun `skills/run/check.sh`.\n' }, { path: 'skills/run/check.sh', role: 'reference', skill: 'run', content: '#!/bin/sh\nnpm test\n' }],
    manifest: { requires: { tools: [], env: [], mcp: ['docs', 'pg'] }, security: { scanned: true, network: true, scripts: ['skills/run/check.sh'] } },
  });
  writeLoadout(root, { id: 'plain', title: 'Plain' });
  commitAll(root, 'two loadouts', '2026-01-10T10:00:00Z');
  return root;
}

const STRICT = 'mcp: {packages: {allow: [{npm: "kit-*"}]}}\ndeny: [scripts]\nloadouts: {deny: [plain]}\n';

describe('verify with a policy', () => {
  it('fails the checks whose subject the policy refuses, each finding on its line and named policy/<rule>; passes without it', async () => {
    const root = catalogue();
    expect((await checkCatalogue({ root }, [])).every(passed)).toBe(true);
    const runs = await checkCatalogue({ root }, [], { policy: policy(STRICT) });
    const [kit, plain] = runs;
    expect(kit?.results.find((r) => r.id === 'mcp')).toMatchObject({ status: 'fail', summary: expect.stringContaining('; 1 policy violation (policy/mcp.packages.allow)') });
    expect(kit?.results.find((r) => r.id === 'safety')).toMatchObject({ status: 'fail', summary: expect.stringContaining('; 1 policy violation (policy/deny.scripts)') });
    expect(kit?.findings?.filter((f) => f.rule.startsWith('policy/')).map((f) => `${f.check} ${f.rule} ${f.file}:${f.line ?? 0}`)).toEqual(['mcp policy/mcp.packages.allow loadouts/kit/mcp/servers.json:4', 'safety policy/deny.scripts loadouts/kit/skills/run/check.sh:1']);
    expect(kit?.findings?.find((f) => f.rule === 'policy/mcp.packages.allow')?.message).toBe('mcp.packages.allow: kit runs postgres-mcp==0.3.0 from PyPI for Claude Code, Codex, Cursor, Gemini CLI, GitHub Copilot, Antigravity, which is not allowed');
    expect(plain?.results.find((r) => r.id === 'listing')).toMatchObject({ status: 'fail' });
    expect(plain?.findings?.filter((f) => f.rule.startsWith('policy/')).map((f) => `${f.check} ${f.rule} ${f.file}:${f.line ?? 0}`)).toEqual(['listing policy/loadouts.deny loadouts/plain/loadout.yaml:1']);

    // SARIF: each a result of its rule, described.
    const log = sarifLogOf(runs, { toolVersion: '1.0.0' });
    const results = log.runs[0]?.results.filter((r) => r.ruleId.startsWith('policy/')) ?? [];
    expect(results.map((r) => `${r.ruleId} ${r.level} ${r.locations[0].physicalLocation.artifactLocation.uri}:${r.locations[0].physicalLocation.region.startLine}`)).toEqual(['policy/mcp.packages.allow error loadouts/kit/mcp/servers.json:4', 'policy/deny.scripts error loadouts/kit/skills/run/check.sh:1', 'policy/loadouts.deny error loadouts/plain/loadout.yaml:1']);
    expect(log.runs[0]?.tool.driver.rules.find((r) => r.id === 'policy/deny.scripts')?.shortDescription.text).toBe('A script, which the policy denies');
  });

  it('describes every rule the checks can report', () => {
    for (const rule of Object.keys(POLICY_RULE_CHECKS)) expect(RULES[`policy/${rule}`], rule).toBeDefined();
  });

  it('from the command line: loadout verify --policy exits 1 naming the rule', async () => {
    const root = catalogue();
    const file = join(root, 'maintainers-policy.yaml');
    (await import('node:fs')).writeFileSync(file, 'loadouts: {deny: [plain]}\n');
    const refused = await runCli(['verify', 'plain', '--policy', file], root);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('loadouts.deny: plain is denied (it matches "plain")');
    expect((await runCli(['verify', 'kit', '--policy', file], root)).code).toBe(0);
  }, 60_000);
});

describe('build --policy', () => {
  it('refuses a build with a loadout the policy refuses, checking again a catalogue whose only change is the policy', async () => {
    const root = catalogue();
    const out = join(root, 'dist');
    const first = await buildCatalogue({ root, out, baseUrl: 'http://catalogue.test' });
    expect(first.written).toBe(true);
    const refused = await buildCatalogue({ root, out, baseUrl: 'http://catalogue.test', policy: policy('deny: [scripts]') });
    expect(refused).toMatchObject({ written: false, refused: ['kit'] });
    expect(refused.runs[0]?.results.find((r) => r.id === 'safety')?.summary).toContain('policy/deny.scripts');
    const allowed = await buildCatalogue({ root, out, baseUrl: 'http://catalogue.test', policy: policy('deny: [hooks]') });
    expect(allowed).toMatchObject({ written: true, refused: [] });
  }, 120_000);
});

describe('the submissions API with the catalogue\'s policy', () => {
  const pool = new CheckPool({ budgetMs: 10_000, threads: 1, policy: policy('loadouts: {deny: ["blocked-*"]}\ndeny: [wildcard-grants]\n') });
  afterAll(() => pool.close());

  it('stores a submission that breaks it as checks-failed, its check naming the rule; one that keeps it pending-review', async () => {
    const h = await startHarness('sqlite', { checks: pool });
    const refused = await json(await h.post(validBody({ id: 'blocked-tool' }), bearer(h.key)));
    expect(refused['status']).toBe('checks-failed');
    const listing = (refused['verification'] as { checks: { id: string; status: string; summary: string; details: string[] }[] }).checks.find((c) => c.id === 'listing');
    expect(listing).toMatchObject({ status: 'fail', summary: expect.stringContaining('policy/loadouts.deny') });
    expect(listing?.details.join('\n')).toContain('loadouts.deny: blocked-tool is denied (it matches "blocked-*")');
    expect((await json(await h.post(validBody({ id: 'fine-tool' }), bearer(h.key))))['status']).toBe('pending-review');
  }, 60_000);
});
