/**
 * Context cost (DESIGN.md section 8), checked by hand on one small loadout: every byte count
 * below is counted from the literal texts, and tokens are ceil(bytes / 4).
 */
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { estimateTokens, measureContext, measureContextForAgents, ruleAlwaysApplies } from '../../src/layout/context-cost.js';
import { resolveUserTarget } from '../../src/layout/user-layout.js';

const TEXTS: Record<string, string> = {
  // "# Tiny\n" 7 + "\n" 1 + "Run the tests.\n" 15 = 23
  'AGENTS.md': '# Tiny\n\nRun the tests.\n',
  // 11
  'CLAUDE.md': '@AGENTS.md\n',
  // "---\n" 4 + "alwaysApply: true\n" 18 + 'applyTo: "**"\n' 14 + "---\n" 4 + "\n" 1 + "Be brief.\n" 10 = 51
  'rules/all.md': '---\nalwaysApply: true\napplyTo: "**"\n---\n\nBe brief.\n',
  // 4 + "description: TS\n" 16 + 'globs: ["**/*.ts"]\n' 19 + 'applyTo: "**/*.ts"\n' 19 + 'paths: ["**/*.ts"]\n' 19 + 4 + 1 + "Use strict.\n" 12 = 94
  'rules/ts.md': '---\ndescription: TS\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\npaths: ["**/*.ts"]\n---\n\nUse strict.\n',
  // 4 + "name: fix\n" 10 + "description: Fixes bugs.\n" 25 + 4 + 1 + "Steps.\n" 7 = 51; listed: "fix" 3 + "Fixes bugs." 11 = 14
  'skills/fix/SKILL.md': '---\nname: fix\ndescription: Fixes bugs.\n---\n\nSteps.\n',
  // 6
  'skills/fix/ref.md': 'More.\n',
  // 4 + "name: helper\n" 13 + "description: Helps.\n" 20 + 4 + 1 + "Help.\n" 6 = 48; listed: "helper" 6 + "Helps." 6 = 12
  'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\n\nHelp.\n',
  // MCP configuration never counts.
  'mcp/m.json': '{"mcpServers": {"x": {"command": "x"}}}\n',
};

const FILES: FileEntry[] = [
  { path: 'AGENTS.md', role: 'instructions', description: 'd' },
  { path: 'CLAUDE.md', role: 'adapter', agent: 'claude-code', description: 'd' },
  { path: 'rules/all.md', role: 'rules', description: 'd' },
  { path: 'rules/ts.md', role: 'rules', description: 'd' },
  { path: 'skills/fix/SKILL.md', role: 'skill', skill: 'fix', description: 'd' },
  { path: 'skills/fix/ref.md', role: 'reference', skill: 'fix', description: 'd' },
  { path: 'agents/helper.md', role: 'subagent', description: 'd' },
  { path: 'mcp/m.json', role: 'mcp', description: 'd' },
];

const size = (bytes: number, tokens: number): { bytes: number; tokens: number } => ({ bytes, tokens });

