/**
 * Rules translated per agent (`src/layout/rule-translation.ts`): each agent gets the scoping
 * keys it reads and only those, a rule scoped for one agent is scoped for every agent that can
 * scope rules, and the body is never changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFrontMatter } from '../../src/catalogue/front-matter.js';
import { PUBLISHED_AGENTS, type Agent } from '../../src/catalogue/vocabulary.js';
import { ruleAlwaysApplies } from '../../src/layout/context-cost.js';
import { installedBytes, readRuleScope, SCOPING_KEYS, translateRule, translateRuleFor } from '../../src/layout/rule-translation.js';

/** The keys each agent reads (the table of rule-translation.ts). */
const READS: Record<Agent, string[]> = {
  cursor: ['description', 'globs', 'alwaysApply'],
  copilot: ['applyTo', 'description', 'excludeAgent'],
  'claude-code': ['paths'],
  'antigravity-cli': ['trigger', 'globs', 'description'],
  codex: [],
  'gemini-cli': [],
};
const SCOPING: Agent[] = ['cursor', 'copilot', 'claude-code', 'antigravity-cli'];

const keysOf = (text: string): string[] => Object.keys(readFrontMatter(text).data);

describe('translateRule', () => {
  const cursorRule = '---\ndescription: API style\nglobs: src/api/**/*.ts, src/routes/*.ts\nalwaysApply: false\nowner: team-api\n---\n\n# API\n\nReturn problem+json.\n';

  it('writes a Cursor rule for each agent with its keys only, keeping other keys and the body', () => {
    expect(translateRule(cursorRule, 'claude-code')).toBe('---\npaths:\n  - src/api/**/*.ts\n  - src/routes/*.ts\nowner: team-api\n---\n\n# API\n\nReturn problem+json.\n');
    expect(translateRule(cursorRule, 'copilot')).toBe('---\napplyTo: src/api/**/*.ts,src/routes/*.ts\ndescription: API style\nowner: team-api\n---\n\n# API\n\nReturn problem+json.\n');
    expect(translateRule(cursorRule, 'cursor')).toBe('---\ndescription: API style\nglobs: src/api/**/*.ts,src/routes/*.ts\nalwaysApply: false\nowner: team-api\n---\n\n# API\n\nReturn problem+json.\n');
    expect(translateRule(cursorRule, 'antigravity-cli')).toBe('---\ntrigger: glob\nglobs: src/api/**/*.ts,src/routes/*.ts\ndescription: API style\nowner: team-api\n---\n\n# API\n\nReturn problem+json.\n');
    // Codex and Gemini CLI read every rule: the scope is said in the first line.
    const said = 'Scope: apply this rule only to files matching `src/api/**/*.ts`, `src/routes/*.ts`.';
    expect(translateRule(cursorRule, 'codex')).toBe(`---\nowner: team-api\n---\n\n${said}\n\n# API\n\nReturn problem+json.\n`);
    expect(translateRule(cursorRule, 'gemini-cli')).toBe(translateRule(cursorRule, 'codex'));
    expect(translateRule('---\ndescription: When writing SQL\n---\nBody.\n', 'codex')).toBe('Scope: apply this rule only when it is relevant: When writing SQL\n\nBody.\n');
    expect(translateRule('---\ntrigger: manual\n---\nBody.\n', 'gemini-cli')).toBe('Scope: apply this rule only when the user asks for it.\n\nBody.\n');
    expect(translateRule('---\nalwaysApply: true\n---\nBody.\n', 'codex')).toBe('Body.\n');
  });

  it('answers the same for a text asked again, before and after hundreds of other texts', () => {
    const first = PUBLISHED_AGENTS.map((agent) => translateRule(cursorRule, agent));
    for (let n = 0; n < 600; n++) translateRule(`---\nglobs: src/${n}/**\n---\nRule ${n}.\n`, 'claude-code');
    expect(translateRule('---\nglobs: src/7/**\n---\nRule 7.\n', 'claude-code')).toBe('---\npaths:\n  - src/7/**\n---\nRule 7.\n');
    expect(PUBLISHED_AGENTS.map((agent) => translateRule(cursorRule, agent))).toEqual(first);
  });

  it('reads Claude Code paths and Copilot applyTo as globs too', () => {
    expect(translateRule('---\npaths:\n  - "**/*.py"\n---\nBody.\n', 'cursor')).toBe('---\nglobs: "**/*.py"\nalwaysApply: false\n---\nBody.\n');
    expect(translateRule('---\napplyTo: "**/*.py,docs/**"\nexcludeAgent: code-review\n---\nBody.\n', 'claude-code')).toBe('---\npaths:\n  - "**/*.py"\n  - docs/**\n---\nBody.\n');
    expect(translateRule('---\napplyTo: "**/*.py"\nexcludeAgent: code-review\n---\nBody.\n', 'copilot')).toBe('---\napplyTo: "**/*.py"\nexcludeAgent: code-review\n---\nBody.\n');
  });

  it('makes an unscoped rule apply always, and drops front matter Claude Code would not need', () => {
    expect(translateRule('# Always\n', 'cursor')).toBe('---\nalwaysApply: true\n---\n\n# Always\n');
    expect(translateRule('# Always\n', 'copilot')).toBe('---\napplyTo: "**"\n---\n\n# Always\n');
    expect(translateRule('# Always\n', 'claude-code')).toBe('# Always\n');
    expect(translateRule('---\nalwaysApply: true\napplyTo: "**"\n---\n\n# Always\n', 'claude-code')).toBe('# Always\n');
    expect(translateRule('---\ntrigger: always_on\n---\n\n# Always\n', 'antigravity-cli')).toBe('---\ntrigger: always_on\n---\n\n# Always\n');
  });

  it('keeps description-only and manual rules as such where the agent has the mode', () => {
    const described = '---\ndescription: Use for migrations\n---\nBody.\n';
    expect(readRuleScope(readFrontMatter(described).data).mode).toBe('description');
    expect(translateRule(described, 'antigravity-cli')).toBe('---\ntrigger: model_decision\ndescription: Use for migrations\n---\nBody.\n');
    expect(translateRule(described, 'copilot')).toBe('---\ndescription: Use for migrations\n---\nBody.\n');
    expect(translateRule('---\ntrigger: manual\n---\nBody.\n', 'cursor')).toBe('---\nalwaysApply: false\n---\nBody.\n');
  });

  it('leaves a file whose front matter does not parse as it is', () => {
    const broken = '---\nglobs: [unclosed\n---\nBody.\n';
    expect(translateRule(broken, 'claude-code')).toBe(broken);
  });

  it('translates only UTF-8 rules when installing bytes', () => {
    const latin1 = new Uint8Array([0x23, 0x20, 0xe9, 0x0a]);
    expect(installedBytes('rules', 'cursor', latin1)).toBe(latin1);
    const skill = new TextEncoder().encode('# Skill\n');
    expect(installedBytes('skill', 'cursor', skill)).toBe(skill);
    expect(new TextDecoder().decode(installedBytes('rules', 'cursor', new TextEncoder().encode('# R\n')))).toBe('---\nalwaysApply: true\n---\n\n# R\n');
  });
});

