/**
 * The folder a stored submission becomes (pure): the stored manifest and files, adapters in line
 * with today's generator, and nothing that could land outside `loadouts/<id>/`.
 */
import { describe, expect, it } from 'vitest';
import { generateAdapter } from '../../src/adapters/generate.js';
import { describeUnsafePath, planLoadoutFolder } from '../../src/bot/loadout-folder.js';
import { deriveLoadout } from '../../src/submissions/derive.js';
import { validateSubmission } from '../../src/submissions/validate.js';
import { validBody } from '../submissions/harness.js';

describe('the loadout folder of a stored submission', () => {
  it('writes the stored manifest and files, and regenerates an adapter the generator would write differently', () => {
    const validated = validateSubmission(validBody());
    if (!validated.ok) throw new Error('the harness body is invalid');
    const derived = deriveLoadout(validated.submission, '2026-11-22');
    const stale = derived.files.map((f) => (f.path === 'CLAUDE.md' ? { path: f.path, content: '# CLAUDE.md: from an older generator\n\n@AGENTS.md\n' } : f));

    const planned = planLoadoutFolder('rust-cli-helpers', derived.manifestText, stale);
    if (!planned.ok) throw new Error(planned.reason);
    expect(planned.folder.version).toBe('1.0.0');
    expect([...planned.folder.files.keys()].sort()).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'loadout.yaml', 'rules/errors.md']);
    expect(planned.folder.files.get('loadout.yaml')).toBe(derived.manifestText);
    expect(planned.folder.files.get('CLAUDE.md')).toBe(generateAdapter('claude-code', 'Rust CLI Helpers'));
    expect(planned.folder.files.get('AGENTS.md')).toBe(derived.files.find((f) => f.path === 'AGENTS.md')?.content);
  });

  it('refuses paths that leave the folder or that git treats specially', () => {
    for (const path of ['../x.md', 'a/../../x.md', '/abs.md', 'C:/x.md', 'a\\b.md', '.git/config', 'skills/s/.git/x', '.gitignore', 'rules/.gitattributes', 'x\u0000.md', 'loadout.yaml', '']) {
      expect(describeUnsafePath(path), path).toBeDefined();
    }
    for (const path of ['AGENTS.md', 'rules/style.md', 'skills/a/references/git.md', 'skills/a/github-notes.md']) expect(describeUnsafePath(path), path).toBeUndefined();
    expect(planLoadoutFolder('x', 'id: x\n', [{ path: 'AGENTS.md', content: 'a' }, { path: 'AGENTS.md', content: 'b' }])).toEqual({ ok: false, reason: 'file path "AGENTS.md" is stored twice (expected each path once)' });
    expect(planLoadoutFolder('a'.repeat(65), 'id: x\n', [])).toMatchObject({ ok: false, reason: expect.stringMatching(/is not a slug/u) as unknown });
  });
});
