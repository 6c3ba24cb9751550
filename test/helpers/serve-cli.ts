/**
 * `loadout serve` as a real child process (cli-command.ts: compiled when `lib/` is fresh, else from source) on an ephemeral
 * loopback port, for tests that talk to it over HTTP like any outside client.
 */
import { spawn } from 'node:child_process';
import { cliNodeArgs } from './cli-command.js';

/** A running `loadout serve`. */
export interface ServeProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops the process (SIGTERM to this child only) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `loadout serve --port 0 --out <out>` in `cwd` with `env` added (no database unless
 * `env` names one) and resolves with its address once it listens.
 * @throws Error with its output when it exits first
 */
export function startServe(out: string, cwd: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...cliNodeArgs(), 'serve', '--port', '0', '--host', '127.0.0.1', '--out', out], {
    cwd,
    env: { ...process.env, DATABASE_URL: 'none', CI: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)/u.exec(stdout);
      if (match?.[1] !== undefined) resolve({ url: match[1], stop });
    });
    child.once('exit', (code) => reject(new Error(`loadout serve exited with ${String(code)} before listening: ${stdout}${stderr}`)));
  });
}
