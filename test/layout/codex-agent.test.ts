/**
 * A subagent as Codex's custom-agent TOML (developers.openai.com/codex/subagents): `name`,
 * `description` and `developer_instructions` from the Markdown's front matter and body, read
 * back with a TOML parser whatever the body holds.
 */
import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { readFrontMatterForInstall } from '../../src/catalogue/front-matter-data.js';
import { codexAgentToml } from '../../src/layout/codex-agent.js';
import { installedBytes, installedText } from '../../src/layout/rule-translation.js';

const AGENT = '---\nname: security-reviewer\ndescription: Reviews a change for "secrets" and injection.\ntools: Read, Grep\nmodel: opus\n---\n\n# Security reviewer\n\nCheck [the rules](../rules/sql.md).\n';

describe('a subagent for Codex', () => {
  it('becomes a custom agent: name, description and the body as developer_instructions, in a literal string a person can edit', () => {
    const toml = codexAgentToml(AGENT) ?? '';
    expect(toml.startsWith('name = "security-reviewer"\n')).toBe(true);
    expect(toml.endsWith(`developer_instructions = '''\n# Security reviewer\n\nCheck [the rules](../rules/sql.md).\n'''\n`)).toBe(true);
    expect(parse(toml)).toEqual({ name: 'security-reviewer', description: 'Reviews a change for "secrets" and injection.', developer_instructions: '# Security reviewer\n\nCheck [the rules](../rules/sql.md).\n' });
    expect(installedText('subagent', 'codex', AGENT)).toBe(toml);
    expect(Buffer.from(installedBytes('subagent', 'codex', Buffer.from(AGENT))).toString()).toBe(toml);
  });

  it('is left as it is for every other agent, and when its front matter lacks a name or a description', () => {
    expect(installedText('subagent', 'claude-code', AGENT)).toBe(AGENT);
    expect(codexAgentToml('---\nname: x\n---\n\nBody.\n')).toBeUndefined();
    expect(codexAgentToml('No front matter.\n')).toBeUndefined();
    expect(installedText('subagent', 'codex', 'No front matter.\n')).toBe('No front matter.\n');
  });

  it('reads back to the same values for any body, falling back to an escaped string where a literal one cannot hold it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom("'''", '"""', '\\', '\r\n', '\u0007', ''), (body, tricky) => {
        const text = `---\nname: a\ndescription: b\n---\n\n${body}${tricky}\n`;
        const toml = codexAgentToml(text);
        if (toml === undefined) return; // a body that ends the front matter early, say: not a custom agent
        const value = parse(toml) as Record<string, unknown>;
        expect(Object.keys(value).sort()).toEqual(['description', 'developer_instructions', 'name']);
        expect(value['name']).toBe('a');
        expect(value['developer_instructions']).toBe(readFrontMatterForInstall(text).body.replace(/^(?:\r?\n)+/u, ''));
      }),
      { numRuns: 300 },
    );
  });
});
