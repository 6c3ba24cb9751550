import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { resolveServeConfig, resolveConfig } from '../../src/cli/config.js';
import { flagsOf } from '../../src/cli/flags.js';
import { resolveCliOptions } from '../../src/cli/options.js';

const NOW = new Date('2026-11-25T23:30:00Z');

describe('resolveCliOptions', () => {
  it('takes defaults, then the environment: progress only on a terminal outside CI, the maintainer from USER', () => {
    const base = { root: '/catalogue', now: NOW };
    const terminal = resolveCliOptions({ ...base, env: { USER: 'ada' }, stderrIsTTY: true });
    expect(terminal).toMatchObject({ root: '/catalogue', today: '2026-11-25', progress: true, maintainer: 'ada' });
    expect(resolveCliOptions({ ...base, env: { CI: 'true' }, stderrIsTTY: true }).progress).toBe(false);
    expect(resolveCliOptions({ ...base, env: {}, stderrIsTTY: false }).progress).toBe(false);
    expect(resolveCliOptions({ ...base, env: {}, stderrIsTTY: false }).maintainer).toBe('maintainer');
  });

  it('reads the configuration from its environment once, on first use, and names a malformed variable', async () => {
    const options = resolveCliOptions({ root: '/c', now: NOW, stderrIsTTY: false, env: { DATABASE_URL: 'sqlite:/tmp/x.db', PORT: '9000' } });
    const config = await options.config();
    expect(config).toMatchObject({ databaseUrl: 'sqlite:/tmp/x.db', port: 9000, baseUrl: 'http://localhost:9000' });
    expect(await options.config()).toBe(config);
    const bad = resolveCliOptions({ root: '/c', now: NOW, stderrIsTTY: false, env: { PORT: 'eighty' } });
    await expect(bad.config()).rejects.toThrow('PORT is "eighty"');
  });
});

describe('flagsOf', () => {
  /** A command with a switch, a valued flag with and without default, and a repeatable one, parsed from `args`. */
  function parsed(args: string[]): Command {
    const program = new Command('t').exitOverride();
    const command = program
      .command('run')
      .option('--json', 'a switch')
      .option('--dry-run', 'another switch')
      .option('--from <url>', 'no default')
      .option('--dir <dir>', 'with default', '.')
      .option('--trust-key <id>', 'repeatable', (v: string, all: string[]) => [...all, v], [] as string[])
      .action(() => undefined);
    program.parse(['node', 't', 'run', ...args]);
    return command;
  }

  it('gives every switch as a boolean and every value as given, defaulted or undefined', () => {
    expect(flagsOf(parsed([]))).toEqual({ json: false, dryRun: false, dir: '.', trustKey: [] });
    expect(flagsOf(parsed(['--json', '--dry-run', '--from', 'https://c.example', '--dir', 'p', '--trust-key', 'a', '--trust-key', 'b']))).toEqual({
      json: true,
      dryRun: true,
      from: 'https://c.example',
      dir: 'p',
      trustKey: ['a', 'b'],
    });
  });
});

describe('resolveServeConfig', () => {
  it('lays --port over PORT, and derives the base URL from --host and the port unless LOADOUT_BASE_URL is set', () => {
    const fromEnv = resolveConfig({ PORT: '9000' });
    expect(resolveServeConfig(fromEnv, { host: '127.0.0.1' })).toMatchObject({ port: 9000, config: { baseUrl: 'http://localhost:9000' } });
    expect(resolveServeConfig(fromEnv, { host: '10.0.0.5', port: '8080' })).toMatchObject({ port: 8080, config: { baseUrl: 'http://10.0.0.5:8080' } });
    const set = resolveConfig({ PORT: '9000', LOADOUT_BASE_URL: 'https://loadouts.example' });
    expect(resolveServeConfig(set, { host: '127.0.0.1', port: '8080' })).toMatchObject({ port: 8080, config: { baseUrl: 'https://loadouts.example' } });
    expect(() => resolveServeConfig(fromEnv, { host: '127.0.0.1', port: '99999' })).toThrow('--port is "99999"');
  });
});
