import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateAdapter } from '../../src/adapters/generate.js';
import { runCli } from '../helpers/cli.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

describe('loadout adapters', () => {
  it('--check passes when adapters match, and fails naming the file when one differs', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'a', title: 'Alpha Stack' });
    expect((await runCli(['adapters', '--check'], root)).code).toBe(0);
    writeFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'See AGENTS.md\n');
    const result = await runCli(['adapters', '--check'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('loadouts/a/CLAUDE.md: differs from the generated adapter');
    expect(readFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'utf8')).toBe('See AGENTS.md\n');
  });

  it('rewrites a stale adapter, recreates a missing one and declares it in loadout.yaml, keeping comments', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'a', title: 'Alpha Stack' });
    const manifestPath = join(root, 'loadouts/a/loadout.yaml');
    const manifest = parse(readFileSync(manifestPath, 'utf8')) as { files: { path: string }[] };
    manifest.files = manifest.files.filter((f) => f.path !== 'GEMINI.md');
    const { stringify } = await import('yaml');
    writeFileSync(manifestPath, `# keep this comment\n${stringify(manifest)}`);
    unlinkSync(join(root, 'loadouts/a/GEMINI.md'));
    writeFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'old\n');

    const result = await runCli(['adapters', 'a'], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('updated loadouts/a/CLAUDE.md');
    expect(result.stdout).toContain('created loadouts/a/GEMINI.md');
    expect(readFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'utf8')).toBe(generateAdapter('claude-code', 'Alpha Stack'));
    expect(readFileSync(join(root, 'loadouts/a/GEMINI.md'), 'utf8')).toBe(generateAdapter('gemini-cli', 'Alpha Stack'));
    const text = readFileSync(manifestPath, 'utf8');
    expect(text.startsWith('# keep this comment\n')).toBe(true);
    expect((parse(text) as { files: { path: string; agent?: string }[] }).files).toContainEqual(expect.objectContaining({ path: 'GEMINI.md', role: 'adapter', agent: 'gemini-cli' }));
    expect((await runCli(['validate', 'a'], root)).code).toBe(0);
  });

  it('says a loadout\'s adapters are up to date when it writes nothing for it (issue 57, point 15)', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'a', title: 'Alpha Stack' });
    writeLoadout(root, { id: 'b', title: 'Beta Stack' });
    writeFileSync(join(root, 'loadouts/b/CLAUDE.md'), 'old\n');
    const result = await runCli(['adapters'], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('loadouts/a: adapters up to date\nupdated loadouts/b/CLAUDE.md\n');
    expect((await runCli(['adapters', 'b'], root)).stdout).toBe('loadouts/b: adapters up to date\n');
  });

  it('writes nothing for a loadout whose manifest is invalid, and says why', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'a', manifest: { version: 'one' } });
    writeFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'old\n');
    const result = await runCli(['adapters'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('loadout: a: loadout.yaml is not valid; adapters not written');
    expect(readFileSync(join(root, 'loadouts/a/CLAUDE.md'), 'utf8')).toBe('old\n');
  });

  it('generates an adapter that imports AGENTS.md and says AGENTS.md wins', () => {
    for (const agent of ['claude-code', 'gemini-cli'] as const) {
      const text = generateAdapter(agent, 'X Y');
      expect(text).toMatch(/^@AGENTS\.md$/mu);
      expect(text).toContain('AGENTS.md wins');
      expect(generateAdapter(agent, 'X Y')).toBe(text);
    }
  });
});

describe('loadout new', () => {
  it('scaffolds a loadout whose placeholders fail listing, naming what to fill in, and that verifies once they are filled in', async () => {
    const root = makeTempDir();
    const result = await runCli(['new', 'rust-cli'], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('`loadout adapters rust-cli`');
    const unedited = await runCli(['verify', 'rust-cli'], root);
    expect(unedited.code).toBe(1);
    for (const field of ['/author/name', '/summary', '/description']) expect(unedited.stdout + unedited.stderr).toContain(`${field} is still a placeholder that \`loadout new\` or \`loadout import\` wrote`);
    expect(unedited.stdout + unedited.stderr).toContain('expected your name');
    const path = join(root, 'loadouts/rust-cli/loadout.yaml');
    const manifest = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    Object.assign(manifest, { author: { name: 'Ada Lovelace' }, summary: 'Rust command-line tools built with clap and tested with assert_cmd.', description: 'Sets up an agent for Rust CLIs: clap for arguments, anyhow for errors, assert_cmd for tests.', highlights: ['Writes clap derive structs'] });
    const { stringify } = await import('yaml');
    writeFileSync(path, stringify(manifest));
    // The AGENTS.md it wrote is a placeholder too (issue 57, point 9: with the manifest filled in, it passed).
    const placeholder = await runCli(['verify', 'rust-cli'], root);
    expect(placeholder.code).toBe(1);
    expect(placeholder.stdout).toMatch(/^ {2}listing +FAIL +1 listing problem$/mu);
    expect(placeholder.stdout).toContain('loadouts/rust-cli/AGENTS.md:3: still holds the placeholder that `loadout new` wrote, "Write the instructions every agent should follow here…" (expected the instructions every agent should follow');
    writeFileSync(join(root, 'loadouts/rust-cli/AGENTS.md'), '# Rust Cli\n\nUse clap\'s derive API for arguments and anyhow for errors. Run `cargo test` before you commit.\n');
    expect((await runCli(['validate', 'rust-cli'], root)).code).toBe(0);
    const verify = await runCli(['verify', 'rust-cli'], root);
    expect(verify.stdout).toContain('rust-cli: ok');
    expect(verify.code).toBe(0);
  });

  it('names `loadout adapters <id>` when a changed title makes the adapters differ', async () => {
    const root = makeTempDir();
    await runCli(['new', 'rust-cli'], root);
    const path = join(root, 'loadouts/rust-cli/loadout.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('title: Rust Cli', 'title: Rust Command Lines'));
    const verify = await runCli(['verify', 'rust-cli'], root);
    expect(verify.stdout + verify.stderr).toContain('differs from the generated adapter');
    expect(verify.stdout + verify.stderr).toContain('`loadout adapters rust-cli`');
  });

  it('refuses an id that is not a slug (exit 2) and an existing folder (exit 1) without writing', async () => {
    const root = makeTempDir();
    const bad = await runCli(['new', 'Rust_CLI'], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('id "Rust_CLI" is not a slug');
    writeLoadout(root, { id: 'taken' });
    const before = readFileSync(join(root, 'loadouts/taken/AGENTS.md'), 'utf8');
    const taken = await runCli(['new', 'taken'], root);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('loadouts/taken exists already');
    expect(readFileSync(join(root, 'loadouts/taken/AGENTS.md'), 'utf8')).toBe(before);
  });
});
