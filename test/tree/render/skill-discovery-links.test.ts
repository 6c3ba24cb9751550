import { describe, expect, it } from 'vitest';
import { discoverableSkills } from '../../../src/tree/render/skill-discovery.js';

const RAW = 'https://cat.test/raw/kit/1.0.0';
const file = (path: string, role: string, skill: string | null, content: string): { path: string; role: 'skill' | 'reference' | 'rules'; description: string; skill: string | null; content: string; raw_url: string } => ({ path, role: role as 'skill', description: path, skill, content, raw_url: `${RAW}/${path}` });

describe('skills as `npx skills add` installs them', () => {
  it('keeps links inside the skill folder and points links out of it at the pinned raw addresses', () => {
    const skillMd = '---\nname: a\ndescription: Does a.\n---\n\nRead [r](references/r.md) and [style](../../rules/style.md).\n';
    const files = [file('skills/a/SKILL.md', 'skill', 'a', skillMd), file('skills/a/references/r.md', 'reference', 'a', '# R\n'), file('rules/style.md', 'rules', null, '# Style\n')];
    const [skill] = discoverableSkills({ files } as never);
    expect(skill?.files.map((f) => [f.rel, f.rewritten])).toEqual([['SKILL.md', true], ['references/r.md', false]]);
    expect(skill?.files[0]?.content).toBe(`---\nname: a\ndescription: Does a.\n---\n\nRead [r](references/r.md) and [style](${RAW}/rules/style.md).\n`);
  });
});
