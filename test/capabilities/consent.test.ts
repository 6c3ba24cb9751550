/** The one consent rule (capabilities/consent.ts): which grants, modes, keys and hooks need the user's yes. */
import { describe, expect, it } from 'vitest';
import { findAutoApprovals, isWildcardGrant, permissionModeConsent, splitToolGrants, toolGrantConsent, withoutAutoApprovals } from '../../src/capabilities/consent.js';

describe('the consent rule', () => {
  it('splits grants as Claude Code writes them, keeping specifiers whole', () => {
    expect(splitToolGrants('Read, Grep Bash(git status:*), Bash(npm run test *)')).toEqual(['Read', 'Grep', 'Bash(git status:*)', 'Bash(npm run test *)']);
    expect(splitToolGrants(['Read', 'Bash(*)', null])).toEqual(['Read', 'Bash(*)']);
    expect(splitToolGrants(undefined)).toEqual([]);
  });

  it.each([
    ['*', true], ['mcp__*', true], ['Bash', true], ['bash', true], ['Bash(*)', true], ['Bash(:*)', true], ['Bash( * )', true], ['run_shell_command', true], ['shell', true], ['PowerShell', true],
    ['Bash(git status:*)', false], ['Bash(npm run test:*)', false], ['Read', false], ['Edit', false], ['WebFetch(domain:example.com)', false], ['mcp__github__get_issue', false],
  ] as [string, boolean][])('%s is a wildcard grant: %s', (grant, wild) => {
    expect(isWildcardGrant(grant)).toBe(wild);
  });

  it('asks for consent for a wildcard among narrow grants, naming it, and not for narrow ones alone', () => {
    expect(toolGrantConsent(['Read', 'Bash'])).toContain('allowed-tools grants "Bash"');
    expect(toolGrantConsent(['Read', 'Bash(git log:*)'])).toBeNull();
  });

  it('leaves default and plan to the user, and asks for every other permission mode', () => {
    expect(permissionModeConsent('default')).toBeNull();
    expect(permissionModeConsent('plan')).toBeNull();
    for (const mode of ['acceptEdits', 'dontAsk', 'bypassPermissions', 'auto', 'anything']) expect(permissionModeConsent(mode)).toContain(mode);
  });

  it('finds every auto-approval key of a server, and a plugin keeps the rest of the server', () => {
    const server = { command: 'npx', trust: true, autoApprove: ['*'], alwaysAllow: [], default_tools_approval_mode: 'approve', tools: { run: { approval_mode: 'auto', enabled: true }, read: { approval_mode: 'prompt' } } };
    expect(findAutoApprovals(server).map((a) => `${a.key}=${a.value}`)).toEqual(['trust=true', 'default_tools_approval_mode="approve"', 'autoApprove=["*"]', 'tools.run.approval_mode="auto"']);
    expect(withoutAutoApprovals(server)).toEqual({ command: 'npx', alwaysAllow: [], tools: { run: { enabled: true }, read: { approval_mode: 'prompt' } } });
    expect(findAutoApprovals({ command: 'x', trust: false, default_tools_approval_mode: 'prompt' })).toEqual([]);
  });
});
