/**
 * What a newcomer tripped on (issue 36), tried on the consumer CLI as a consumer runs it: the
 * package packed from source, run through `npx --package=<tarball>` (test/helpers/packed-cli.ts),
 * against the life-cycle catalogue (`kit` 1.0.0 and 1.1.0) as a built tree and served on
 * 127.0.0.1. Where the repository's own CLI shares the rule, it is run too.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { readSigningKey, type SigningKey } from '../../src/tree-format/signing/keys.js';
import { runCli } from '../helpers/cli.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, git, initRepo, makeTempDir } from '../helpers/temp.js';
import { serveCatalogue } from '../install/lifecycle-fixture.js';
import { useTarballFixture } from './tarball-fixture.js';

const fixture = useTarballFixture();

const lockOf = (project: string): { installs: { id: string; version: string; source: string }[] } => JSON.parse(readFileSync(join(project, 'loadout.lock.json'), 'utf8'));

describe('--version (point 1)', () => {
  it('after a command is that command\'s option, in the bundle: install --version 1.0.0 installs 1.0.0', async () => {
    const project = makeTempDir();
    const result = await fixture.cli.run(['install', 'kit', '--agent', 'claude-code', '--from', fixture.catalogue.dist, '--version', '1.0.0'], project);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('installed kit 1.0.0 for claude-code');
    expect(lockOf(project).installs.map((i) => [i.id, i.version])).toEqual([['kit', '1.0.0']]);
    const missing = await fixture.cli.run(['install', 'kit', '--agent', 'claude-code', '--from', fixture.catalogue.dist, '--version', '9.9.9'], makeTempDir());
    expect(missing.code).toBe(1);
    expect(missing.stdout).not.toContain(fixture.cli.version);
  }, 60_000);

  it('before any command prints the version, in both CLIs, and the help lists it', async () => {
    const cwd = makeTempDir();
    expect((await fixture.cli.run(['--version'], cwd)).stdout).toBe(`${fixture.cli.version}\n`);
    expect((await fixture.cli.run(['-V'], cwd)).stdout).toBe(`${fixture.cli.version}\n`);
    expect((await fixture.cli.run(['--help'], cwd)).stdout).toMatch(/-V, --version +print the version number/u);
    const own = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect((await runCli(['--version'], cwd)).stdout).toBe(`${own}\n`);
    expect((await runCli(['--root', cwd, '--version'], cwd)).stdout).toBe(`${own}\n`);
  }, 60_000);

  it('after a command is that command\'s option in the repository\'s CLI too', async () => {
    const project = makeTempDir();
    const result = await runCli(['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist, '--version', '1.0.0'], project);
    expect(result.code).toBe(0);
    expect(lockOf(project).installs.map((i) => i.version)).toEqual(['1.0.0']);
  }, 60_000);
});

describe('typos that used to pass (points 4, 5; issue 35 point 11)', () => {
  it('a --dir that does not exist is a usage error naming it, for every command, and nothing is created', async () => {
    const cwd = makeTempDir();
    const nope = join(cwd, 'nope');
    for (const args of [
      ['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist],
      ['status'],
      ['outdated'],
      ['update'],
      ['uninstall', 'kit'],
    ]) {
      const result = await fixture.cli.run([...args, '--dir', nope], cwd);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`loadout: --dir ${nope}: no such folder`);
    }
    expect(existsSync(nope)).toBe(false);
  }, 60_000);

  it('status of a folder with nothing installed says so and exits 1, unless --allow-empty', async () => {
    const project = makeTempDir();
    const bare = await fixture.cli.run(['status'], project);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(`loadout: nothing installed: there is no ${join(project, 'loadout.lock.json')}`);
    expect(bare.stderr).toContain('--allow-empty');
    expect((await fixture.cli.run(['status', '--json'], project)).code).toBe(1);
    const allowed = await fixture.cli.run(['status', '--allow-empty'], project);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('nothing installed');
  }, 60_000);

  it('an upper-case scheme is a URL, recorded in lower case in the lock, and update and outdated then read it', async () => {
    const base = await serveCatalogue(fixture.catalogue.dist);
    const project = makeTempDir();
    const shouted = base.replace(/^http:/u, 'HTTP:');
    const install = await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', shouted, '--version', '1.0.0'], project);
    expect(install.code).toBe(0);
    expect(lockOf(project).installs.map((i) => i.source)).toEqual([base]);
    const outdated = await fixture.cli.run(['outdated'], project);
    expect(outdated.code).toBe(1);
    expect(outdated.stdout).toMatch(/kit +cursor +1\.0\.0 +1\.1\.0 +outdated/u);
    const update = await fixture.cli.run(['update', '--accept-capabilities'], project);
    expect(update.code).toBe(0);
    expect(lockOf(project).installs.map((i) => [i.version, i.source])).toEqual([['1.1.0', base]]);
  }, 60_000);

  it('https:// to a plain-HTTP port says so in one sentence and suggests http://', async () => {
    const base = await serveCatalogue(fixture.catalogue.dist);
    const result = await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', base.replace(/^http:/u, 'https:')], makeTempDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('does not answer in HTTPS (TLS) on that port');
    expect(result.stderr).toContain('write --from with http:// instead of https://');
    expect(result.stderr).not.toContain('ssl3_get_record');
  }, 60_000);

  it('a mistyped agent gets the nearest agent', async () => {
    const result = await fixture.cli.run(['install', 'kit', '--agent', 'cursr', '--from', fixture.catalogue.dist], makeTempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('loadout: hint: Did you mean cursor?');
  }, 60_000);
});

describe('messages for the person who ran the command (points 6, 7, 8, 9, 12)', () => {
  it('without --from, in a project with no catalogue: there is no catalogue at ./dist, name one with --from <url>', async () => {
    const project = makeTempDir();
    for (const args of [['install', 'kit', '--agent', 'cursor'], ['search', 'kit'], ['search', 'kit', '--from', join(project, 'nonexistent')]]) {
      const result = await fixture.cli.run(args, project);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/loadout: there is no catalogue at (\.\/dist|\/\S+\/nonexistent): no such folder/u);
      expect(result.stderr).toContain('--from <url>');
      expect(result.stderr).not.toMatch(/Check the id|loadout build/u);
    }
  }, 60_000);

  it('hints name the command as the user ran it (npx of the tarball), and an edited shared file counts once', async () => {
    const project = makeTempDir();
    expect((await fixture.cli.run(['install', 'kit', '--agent', 'claude-code,cursor', '--from', fixture.catalogue.dist, '--version', '1.0.0'], project)).code).toBe(0);
    const ran = `npx -y --package=${fixture.cli.tarball} -- loadout`;
    expect((await fixture.cli.run(['status'], project)).stdout).toMatch(/^ok: \d+ files as installed$/mu);
    writeFileSync(join(project, 'AGENTS.md'), readFileSync(join(project, 'AGENTS.md'), 'utf8').replace('Version one.', 'Version one, edited.'));
    const status = await fixture.cli.run(['status'], project);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`1 file changed or missing: \`${ran} install --force\` restores them`);
    const outdated = await fixture.cli.run(['outdated'], project);
    expect(outdated.stdout).toContain(`2 outdated: \`${ran} update\` shows what changes`);
    const unknown = await fixture.cli.run(['install', 'nextjs-app-router', '--agent', 'cursor', '--from', fixture.catalogue.dist], project);
    expect(unknown.stderr).toContain(`\`${ran} search <words> --from <catalogue>\``);
  }, 60_000);

  it('an unknown command is reported as loadout:, like every other error', async () => {
    const result = await fixture.cli.run(['instal', 'kit'], makeTempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^loadout: unknown command 'instal'/mu);
    expect(result.stderr).not.toMatch(/^error:/mu);
  }, 60_000);

  it('a refused update ends with one line: nothing was written, and why', async () => {
    const project = makeTempDir();
    expect((await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist, '--version', '1.0.0'], project)).code).toBe(0);
    const before = readFileSync(join(project, 'AGENTS.md'), 'utf8');
    writeFileSync(join(project, 'AGENTS.md'), before.replace('Version one.', 'Version one, edited.'));
    const update = await fixture.cli.run(['update', '--accept-capabilities'], project);
    expect(update.code).toBe(1);
    expect(update.stdout).toContain('would update kit 1.0.0 → 1.1.0 for cursor');
    expect(update.stderr.trimEnd().split('\n').at(-1)).toBe('loadout: nothing was updated and nothing was written: 1 file holds changes of yours (AGENTS.md); keep them elsewhere, or pass --force to overwrite them after a backup');
    expect(lockOf(project).installs.map((i) => i.version)).toEqual(['1.0.0']);
  }, 60_000);
});

describe('signing, said to the person who installs (point 10)', () => {
  const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

  it('says when a key is pinned on first use, names the pinned keys when another signs, and says --trust-key in outdated pins nothing', async () => {
    const repo = makeTempDir();
    initRepo(repo);
    writeLoadout(repo, { id: 'kit' });
    commitAll(repo, 'kit 1.0.0');
    const dist = join(repo, 'dist');
    const first = newKey();
    await buildCatalogue({ root: repo, out: dist, baseUrl: 'http://catalogue.test', signing: { key: first, expiresInDays: 30 } });
    const project = makeTempDir();
    const install = await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', dist], project);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`signed: key ${first.published.keyid}`);
    expect(install.stdout).toContain(`pinned ${dist}'s signing key ${first.published.keyid} in the lock (first use)`);
    const again = await fixture.cli.run(['install', 'kit', '--agent', 'codex', '--from', dist], project);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('pinned');

    const second = newKey();
    await buildCatalogue({ root: repo, out: dist, baseUrl: 'http://catalogue.test', signing: { key: second, expiresInDays: 30 }, clean: true });
    const refused = await fixture.cli.run(['outdated'], project);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`none of them a trusted key (trusted: the lock pins ${first.published.keyid} for ${dist})`);
    expect(refused.stderr).not.toContain('trusted: none');
    expect(refused.stderr).not.toContain('nothing was installed');
    const trusting = await fixture.cli.run(['outdated', '--trust-key', second.published.keyid], project);
    expect(trusting.code).toBe(0);
    expect(trusting.stderr).toContain(`--trust-key ${second.published.keyid} counted for this listing only: outdated writes nothing, so the lock does not pin it`);
  }, 120_000);
});

describe('backups after the last uninstall (point 11)', () => {
  it('removes the backups whose bytes are back in place, leaving git status clean, and names those it keeps', async () => {
    const project = makeTempDir();
    initRepo(project);
    const rule = join(project, '.cursor/rules/style.mdc');
    mkdirSync(dirname(rule), { recursive: true });
    writeFileSync(rule, 'My own style rule.\n');
    commitAll(project, 'my project');
    const install = await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist, '--force'], project);
    expect(install.code).toBe(0);
    expect(install.stderr).toMatch(/loadout: your .cursor\/rules\/style.mdc was copied to .loadout\/backup\/[^/]+\/ before the install replaced it/u);
    // A copy of an earlier run that the restore does not use (as a block's backup is): its bytes are back in place after the uninstall.
    const older = join(project, '.loadout/backup/2026-01-01T00-00-00.000Z/.cursor/rules/style.mdc');
    mkdirSync(dirname(older), { recursive: true });
    writeFileSync(older, 'My own style rule.\n');
    const uninstall = await fixture.cli.run(['uninstall', 'kit'], project);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain('removed   1 backup copy in .loadout/backup/');
    expect(readFileSync(rule, 'utf8')).toBe('My own style rule.\n');
    expect(existsSync(join(project, '.loadout'))).toBe(false);
    expect(git(project, ['status', '--porcelain', '--untracked-files=all'])).toBe('');

    // A copy the project no longer holds is the only one: kept, and named.
    expect((await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist, '--force'], project)).code).toBe(0);
    writeFileSync(rule, 'Edited after the install.\n');
    const kept = await fixture.cli.run(['uninstall', 'kit'], project);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/kept {6}1 backup copy of your files, the project holding something else there now:\n {14}\.loadout\/backup\/[^/\n]+\/\.cursor\/rules\/style\.mdc\n/u);
    expect(readdirSync(join(project, '.loadout/backup'))).toHaveLength(1);
  }, 120_000);
});

