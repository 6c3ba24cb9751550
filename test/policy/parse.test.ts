/**
 * Reading a policy's text (policy/parse.ts): every problem named by its line and column (the
 * node it is about, the key for an unknown key), YAML's own errors where the `yaml` library puts
 * them, a version that is no semver range, and the policy read as its types say.
 */
import { describe, expect, it } from 'vitest';
import { formatPolicyProblems, parsePolicy, type PolicyProblem } from '../../src/policy/parse.js';

const problemsOf = (text: string): PolicyProblem[] => {
  const parsed = parsePolicy(text);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
};

describe('parsePolicy', () => {
  it('reads every rule into the policy', () => {
    const parsed = parsePolicy(
      [
        'catalogues: [https://c.example]',
        'loadouts: {allow: ["dbt-*"], deny: [dbt-old]}',
        'agents: [claude-code]',
        'mcp:',
        '  packages:',
        '    allow:',
        '      - npm: "@modelcontextprotocol/*"',
        '      - pypi: postgres-mcp',
        '        version: ">=0.3 <1"',
        '  hosts: {allow: ["*.example.com"]}',
        '  require_pinned: true',
        'deny: [hooks, scripts]',
        // A key id of digits alone would be a number: quoted.
        `signing: {require: true, keys: ["${'0'.repeat(64)}"]}`,
        'min_release_age: 7d',
        'exceptions:',
        '  - {loadout: kit, version: 1.2.0, reason: a fix}',
        '',
      ].join('\n'),
    );
    expect(parsed).toEqual({
      ok: true,
      policy: {
        catalogues: ['https://c.example'],
        loadouts: { allow: ['dbt-*'], deny: ['dbt-old'] },
        agents: ['claude-code'],
        mcp: { packages: { allow: [{ registry: 'npm', name: '@modelcontextprotocol/*' }, { registry: 'pypi', name: 'postgres-mcp', version: '>=0.3 <1' }] }, hosts: { allow: ['*.example.com'] }, require_pinned: true },
        deny: ['hooks', 'scripts'],
        signing: { require: true, keys: ['0'.repeat(64)] },
        min_release_age: '7d',
        exceptions: [{ loadout: 'kit', version: '1.2.0', reason: 'a fix' }],
      },
    });
    expect(parsePolicy('{}\n')).toEqual({ ok: true, policy: {} });
    // JSON is YAML: a policy may be written as JSON.
    expect(parsePolicy('{"deny": ["hooks"]}')).toEqual({ ok: true, policy: { deny: ['hooks'] } });
  });

  it('names the line and column of each value the schema refuses, in document order', () => {
    const text = ['agents: [claude-code, vim]', 'mcp:', '  require_pinned: yes', '  hosts:', '    allow: ["a b"]', 'min_release_age: 7 days', 'typo_rule: 1', ''].join('\n');
    expect(formatPolicyProblems('p.yaml', problemsOf(text))).toBe(
      [
        'p.yaml:1:23: agents[1] is "vim" (expected an agent id: claude-code, codex, cursor, gemini-cli, copilot, antigravity-cli)',
        'p.yaml:3:19: mcp.require_pinned is "yes" (expected true or false)',
        'p.yaml:5:13: mcp.hosts.allow[0] is "a b" (expected a host or host glob without spaces or /, such as *.example.com)',
        'p.yaml:6:18: min_release_age is "7 days" (expected an age in hours, days or weeks, such as 12h, 7d or 2w)',
        'p.yaml:7:1: the policy has the unknown key "typo_rule" (expected one of $schema, catalogues, loadouts, agents, mcp, deny, signing, min_release_age, exceptions)',
      ].join('\n'),
    );
  });

  it('points at the key of a rule left empty or missing a required part, and counts columns in characters', () => {
    expect(problemsOf('signing:\n  keys: []\n')).toEqual([
      { line: 1, column: 1, pointer: '/signing', message: 'signing has no require (expected a mapping with require and keys)' },
      { line: 2, column: 9, pointer: '/signing/keys', message: 'signing.keys is [] (expected at least 1 of signing key ids)' },
    ]);
    expect(problemsOf('loadouts:\n')).toEqual([{ line: 1, column: 1, pointer: '/loadouts', message: 'loadouts is null (expected a mapping with allow and deny)' }]);
    // "é" and "😀" are one column each.
    expect(problemsOf('loadouts: {allow: [é, 😀, Kit]}\n').map((p) => `${p.line}:${p.column}`)).toEqual(['1:20', '1:23', '1:26']);
  });

  it('gives YAML\'s own errors (syntax, a duplicate key, an alias bomb) with their lines, and nothing else', () => {
    // An unclosed list is found where the text ends.
    expect(problemsOf('deny: [hooks\n')).toEqual([expect.objectContaining({ line: 2, column: 1, message: expect.stringMatching(/flow sequence/iu) })]);
    const duplicate = problemsOf('deny: [hooks]\nagents: [codex]\ndeny: [scripts]\n');
    expect(duplicate).toHaveLength(1);
    expect(duplicate[0]).toMatchObject({ line: 3, column: 1, message: expect.stringMatching(/unique/iu) });
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    expect(problemsOf(bomb)[0]?.message).toMatch(/alias/iu);
    expect(problemsOf('')[0]).toMatchObject({ line: 1, column: 1, message: 'the policy is null (expected a mapping of policy rules (docs/policy.md))' });
  });

  it('refuses a package version that is no semver range, once the schema accepts the policy', () => {
    expect(problemsOf('mcp:\n  packages:\n    allow:\n      - npm: kit-docs\n        version: "not a range"\n')).toEqual([
      { line: 5, column: 18, pointer: '/mcp/packages/allow/0/version', message: 'mcp.packages.allow[0].version "not a range" is not a semver range (expected a semver range such as ^1.2, ~2.1.0, >=1 <3 or 1.4.0)' },
    ]);
    // An OCI version is a glob of tags and digests, not a range.
    expect(parsePolicy('mcp: {packages: {allow: [{oci: ghcr.io/a/b, version: "sha256:*"}]}}').ok).toBe(true);
  });
});
