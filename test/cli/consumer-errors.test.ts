/**
 * The consumer CLI as it is published (the bundle, run by node): errors a script can tell apart
 * (`--json` prints `{"error": {code, name, message, hint}}` on stdout with the exit code
 * unchanged), and hints that tell the user the fix (STYLE.md Errors 9): `--agnet` suggests
 * `--agent`, a `--from` without a scheme says what was expected, an unknown id gets "did you
 * mean".
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleConsumerCli } from '../../src/tree/cli-package/bundle.js';
import { runProcess } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';

let bin = '';
let tree = '';
const run = (args: string[], cwd = makeTempDir()) => runProcess(process.execPath, [bin, ...args], cwd, { PATH: process.env['PATH'] ?? '', HOME: cwd });

let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loadout-consumer-'));
  bin = join(dir, 'loadout.mjs');
  writeFileSync(bin, (await bundleConsumerCli('0.0.0-test'))?.text ?? '');
  // A hand-made tree: two loadouts listed, one whose AGENTS.md does not match its hash.
  tree = join(dir, 'tree');
  mkdirSync(join(tree, 'api/loadouts/nextjs-app-router'), { recursive: true });
  mkdirSync(join(tree, 'raw/nextjs-app-router/1.0.0'), { recursive: true });
  writeFileSync(join(tree, 'api/loadouts.json'), JSON.stringify({ total: 2, loadouts: [{ id: 'nextjs-app-router' }, { id: 'fastapi-service' }] }));
  const sha = createHash('sha256').update('the published text\n').digest('hex');
  writeFileSync(join(tree, 'api/loadouts/nextjs-app-router/versions.json'), JSON.stringify({
    id: 'nextjs-app-router', latest: '1.0.0',
    versions: [{ version: '1.0.0', date: null, commit: null, latest: true, changes: [], checks: { pass: 0, fail: 0, skip: 0, not_applicable: 0 }, files: [{ path: 'AGENTS.md', role: 'instructions', agent: null, skill: null, sha256: sha, bytes: 19, raw_url: '' }] }],
  }));
  writeFileSync(join(tree, 'raw/nextjs-app-router/1.0.0/AGENTS.md'), 'a changed text, 19\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the consumer CLI', () => {
  it('prints its version and only the consumer commands', async () => {
    expect((await run(['--version'])).stdout.trim()).toBe('0.0.0-test');
    const help = (await run(['--help'])).stdout;
    for (const command of ['install', 'update', 'uninstall', 'status', 'outdated', 'search']) expect(help).toContain(`${command} `);
    for (const command of ['build', 'verify', 'serve', 'publish', 'submissions']) expect(help).not.toContain(`  ${command} `);
  });

  it('suggests --agent for --agnet instead of saying --agent is missing', async () => {
    const result = await run(['install', 'x', '--agnet', 'cursor']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--agnet'");
    expect(result.stderr).toContain('Did you mean --agent?');
    expect(result.stderr).not.toContain('not specified');
  });

  it('says what --from expected for a host and port without a scheme', async () => {
    const result = await run(['install', 'x', '--agent', 'cursor', '--from', '127.0.0.1:18100']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--from is "127.0.0.1:18100": a host and port without a scheme (expected a base URL such as http://127.0.0.1:18100');
    expect(result.stderr).not.toContain('loadout build');
  });

  it('suggests the nearest ids for an unknown loadout', async () => {
    const result = await run(['install', 'nextjs-ap', '--agent', 'cursor', '--from', tree]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('loadout nextjs-ap is not in the catalogue');
    expect(result.stderr).toContain('Did you mean nextjs-app-router?');
  });

  it('with --json, prints the error as {error: {code, name, message, hint}} on stdout, exit code unchanged', async () => {
    const unknown = await run(['install', 'nextjs-ap', '--agent', 'cursor', '--from', tree, '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: { code: 'not_found', name: 'UnknownLoadout', message: expect.stringContaining('nextjs-ap'), hint: 'Did you mean nextjs-app-router?' } });
    const mismatch = await run(['install', 'nextjs-app-router', '--agent', 'cursor', '--from', tree, '--json']);
    expect(mismatch.code).toBe(1);
    expect(JSON.parse(mismatch.stdout).error).toMatchObject({ code: 'invalid_content', name: 'HashMismatch', message: expect.stringContaining('AGENTS.md does not match its published sha256') });
    const usage = await run(['install', 'x', '--agent', 'cursor', '--from', 'ftp://x', '--json']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout).error.name).toBe('BadSource');
  });
});
