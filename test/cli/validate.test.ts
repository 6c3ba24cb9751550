import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { baseFiles, testManifest, writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

/** A catalogue with one valid loadout `good` and returns its root. */
function catalogue(): string {
  const root = makeTempDir();
  writeLoadout(root, { id: 'good' });
  return root;
}

/** Overwrites `loadouts/<id>/loadout.yaml` with `manifest`. */
function writeManifest(root: string, id: string, manifest: unknown): void {
  writeFileSync(join(root, 'loadouts', id, 'loadout.yaml'), typeof manifest === 'string' ? manifest : stringify(manifest));
}

describe('loadout validate', () => {
  it('exits 0 for a valid catalogue', async () => {
    const root = catalogue();
    const result = await runCli(['validate'], root);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('1 loadout valid');
    expect(result.code).toBe(0);
  });

  it('names the file and line of invalid YAML, and exits 1', async () => {
    const root = catalogue();
    writeManifest(root, 'good', 'id: good\ntitle: [unclosed\nversion: 1.0.0\n');
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/loadouts\/good\/loadout\.yaml:\d+: invalid YAML/);
  });

  it('reports duplicate YAML keys', async () => {
    const root = catalogue();
    writeManifest(root, 'good', 'id: good\nid: again\n');
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/loadout\.yaml:2: invalid YAML: .*unique/i);
  });

  it('reports each schema violation with its line, pointer and expectation', async () => {
    const root = catalogue();
    const manifest = testManifest({ id: 'good', files: baseFiles('Test good') });
    manifest['version'] = 'v1';
    manifest['categories'] = ['games'];
    writeManifest(root, 'good', manifest);
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    const versionLine = stringify(manifest).split('\n').findIndex((l) => l.startsWith('version:')) + 1;
    expect(result.stderr).toContain(`loadouts/good/loadout.yaml:${versionLine}: /version is "v1" (expected MAJOR.MINOR.PATCH with digits only, such as 1.0.0)`);
    expect(result.stderr).toMatch(/loadout\.yaml:\d+: \/categories\/0 is "games" \(expected one of "web-app"/);
  });

  it('reports a file that is present but not declared, and one declared but missing', async () => {
    const root = catalogue();
    writeFileSync(join(root, 'loadouts', 'good', 'NOTES.md'), 'stray\n');
    unlinkSync(join(root, 'loadouts', 'good', 'GEMINI.md'));
    const result = await runCli(['validate', '--json'], root);
    expect(result.code).toBe(1);
    const [report] = JSON.parse(result.stdout) as { id: string; valid: boolean; errors: { file: string; message: string; pointer?: string }[] }[];
    expect(report?.valid).toBe(false);
    expect(report?.errors).toContainEqual(expect.objectContaining({ file: 'loadouts/good/NOTES.md', message: expect.stringContaining('present but not declared') }));
    expect(report?.errors).toContainEqual(expect.objectContaining({ file: 'loadouts/good/loadout.yaml', pointer: '/files/2/path', message: expect.stringContaining('"GEMINI.md" is declared but not present') }));
  });

  it.each([
    ['../outside.md', /contains a "\.\." segment/],
    ['rules/../../etc/passwd', /contains a "\.\." segment/],
    ['/etc/passwd', /is absolute/],
    ['./AGENTS2.md', /contains a "\." segment/],
    ['rules\\a.md', /backslash/],
    ['rules//a.md', /empty segment/],
    ['C:/x.md', /is absolute/],
  ])('refuses the path %s', async (path, message) => {
    const root = catalogue();
    const manifest = testManifest({ id: 'good' });
    (manifest['files'] as unknown[]).push({ path, role: 'rules', description: 'bad path' });
    writeManifest(root, 'good', manifest);
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('/files/3/path');
  });

  it('refuses a path declared twice', async () => {
    const root = catalogue();
    const manifest = testManifest({ id: 'good' });
    (manifest['files'] as unknown[]).push({ path: 'AGENTS.md', role: 'rules', description: 'again' });
    writeManifest(root, 'good', manifest);
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"AGENTS.md" is declared twice');
  });

  it('refuses an id that differs from the folder', async () => {
    const root = catalogue();
    writeManifest(root, 'good', testManifest({ id: 'other' }));
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/id is "other" but the folder is "good"');
  });

  it('refuses a symbolic link in a loadout folder', async () => {
    const root = catalogue();
    symlinkSync('/etc/hostname', join(root, 'loadouts', 'good', 'link.md'));
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('loadouts/good/link.md: is a symbolic link');
  });

  it('reports a folder without loadout.yaml', async () => {
    const root = catalogue();
    unlinkSync(join(root, 'loadouts', 'good', 'loadout.yaml'));
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('loadouts/good/loadout.yaml: missing');
  });

  it('exits 2 for an unknown id and for an unknown option', async () => {
    const root = catalogue();
    const unknown = await runCli(['validate', 'nope'], root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('loadouts/nope: no such loadout');
    const option = await runCli(['validate', '--bogus'], root);
    expect(option.code).toBe(2);
  });

  it('validates only the ids named', async () => {
    const root = catalogue();
    writeLoadout(root, { id: 'broken', manifest: { version: 'x' } });
    expect((await runCli(['validate', 'good'], root)).code).toBe(0);
    expect((await runCli(['validate'], root)).code).toBe(1);
  });
});