describe('context cost', () => {
  it('is counted by hand for each agent', () => {
    const cost = measureContextForAgents(FILES, (p) => TEXTS[p]);
    // Rules are measured as translated for each agent (rule-translation.ts): all.md applies always,
    // ts.md is scoped by "**/*.ts" for every agent that can scope rules.
    expect(cost).toEqual({
      // all.md loses its front matter ("Be brief.\n" 10); ts.md gets paths: ["**/*.ts"] only:
      // 4 + "paths:\n" 7 + '  - "**/*.ts"\n' 14 + 4 + 1 + 12 = 42.
      // always: AGENTS 23 + CLAUDE 11 + all 10 + skill listing 14 + subagent listing 12 = 70; on demand: ts 42 + SKILL 51 + ref 6 + subagent 48 = 147
      'claude-code': { always: size(70, 18), on_demand: size(147, 37) },
      // rules are sections of AGENTS.md for Codex, read always, ts.md saying its scope in words
      // ("Scope: apply this rule only to files matching `**/*.ts`.\n\n" 58 + 12 = 70); the subagent is a custom agent (TOML):
      // always AGENTS 23 + listing 14 + all 10 + ts 70 + subagent listing 12 = 129; on demand SKILL 51 + ref 6 + subagent 48 = 105
      codex: { always: size(129, 33), on_demand: size(105, 27) },
      // all.md: 4 + "alwaysApply: true\n" 18 + 4 + 1 + 10 = 37; ts.md: 4 + "description: TS\n" 16 + 'globs: "**/*.ts"\n' 17 + "alwaysApply: false\n" 19 + 4 + 1 + 12 = 73
      // 23 + 37 + 14 + 12 = 86; 73 + 51 + 6 + 48 = 178
      cursor: { always: size(86, 22), on_demand: size(178, 45) },
      // rules are imported files, read always (as for Codex): 23 + 14 + 12 + 10 + 70 = 129; 51 + 6 + 48 = 105
      'gemini-cli': { always: size(129, 33), on_demand: size(105, 27) },
      // all.md: 4 + 'applyTo: "**"\n' 14 + 4 + 1 + 10 = 33, always; ts.md: 4 + 'applyTo: "**/*.ts"\n' 19 + 16 + 4 + 1 + 12 = 56, on demand
      // 23 + 33 + 14 + 12 = 82; 56 + 51 + 6 + 48 = 161
      copilot: { always: size(82, 21), on_demand: size(161, 41) },
      // no subagent folder; all.md: 4 + "trigger: always_on\n" 19 + 4 + 1 + 10 = 38; ts.md: 4 + "trigger: glob\n" 14 + 17 + 16 + 4 + 1 + 12 = 68
      // 23 + 38 + 14 = 75; 68 + 51 + 6 = 125
      'antigravity-cli': { always: size(75, 19), on_demand: size(125, 32) },
    });
    expect(Object.keys(cost)).toEqual([...PUBLISHED_AGENTS]);
  });

  it('estimates tokens as ceil(bytes / 4) and counts UTF-8 bytes, not characters', () => {
    expect([0, 1, 4, 5, 8].map(estimateTokens)).toEqual([0, 1, 1, 2, 2]);
    // "é" is 2 bytes, "—" 3, "🙂" 4.
    const cost = measureContext([{ path: 'AGENTS.md', role: 'instructions', description: 'd' }], 'codex', () => 'é—🙂');
    expect(cost.always).toEqual(size(9, 3));
  });

  it('follows each agent\'s rule for rules that always apply', () => {
    expect(ruleAlwaysApplies('claude-code', {})).toBe(true);
    expect(ruleAlwaysApplies('claude-code', { paths: ['**/*.ts'] })).toBe(false);
    expect(ruleAlwaysApplies('cursor', { globs: '**/*' })).toBe(false);
    expect(ruleAlwaysApplies('cursor', { alwaysApply: true })).toBe(true);
    expect(ruleAlwaysApplies('copilot', { applyTo: '**' })).toBe(true);
    expect(ruleAlwaysApplies('copilot', { applyTo: 'src/**, **/*' })).toBe(true);
    expect(ruleAlwaysApplies('copilot', { applyTo: '**/*.py' })).toBe(false);
    expect(ruleAlwaysApplies('antigravity-cli', { trigger: 'always_on' })).toBe(true);
    expect(ruleAlwaysApplies('antigravity-cli', { trigger: 'glob', alwaysApply: true })).toBe(false);
    expect(ruleAlwaysApplies('antigravity-cli', { description: 'when asked' })).toBe(false);
  });

  it('counts what the user-scope layout installs, with its own targets', () => {
    // Cursor has no user-level instructions or rules file: only the skill listing and the subagent's.
    const cost = measureContext(FILES, 'cursor', (p) => TEXTS[p], resolveUserTarget);
    expect(cost).toEqual({ always: size(14 + 12, 7), on_demand: size(51 + 6 + 48, 27) });
  });
});