describe('translateRule, by property', () => {
  const glob = fc.constantFrom('src/**/*.ts', '**/*.py', 'docs/*.md', 'app/api/**', 'tests/**/*.test.ts', 'Makefile');
  const scopingFrontMatter = fc.record(
    {
      description: fc.constantFrom('Style', 'When touching the API'),
      globs: fc.oneof(fc.uniqueArray(glob, { minLength: 1, maxLength: 3 }), fc.uniqueArray(glob, { minLength: 1, maxLength: 3 }).map((g) => g.join(', '))),
      applyTo: fc.uniqueArray(glob, { minLength: 1, maxLength: 3 }).map((g) => g.join(',')),
      paths: fc.uniqueArray(glob, { minLength: 1, maxLength: 3 }),
      alwaysApply: fc.boolean(),
      owner: fc.constantFrom('team-a', 'team-b'),
    },
    { requiredKeys: [] },
  );
  const body = fc.constantFrom('\n# Rule\n\nDo it.\n', 'Body without a heading.\n', '\n---\n\nA thematic break above.\n');
  const rule = fc.tuple(scopingFrontMatter, body).map(([data, text]) => (Object.keys(data).length === 0 ? text : `---\n${JSON.stringify(data)}\n---\n${text}`));

  it('gives each agent only the keys it reads, keeps the body, and is idempotent', () => {
    fc.assert(
      fc.property(rule, fc.constantFrom(...PUBLISHED_AGENTS), (text, agent) => {
        const out = translateRule(text, agent);
        const keys = keysOf(out).filter((k) => SCOPING_KEYS.includes(k));
        expect(keys.every((k) => READS[agent].includes(k)), `${agent}: ${keys.join(', ')}`).toBe(true);
        expect(out.endsWith(readFrontMatter(text).body.replace(/^\n/u, ''))).toBe(true);
        // Copilot's manual mode is a file without `applyTo`, and an author's rule without scoping
        // keys applies everywhere: a manual rule translated for Copilot carries none of Copilot's
        // keys, so translating that file again reads it as the author's unscoped rule. Every other
        // translation is a fixed point (found by this property: ["---\n{\"alwaysApply\":false}\n---\n\n# Rule\n\nDo it.\n", "copilot"]).
        const copilotManual = agent === 'copilot' && readRuleScope(readFrontMatter(text).data).mode === 'manual';
        if (!copilotManual) expect(translateRule(out, agent)).toBe(out);
      }),
      { numRuns: 300 },
    );
  });

  it('hands back, beside the translated text, the front matter that parsing that text gives', () => {
    const other = fc.dictionary(fc.constantFrom('tags', 'version', 'note'), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 3 })), { maxKeys: 2 });
    const withOthers = fc.tuple(rule, other).map(([text, extra]) => (Object.keys(extra).length === 0 || !text.startsWith('---\n') ? text : text.replace('---\n{', () => `---\n${JSON.stringify(extra).slice(0, -1)}${text.startsWith('---\n{}') ? '' : ','}`)));
    fc.assert(
      fc.property(withOthers, fc.constantFrom(...PUBLISHED_AGENTS), (text, agent) => {
        const translated = translateRuleFor(text, agent);
        expect(translated.text).toBe(translateRule(text, agent));
        // A function replacer above: a generated string such as "$'" is text, not a pattern.
        const parsed = readFrontMatter(translated.text);
        expect(parsed.errors).toEqual([]);
        expect(translated.data).toEqual(parsed.data);
        expect(Object.isFrozen(translated.data)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a blank line in front of a body that opens with a thematic break when no front matter is left', () => {
    const text = '---\nalwaysApply: false\n---\n\n---\n\nA thematic break above.\n';
    const out = translateRuleFor(text, 'claude-code');
    expect(out.text).toBe('\n---\n\nA thematic break above.\n');
    expect(readFrontMatter(out.text).present).toBe(false);
    expect(translateRule(out.text, 'claude-code')).toBe(out.text);
  });

  it('hands back no front matter, and the text as it was, when the rule\'s own does not parse', () => {
    const broken = '---\nglobs: [unclosed\n---\n# Rule\n';
    for (const agent of PUBLISHED_AGENTS) expect(translateRuleFor(broken, agent)).toEqual({ text: broken, data: undefined });
  });

  it('scopes a rule for every agent that can scope rules when it is scoped for one, and after a round trip', () => {
    fc.assert(
      fc.property(rule, fc.constantFrom(...SCOPING), fc.constantFrom(...SCOPING), (text, first, second) => {
        const scope = readRuleScope(readFrontMatter(text).data);
        const once = translateRule(text, first);
        const again = readRuleScope(readFrontMatter(translateRule(once, second)).data);
        if (scope.mode === 'globs') {
          for (const agent of SCOPING) expect(ruleAlwaysApplies(agent, readFrontMatter(translateRule(text, agent)).data), agent).toBe(false);
          expect(again).toMatchObject({ mode: 'globs', globs: scope.globs });
        }
        if (scope.mode === 'always') {
          for (const agent of SCOPING) expect(ruleAlwaysApplies(agent, readFrontMatter(translateRule(text, agent)).data), agent).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
