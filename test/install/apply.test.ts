import { mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { applyInstallPlan } from '../../src/install/project/apply.js';
import { layoutInstall } from '../../src/layout/installed-files.js';
import { translateRule } from '../../src/layout/rule-translation.js';
import { makeTempDir } from '../helpers/temp.js';

const files: FileEntry[] = [
  { path: 'AGENTS.md', role: 'instructions', description: 'i' },
  { path: 'rules/style.md', role: 'rules', description: 'r' },
];
const bytes = new Map([
  ['AGENTS.md', Buffer.from('# A\n')],
  ['rules/style.md', Buffer.from('---\ndescription: s\n---\n')],
]);

describe('applyInstallPlan', () => {
  it('writes every planned target, and leaves identical files as they are', async () => {
    const dir = makeTempDir();
    const plan = layoutInstall({ id: 'kit', version: '1.0.0', files, text: (p) => bytes.get(p)?.toString('utf8'), rawUrl: (p) => `https://catalogue.test/raw/kit/1.0.0/${p}` }, 'cursor');
    const first = await applyInstallPlan(plan, (p) => bytes.get(p), dir);
    expect(first.written.sort()).toEqual(['.cursor/rules/style.mdc', 'AGENTS.md']);
    // Rules are written translated for the agent (rule-translation.ts).
    expect(readFileSync(join(dir, '.cursor/rules/style.mdc'), 'utf8')).toBe(translateRule('---\ndescription: s\n---\n', 'cursor'));
    const second = await applyInstallPlan(plan, (p) => bytes.get(p), dir);
    expect(second.unchanged.sort()).toEqual(['.cursor/rules/style.mdc', 'AGENTS.md']);
  });

  it('reports collisions without overwriting unless forced, and targets that cannot be written', async () => {
    const dir = makeTempDir();
    writeFileSync(join(dir, 'AGENTS.md'), '# Mine\n');
    writeFileSync(join(dir, '.cursor'), 'a file\n');
    const plan = layoutInstall({ id: 'kit', version: '1.0.0', files, text: (p) => bytes.get(p)?.toString('utf8'), rawUrl: (p) => `https://catalogue.test/raw/kit/1.0.0/${p}` }, 'cursor');
    const result = await applyInstallPlan(plan, (p) => bytes.get(p), dir);
    expect(result.collisions).toEqual([{ target: 'AGENTS.md', source: 'AGENTS.md' }]);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe('# Mine\n');
    expect(result.failures).toEqual([{ target: '.cursor/rules/style.mdc', source: 'rules/style.md', message: expect.stringContaining('a file of the project stands where a folder is needed') }]);
    const forced = await applyInstallPlan(plan, (p) => bytes.get(p), dir, { force: true });
    expect(forced.written).toContain('AGENTS.md');
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe('# A\n');
  });

  it('refuses targets outside the project or in .git, also through symbolic links, whoever planned them', async () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'p/.git'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    symlinkSync(join(dir, 'outside'), join(dir, 'p/linked'));
    const targets = ['../escape.md', '.git/hooks/pre-commit', '.GIT/config', 'linked/x.md'];
    const plan = { plan: { agent: 'codex' as const, files: targets.map((target) => ({ entry: files[0]!, target })), manual_steps: [], composed: [] }, text: () => undefined, unresolved: [] };
    const result = await applyInstallPlan(plan, (p) => bytes.get(p), join(dir, 'p'));
    expect(result.written).toEqual([]);
    expect(result.failures.map((f) => [f.target, f.message.slice(0, f.message.indexOf(' ('))])).toEqual([
      ['../escape.md', 'contains a ".." segment'],
      ['.git/hooks/pre-commit', 'is in a .git folder, which an install never writes'],
      ['.GIT/config', 'is in a .git folder, which an install never writes'],
      ['linked/x.md', `lands at ${join(realpathSync(dir), 'outside/x.md')} through the symbolic link linked, outside the project`],
    ]);
    expect(readdirSync(join(dir, 'outside'))).toEqual([]);
    expect(readdirSync(join(dir, 'p/.git'))).toEqual([]);
  });
});
