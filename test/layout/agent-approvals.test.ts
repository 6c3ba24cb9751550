/**
 * What each agent itself asks the user to approve (layout/agent-approvals.ts; issue 54, point 2):
 * every agent of the six has its facts, each with the https page it was read on, and an install
 * gets the prompts of what it brings (any install, its MCP servers, its skills) and no others.
 */
import { describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { AGENT_APPROVALS, agentApprovals } from '../../src/layout/agent-approvals.js';

describe('the agents\' own prompts', () => {
  it('are known for each of the six agents, each with its source', () => {
    expect(Object.keys(AGENT_APPROVALS).sort()).toEqual([...PUBLISHED_AGENTS].sort());
    for (const agent of PUBLISHED_AGENTS) {
      expect(AGENT_APPROVALS[agent].length, agent).toBeGreaterThan(0);
      for (const a of AGENT_APPROVALS[agent]) {
        expect(new URL(a.source).protocol, `${agent}: ${a.source}`).toBe('https:');
        expect(a.text, agent).toMatch(/^[A-Z].*\.$/u);
      }
    }
  });

  it('are chosen by what the install brings', () => {
    const sources = (agent: (typeof PUBLISHED_AGENTS)[number], mcp: boolean, skills: boolean): string[] => agentApprovals(agent, { mcp, skills }).map((a) => a.source);
    expect(sources('claude-code', false, false)).toEqual(['https://code.claude.com/docs/en/security']);
    expect(sources('claude-code', true, false)).toEqual(['https://code.claude.com/docs/en/security', 'https://code.claude.com/docs/en/mcp']);
    expect(sources('codex', false, true)).toEqual([]);
    expect(sources('codex', true, false)).toEqual(['https://github.com/openai/codex/pull/9533']);
    expect(sources('gemini-cli', false, true)).toEqual(['https://geminicli.com/docs/cli/trusted-folders/', 'https://geminicli.com/docs/cli/skills/']);
    expect(sources('gemini-cli', true, true)).toHaveLength(3);
    for (const agent of PUBLISHED_AGENTS) expect(agentApprovals(agent, { mcp: true, skills: true })).toEqual(AGENT_APPROVALS[agent]);
  });
});
