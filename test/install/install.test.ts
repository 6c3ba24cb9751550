import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { installLoadout } from '../../src/install/install.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'http://catalogue.test';
const rule = (text: string): TestFile => ({ path: 'rules/style.md', role: 'rules', content: `---\ndescription: Style\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\n---\n\n${text}\n` });

/** A built catalogue with `kit` 1.0.0 and 1.1.0; returns the catalogue root and its dist. */
async function catalogue(): Promise<{ root: string; dist: string }> {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0', files: [...baseFiles('Kit', '# Kit\n\nOne.\n'), rule('Rule one.')] });
  commitAll(root, 'kit 1.0.0');
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.1.0', files: [...baseFiles('Kit', '# Kit\n\nTwo.\n'), rule('Rule two.')] });
  commitAll(root, 'kit 1.1.0');
  const dist = join(root, 'dist');
  await buildCatalogue({ root, out: dist, baseUrl: BASE });
  return { root, dist };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('loadout install', () => {
  it('installs the latest version from a built tree and records it in the lock', async () => {
    const { dist } = await catalogue();
    const project = makeTempDir();
    const outcome = await installLoadout({ from: dist, id: 'kit', agent: 'claude-code', dir: project });
    expect(outcome).toMatchObject({ version: '1.1.0', installed: true, conflicts: [] });
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('Two.');
    expect(readFileSync(join(project, 'CLAUDE.md'), 'utf8')).toContain('@AGENTS.md');
    expect(readFileSync(join(project, '.claude/rules/style.md'), 'utf8')).toContain('Rule two.');
    expect(existsSync(join(project, 'GEMINI.md'))).toBe(false);
    const lock = JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;
    expect(lock.installs).toEqual([expect.objectContaining({ id: 'kit', agent: 'claude-code', version: '1.1.0', source: dist })]);
    expect(lock.installs[0]?.files.map((f) => f.target).sort()).toEqual(['.claude/rules/style.md', 'AGENTS.md', 'CLAUDE.md']);
  });

  it('installs a pinned older version over HTTP, Codex\'s rules composed into its AGENTS.md block', async () => {
    const { dist } = await catalogue();
    server = await listen(createApp({ distDir: dist, baseUrl: BASE, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
    const project = makeTempDir();
    const outcome = await installLoadout({ from: server.url, id: 'kit', agent: 'codex', dir: project, version: '1.0.0' });
    expect(outcome.version).toBe('1.0.0');
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('One.');
    expect(outcome.manual_steps).toEqual([]);
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('## Rule style (kit)\n\nScope: apply this rule only to files matching `**/*.ts`.\n\nRule one.\n');
    await expect(installLoadout({ from: server.url, id: 'kit', agent: 'codex', dir: project, version: '9.9.9' })).rejects.toThrow(/has no version 9\.9\.9 \(published: 1\.0\.0, 1\.1\.0\)/u);
    await expect(installLoadout({ from: server.url, id: 'nope', agent: 'codex', dir: project })).rejects.toThrow(/loadout nope is not in the catalogue/u);
  });

  it('updates files it installed, but never overwrites a file the user changed without force', async () => {
    const { dist } = await catalogue();
    const project = makeTempDir();
    await installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0' });
    // Untouched since the last install: the update replaces them.
    const update = await installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project });
    expect(update.conflicts).toEqual([]);
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('Two.');

    writeFileSync(join(project, '.cursor/rules/style.mdc'), 'my own rule\n');
    const back = await installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0' });
    expect(back.installed).toBe(false);
    expect(back.conflicts).toEqual([{ target: '.cursor/rules/style.mdc', path: 'rules/style.md' }]);
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('Two.'); // nothing was written
    expect(readFileSync(join(project, '.cursor/rules/style.mdc'), 'utf8')).toBe('my own rule\n');

    const forced = await installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project, version: '1.0.0', force: true });
    expect(forced.installed).toBe(true);
    expect(readFileSync(join(project, '.cursor/rules/style.mdc'), 'utf8')).toContain('Rule one.');
  });

  it('refuses a file that does not match its published sha256', async () => {
    const { dist } = await catalogue();
    // Same size, other bytes: the size cap of the reader lets it through, the sha256 does not.
    const raw = join(dist, 'raw/kit/1.1.0/AGENTS.md');
    writeFileSync(raw, readFileSync(raw, 'utf8').replace(/.$/su, '!'));
    const project = makeTempDir();
    await expect(installLoadout({ from: dist, id: 'kit', agent: 'codex', dir: project })).rejects.toThrow(/AGENTS\.md does not match its published sha256/u);
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(false);
  });

  it('reinstalls the locked version with frozen, and writes nothing on a dry run', async () => {
    const { dist } = await catalogue();
    const project = makeTempDir();
    await installLoadout({ from: dist, id: 'kit', agent: 'copilot', dir: project, version: '1.0.0' });
    writeFileSync(join(project, 'AGENTS.md'), readFileSync(join(dist, 'raw/kit/1.0.0/AGENTS.md')));
    const frozen = await installLoadout({ from: dist, id: 'kit', agent: 'copilot', dir: project, frozen: true });
    expect(frozen.version).toBe('1.0.0');
    await expect(installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project, frozen: true })).rejects.toThrow(/has no install of kit for cursor/u);
    const dry = await installLoadout({ from: dist, id: 'kit', agent: 'cursor', dir: project, dryRun: true });
    expect(dry.installed).toBe(false);
    expect(dry.files.map((f) => f.target)).toContain('.cursor/rules/style.mdc');
    expect(existsSync(join(project, '.cursor'))).toBe(false);
  });

  it('runs from the CLI with the documented exit codes', async () => {
    const { dist } = await catalogue();
    const project = makeTempDir();
    const ok = await runCli(['install', 'kit', '--agent', 'gemini-cli', '--from', dist, '--dir', project], project);
    expect(ok.stdout).toMatch(/installed kit 1\.1\.0 for gemini-cli from \S+: \d+ files; context: always/u);
    expect(ok.stdout).toContain('(every file per agent: --verbose)');
    expect(ok.code).toBe(0);
    // An edit of the user's inside the loadout's block of GEMINI.md stops a reinstall, with the diff.
    writeFileSync(join(project, 'GEMINI.md'), readFileSync(join(project, 'GEMINI.md'), 'utf8').replace('<!-- loadout:end kit -->', 'mine\n<!-- loadout:end kit -->'));
    const conflict = await runCli(['install', 'kit', '--agent', 'gemini-cli', '--from', dist, '--dir', project, '--version', '1.0.0'], project);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('GEMINI.md: the kit block holds edits of yours');
    expect(conflict.stderr).toContain('-mine');
    const badAgent = await runCli(['install', 'kit', '--agent', 'vim', '--from', dist], project);
    expect(badAgent.code).toBe(2);
    expect(badAgent.stderr).toContain('--agent is "vim"');
  });
});
