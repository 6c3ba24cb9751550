/**
 * Running the real `loadout` CLI in a child process (cli-command.ts: compiled when `lib/` is
 * fresh, else from source) and collecting its output.
 */
import { spawn } from 'node:child_process';
import { cliNodeArgs } from './cli-command.js';

/** What a CLI run printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `loadout <args>` in `cwd` with `env` added, node started with `nodeOptions` (`--max-old-space-size=…`); resolves when it exits. */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, nodeOptions: readonly string[] = []): Promise<CliResult> {
  return runProcess(process.execPath, [...nodeOptions, ...cliNodeArgs(), ...args], cwd, { ...process.env, CI: 'true', ...env });
}

/** Runs `command args` in `cwd` with exactly the environment `env`; resolves with its output when it exits. */
export function runProcess(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
