/**
 * What a loadout's native plugin carries and where (src/layout/plugin-contents.ts): subagents
 * named after their front-matter name, and the clashes the plugin writer cannot write.
 */
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { choosePluginContents, describePluginClashes, pluginSubagentName, type LoadoutFile } from '../../src/layout/plugin-contents.js';

const file = (path: string, role: FileEntry['role'], content: string, extra: Partial<FileEntry> = {}): LoadoutFile => ({ entry: { path, role, description: 'd', ...extra }, content });
const subagent = (path: string, name: string): LoadoutFile => file(path, 'subagent', `---\nname: ${name}\ndescription: Helps.\n---\n\nHelp.\n`);

describe('the plugin file of a subagent', () => {
  it.each([
    ['agents/a/helper.md', 'a-helper', 'a-helper'],
    ['agents/helper.md', 'review_bot2', 'review_bot2'],
    // Not a slug: the file's own base name.
    ['agents/a/helper.md', 'Code Reviewer', 'helper'],
    ['agents/a/helper.md', 'Helper', 'helper'],
    ['agents/a/helper.md', '-x', 'helper'],
    ['agents/a/helper.md', '../up', 'helper'],
    ['agents/a/helper.md', 'x'.repeat(253), 'helper'],
  ])('%s named %j is agents/%s.md', (path, name, expected) => {
    const { entry, content } = subagent(path, JSON.stringify(name));
    expect(pluginSubagentName(entry, content)).toBe(expected);
    expect(choosePluginContents([{ entry, content }]).files.map((f) => f.path)).toEqual([`agents/${expected}.md`]);
  });

  it('takes the base name without front matter', () => {
    const { entry } = subagent('agents/x/plain.md', 'unused');
    expect(pluginSubagentName(entry, 'No front matter.\n')).toBe('plain');
  });
});

describe('what the plugin carries', () => {
  it('lists each carried file once with the loadout file it comes from, and the servers of every MCP file, a later one winning', () => {
    const contents = choosePluginContents([
      file('AGENTS.md', 'instructions', '# A\n'),
      file('docs/MORE.md', 'instructions', '# More\n'),
      file('skills/s/SKILL.md', 'skill', '---\nname: s\ndescription: d\n---\n', { skill: 's' }),
      file('rules/style.md', 'rules', '---\ndescription: Style\n---\n\nR.\n'),
      subagent('agents/r.md', 'reviewer'),
      file('mcp/a.json', 'mcp', '{"mcpServers":{"docs":{"command":"a"},"db":{"command":"b"}}}'),
      file('mcp/b.json', 'mcp', '{"mcpServers":{"docs":{"command":"c"}}}'),
    ]);
    expect(contents.files.map((f) => [f.path, f.from, f.source])).toEqual([
      ['AGENTS.md', 'AGENTS.md', 'AGENTS.md'],
      ['skills/s/SKILL.md', 'skills/s/SKILL.md', 'skills/s/SKILL.md'],
      // Translated: made from the rule, not a copy of it.
      ['rules/style.mdc', 'rules/style.md', undefined],
      ['agents/reviewer.md', 'agents/r.md', 'agents/r.md'],
    ]);
    expect(contents.servers).toEqual({ docs: { command: 'c' }, db: { command: 'b' } });
    expect(contents.components).toEqual({ skills: true, rules: true, agents: true, mcp: true });
    expect(contents.contextFileName).toBe('AGENTS.md');
    expect(contents.uncarried.filter((u) => u.part === 'docs/MORE.md')).toHaveLength(4);
  });
});

describe('clashes among the plugin\'s files', () => {
  it('finds two loadout files at one path, naming both', () => {
    const { files } = choosePluginContents([subagent('agents/a/helper.md', 'Not A Slug'), subagent('agents/b/helper.md', 'Not Either')]);
    expect(describePluginClashes(files)).toEqual([{ path: 'agents/helper.md', from: ['agents/a/helper.md', 'agents/b/helper.md'], message: expect.stringContaining('agents/a/helper.md and agents/b/helper.md both become agents/helper.md in the plugin') as string }]);
  });

  it('finds paths that differ only in case, and a path no file system holds', () => {
    const { files } = choosePluginContents([subagent('agents/Helper.md', 'No Slug'), subagent('agents/x/helper.md', 'No Slug Either'), file(`rules/${'r'.repeat(255)}`, 'rules', 'R.\n')]);
    const clashes = describePluginClashes(files);
    expect(clashes.map((c) => c.from)).toEqual([[`rules/${'r'.repeat(255)}`], ['agents/Helper.md', 'agents/x/helper.md']]);
    expect(clashes[0]?.message).toContain('has a segment of 259 bytes');
    expect(clashes[1]?.message).toContain('differ only in case');
  });

  it('finds none in a plugin the writer can write', () => {
    expect(describePluginClashes(choosePluginContents([subagent('agents/a/helper.md', 'a'), subagent('agents/b/helper.md', 'b')]).files)).toEqual([]);
  });
});
