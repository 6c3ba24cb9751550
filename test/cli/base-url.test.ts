/**
 * The base URL follows the server (DESIGN.md section 2): with `LOADOUT_BASE_URL` unset,
 * `loadout build` publishes addresses at `http://localhost:<PORT>` and `loadout serve` at its
 * `--port` and `--host`; `serve` warns at start when the tree was built for another base URL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBaseUrl, resolveConfig } from '../../src/cli/config.js';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/free-port.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo } from '../helpers/temp.js';

describe('the base URL without LOADOUT_BASE_URL', () => {
  it('follows PORT, and LOADOUT_BASE_URL wins when set', () => {
    expect(resolveConfig({ PORT: '18100' })).toMatchObject({ baseUrl: 'http://localhost:18100', baseUrlSet: false });
    expect(resolveConfig({})).toMatchObject({ baseUrl: 'http://localhost:8787', baseUrlSet: false });
    expect(resolveConfig({ PORT: '18100', LOADOUT_BASE_URL: 'https://loadouts.example/' })).toMatchObject({ baseUrl: 'https://loadouts.example', baseUrlSet: true });
  });

  it('names the host a server binds, localhost for loopback and wildcard addresses', () => {
    expect(localBaseUrl('127.0.0.1', 9000)).toBe('http://localhost:9000');
    expect(localBaseUrl('0.0.0.0', 9000)).toBe('http://localhost:9000');
    expect(localBaseUrl('192.0.2.7', 9000)).toBe('http://192.0.2.7:9000');
    expect(localBaseUrl('2001:db8::1', 9000)).toBe('http://[2001:db8::1]:9000');
  });
});

const CLI_ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

/** Starts `loadout serve` and resolves with what it printed once it serves; the server is stopped then. */
function serveOnce(root: string, args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const { LOADOUT_BASE_URL: _unset, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', TSX, CLI_ENTRY, 'serve', ...args], { cwd: root, env: { ...inherited, CI: 'true', DATABASE_URL: 'none', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('serving ')) {
        child.kill('SIGTERM');
        resolve({ stdout, stderr });
      }
    });
    child.on('close', (code) => reject(new Error(`serve exited (${code}) before serving: ${stderr}`)));
  });
}

describe('build and serve', () => {
  let root = '';
  let port = 0;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loadout-base-url-'));
    writeLoadout(root, { id: 'alpha' });
    initRepo(root);
    commitAll(root, 'alpha');
    port = await freePort();
    const { LOADOUT_BASE_URL: _unset, ...env } = process.env;
    const built = await runCli(['build'], root, { ...env, PORT: String(port) } as Record<string, string>);
    expect(built.code, built.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loadout build publishes addresses at the PORT', () => {
    const description = JSON.parse(readFileSync(join(root, 'dist/api/v1/index.json'), 'utf8')) as { schema: string; cli?: { url: string } };
    expect(description.schema).toBe(`http://localhost:${port}/api/schema.json`);
    expect(description.cli?.url).toMatch(new RegExp(`^http://localhost:${port}/cli/loadout-`, 'u'));
    expect(readFileSync(join(root, 'dist/loadouts/alpha/index.html'), 'utf8')).toContain(`--from http://localhost:${port}`);
  });

  it('loadout serve on the same PORT publishes the same base and does not warn', async () => {
    const { stdout, stderr } = await serveOnce(root, [], { PORT: String(port) });
    expect(stdout).toContain(`published addresses use http://localhost:${port}`);
    expect(stderr).not.toContain('warning');
  }, 60_000);

  it('loadout serve --port elsewhere follows --port and warns that the tree was built for another base URL', async () => {
    const other = await freePort();
    const { stdout, stderr } = await serveOnce(root, ['--port', String(other)], {});
    expect(stdout).toContain(`published addresses use http://localhost:${other}`);
    expect(stderr).toContain(`was built for http://localhost:${port}, but this server publishes http://localhost:${other}`);
  }, 60_000);
});
