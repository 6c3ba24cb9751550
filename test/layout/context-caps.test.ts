import { describe, expect, it } from 'vitest';
import { checkFileCaps, checkSkillsList, CONTEXT_CAPS, describeCapWarning, skillListingSize } from '../../src/layout/context-caps.js';

describe('context caps', () => {
  it('names Codex project_doc_max_bytes past 32 KiB of AGENTS.md, by how much, and nothing at the cap', () => {
    const [warning] = checkFileCaps('codex', 'AGENTS.md', 'x'.repeat(32 * 1024 + 5));
    expect(warning).toMatchObject({ target: 'AGENTS.md', size: 32 * 1024 + 5, excess: 5, cap: { limit: 32768, unit: 'bytes', source: 'developers.openai.com/codex/guides/agents-md' } });
    expect(describeCapWarning(warning!)).toBe('AGENTS.md is 32,773 bytes for codex, 5 past 32,768 (project_doc_max_bytes (default 32 KiB; Codex reads no further); source: developers.openai.com/codex/guides/agents-md)');
    expect(checkFileCaps('codex', 'AGENTS.md', 'x'.repeat(32 * 1024))).toEqual([]);
    expect(checkFileCaps('cursor', 'AGENTS.md', 'x'.repeat(40 * 1024))).toEqual([]);
  });

  it('counts characters where the cap is in characters: Antigravity rule files, CLAUDE.md', () => {
    expect(checkFileCaps('antigravity-cli', '.agents/rules/big.md', 'é'.repeat(12_001))).toMatchObject([{ size: 12_001, excess: 1, cap: { unit: 'characters' } }]);
    expect(checkFileCaps('antigravity-cli', '.agents/rules/big.md', 'é'.repeat(12_000))).toEqual([]);
    expect(checkFileCaps('antigravity-cli', '.agents/skills/s/SKILL.md', 'é'.repeat(12_001))).toEqual([]);
    expect(checkFileCaps('claude-code', '.claude/CLAUDE.md', 'é'.repeat(40_001))[0]?.cap.unit).toBe('characters');
  });

  it('sums the names and descriptions of the skills against Codex\'s skills-list budget', () => {
    const skill = (n: number): string => `---\nname: s${n}\ndescription: ${'d'.repeat(998)}\n---\nBody that does not count.\n`;
    expect(skillListingSize(skill(1))).toBe(2 + 998);
    expect(checkSkillsList('codex', [1, 2, 3, 4, 5].map(skill))).toEqual([]);
    expect(checkSkillsList('codex', [1, 2, 3, 4, 5, 6].map(skill))).toMatchObject([{ target: 'skills list', size: 6000, excess: 560 }]);
    expect(checkSkillsList('cursor', [1, 2, 3, 4, 5, 6].map(skill))).toEqual([]);
  });

  it('gives every cap a source', () => {
    for (const cap of CONTEXT_CAPS) expect(cap.source.length, cap.name).toBeGreaterThan(10);
  });
});
