/**
 * Real third-party command-line tools from the npm registry for interoperability tests (the
 * `skills` CLI, the agents' CLIs), installed with npm's own client into a folder of the
 * system's temporary directory, never into the project. The folder is named by the exact
 * package specs, so a later run reuses it; it is filled beside its final name and renamed
 * into place, so two runs at once never see half an install.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runProcess } from './cli.js';

const run = promisify(execFile);

/** A folder holding `node_modules/` with the packages installed. */
export interface NpmTools {
  dir: string;
  /** `node_modules/.bin/<name>` */
  bin(name: string): string;
}

/**
 * Installs `specs` (exact `name@version`s) with `npm install --prefix`, or reuses an earlier
 * install of the same specs.
 * @throws Error with npm's output when the install fails (no registry, unknown version).
 */
export async function installNpmTools(specs: readonly string[]): Promise<NpmTools> {
  const name = `loadout-tools-${specs.map((s) => s.replace(/[^\w.@-]/gu, '_')).join('+')}`;
  const dir = join(tmpdir(), name);
  const tools: NpmTools = { dir, bin: (bin) => join(dir, 'node_modules', '.bin', bin) };
  if (existsSync(join(dir, '.installed'))) return tools;
  const staging = mkdtempSync(join(tmpdir(), `${name}-`));
  try {
    await run('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...specs], { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`npm install ${specs.join(' ')} failed: ${error.stderr ?? error.message}`);
    });
    writeFileSync(join(staging, '.installed'), `${specs.join('\n')}\n`);
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another run installed the same specs first: use theirs.
      if (!existsSync(join(dir, '.installed'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return tools;
}

/** What a process printed and how it ended. */
export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd` with exactly `env` (plus PATH); resolves when it exits. */
export function runTool(command: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<ToolRun> {
  return runProcess(command, args, cwd, { PATH: process.env['PATH'] ?? '', ...env });
}
