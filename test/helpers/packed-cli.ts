/**
 * The consumer CLI as a consumer runs it: the package packed from source the way every built
 * tree serves it (`cli/loadout-<version>.tgz`, `src/tree/cli-package/pack.ts`), run through
 * `npx --package=<tarball> -- loadout …` with its own HOME and npm cache and the registry at a
 * closed port (the package has no dependency to fetch). The first run installs it into that
 * cache; later runs reuse it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packConsumerCli } from '../../src/tree/cli-package/pack.js';
import { runProcess, type CliResult } from './cli.js';

/** The packed consumer CLI and a way to run it. */
export interface PackedCli {
  /** The package's version (`packages/cli/package.json`). */
  version: string;
  /** The tarball's path. */
  tarball: string;
  /** The HOME the runs get (also the user scope's home folder). */
  home: string;
  /** Runs `npx -y --package=<tarball> -- loadout <args>` in `cwd`, with `env` added. */
  run(args: readonly string[], cwd: string, env?: Record<string, string>): Promise<CliResult>;
  /** Removes the tarball, HOME and the npm cache. */
  remove(): void;
}

/**
 * Packs the consumer CLI from source into a temporary folder.
 * @throws Error when the package cannot be packed (no esbuild and no `npm run build` bundle)
 */
export async function packedConsumerCli(): Promise<PackedCli> {
  const packed = await packConsumerCli();
  if (packed === undefined) throw new Error('the consumer CLI cannot be packed: run npm run build');
  const dir = mkdtempSync(join(tmpdir(), 'loadout-packed-cli-'));
  const tarball = join(dir, `loadout-${packed.version}.tgz`);
  writeFileSync(tarball, packed.tarball);
  const home = join(dir, 'home');
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  return {
    version: packed.version,
    tarball,
    home,
    run: (args, cwd, extra = {}) => runProcess('npx', ['-y', `--package=${tarball}`, '--', 'loadout', ...args], cwd, { ...env, ...extra }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
