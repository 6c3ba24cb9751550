/**
 * `loadout import` through the real CLI in a child process: the loadout it writes passes
 * `loadout validate` and `loadout verify`; the report, `--dry-run`, `--json` and the exit codes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { listFiles, makeCatalogueRoot, writeSource } from './helpers.js';

const SKILL = '---\nname: release-notes\ndescription: Write release notes from the merged pull requests. Use when asked for a changelog.\nlicense: MIT\n---\n\n# Release notes\n\nGroup by feature, fix and chore.\n';

describe('loadout import (the CLI)', () => {
  it('writes a loadout that loadout validate and loadout verify pass, and says what is left to do', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'release-notes/SKILL.md': SKILL, 'release-notes/template.md': '# {{version}}\n' });
    const run = await runCli(['import', join(source, 'release-notes'), '--author', 'Import Test'], root);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`imported ${join(source, 'release-notes')} into loadouts/release-notes/`);
    expect(run.stdout).toMatch(/skills\/release-notes\/SKILL\.md\s+← SKILL\.md/u);
    expect(run.stdout).toContain('release-notes: ok');
    expect(run.stdout).toContain('still to do:');
    expect(run.stdout).toContain('AGENTS.md was generated');

    const validate = await runCli(['validate', 'release-notes'], root);
    expect(validate.code, validate.stderr).toBe(0);
    const verify = await runCli(['verify', 'release-notes'], root);
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toContain('release-notes: ok');
  });

  it('--dry-run --json prints the plan and writes nothing', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': SKILL });
    const run = await runCli(['import', source, '--dry-run', '--json', '--id', 'planned', '--author', 'Import Test'], root);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { id: string; written: boolean; files: { path: string; role: string; from?: string }[]; checks: { id: string; status: string }[]; todo: string[] };
    expect(result).toMatchObject({ id: 'planned', written: false });
    expect(result.files).toEqual(expect.arrayContaining([{ path: 'skills/release-notes/SKILL.md', role: 'skill', from: 'SKILL.md' }]));
    expect(result.checks.map((c) => c.id)).toEqual(['listing', 'parse', 'adapters', 'install-paths', 'mcp', 'safety', 'references', 'size', 'licence', 'starter-build']);
    expect(listFiles(root)).toEqual([]);
  });

  it('exits 1 when a check fails (the folder is written, the failure named), 1 when the folder exists, 2 for a bad id', async () => {
    const root = makeCatalogueRoot();
    const source = writeSource({ 'SKILL.md': SKILL.replace('license: MIT\n', '') });
    const failing = await runCli(['import', source, '--id', 'no-licence'], root);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('licence        FAIL');
    expect(failing.stdout).toContain('loadouts/no-licence/loadout.yaml');
    expect(existsSync(join(root, 'loadouts/no-licence/loadout.yaml'))).toBe(true);

    const again = await runCli(['import', source, '--id', 'no-licence'], root);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('loadout: loadouts/no-licence exists already; nothing was written');

    const bad = await runCli(['import', source, '--id', '../x'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--id is "../x" (expected a slug');

    const nothing = await runCli(['import', writeSource({ 'notes.txt': 'hello\n' })], root);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('found nothing to import');
    expect(nothing.stderr).toContain('hint: Point loadout import at an Agent Skills folder');
  });
});
