/**
 * What a newcomer tripped on (issue 36), tried on the consumer CLI as a consumer runs it: the
 * package packed from source, run through `npx --package=<tarball>` (test/helpers/packed-cli.ts),
 * against the life-cycle catalogue (`kit` 1.0.0 and 1.1.0) as a built tree and served on
 * 127.0.0.1. Where the repository's own CLI shares the rule, it is run too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { packedConsumerCli, type PackedCli } from '../helpers/packed-cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from '../install/lifecycle-fixture.js';

let cli: PackedCli;
let catalogue: LifecycleCatalogue;
let root = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-tarball-'));
  mkdirSync(join(root, 'catalogue'));
  [cli, catalogue] = await Promise.all([packedConsumerCli(), buildLifecycleCatalogue(join(root, 'catalogue'))]);
}, 120_000);
afterAll(() => {
  cli?.remove();
  rmSync(root, { recursive: true, force: true });
});

const lockOf = (project: string): { installs: { id: string; version: string; source: string }[] } => JSON.parse(readFileSync(join(project, 'loadout.lock.json'), 'utf8'));

describe('--version (point 1)', () => {
  it('after a command is that command\'s option, in the bundle: install --version 1.0.0 installs 1.0.0', async () => {
    const project = makeTempDir();
    const result = await cli.run(['install', 'kit', '--agent', 'claude-code', '--from', catalogue.dist, '--version', '1.0.0'], project);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('installed kit 1.0.0 for claude-code');
    expect(lockOf(project).installs.map((i) => [i.id, i.version])).toEqual([['kit', '1.0.0']]);
    const missing = await cli.run(['install', 'kit', '--agent', 'claude-code', '--from', catalogue.dist, '--version', '9.9.9'], makeTempDir());
    expect(missing.code).toBe(1);
    expect(missing.stdout).not.toContain(cli.version);
  }, 60_000);

  it('before any command prints the version, in both CLIs, and the help lists it', async () => {
    const cwd = makeTempDir();
    expect((await cli.run(['--version'], cwd)).stdout).toBe(`${cli.version}\n`);
    expect((await cli.run(['-V'], cwd)).stdout).toBe(`${cli.version}\n`);
    expect((await cli.run(['--help'], cwd)).stdout).toMatch(/-V, --version +print the version number/u);
    const own = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect((await runCli(['--version'], cwd)).stdout).toBe(`${own}\n`);
    expect((await runCli(['--root', cwd, '--version'], cwd)).stdout).toBe(`${own}\n`);
  }, 60_000);

  it('after a command is that command\'s option in the repository\'s CLI too', async () => {
    const project = makeTempDir();
    const result = await runCli(['install', 'kit', '--agent', 'cursor', '--from', catalogue.dist, '--version', '1.0.0'], project);
    expect(result.code).toBe(0);
    expect(lockOf(project).installs.map((i) => i.version)).toEqual(['1.0.0']);
  }, 60_000);
});
