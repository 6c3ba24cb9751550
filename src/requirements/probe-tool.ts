/**
 * Finding a tool on the user's `PATH` and reading its version, without a shell (issue 56,
 * point 4). The lookup is POSIX `execvp`'s (pubs.opengroup.org, "exec"): each folder of `PATH`
 * in order, the first regular file there that the user may execute; there is no `PATHEXT`.
 * Unlike `execvp`, an empty or relative entry of `PATH` (the current folder) is skipped: the
 * check runs inside a project that may have been cloned from anyone, and its own `./node` must
 * never be what runs.
 *
 * The version is read by running the file found, directly (`execFile`, no shell), with the
 * tool's version flag, stdin closed, a time limit and a cap on what it prints; both streams are
 * read (`java -version` prints on stderr). Only a tool asked for with a range is ever run.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The most a tool's version output is read (bytes per stream); past it the tool is stopped. */
export const VERSION_OUTPUT_MAX_BYTES = 64 * 1024;

/** How long a tool may take to print its version, by default (a JVM starts in about a second). */
export const VERSION_TIMEOUT_MS = 10_000;

/**
 * The first executable regular file named `command` in the folders of `path` (a `PATH` value),
 * or undefined. `command` must be a bare name (no `/`): the caller's grammar makes it one.
 */
export async function findOnPath(command: string, path: string | undefined): Promise<string | undefined> {
  if (command.includes('/') || command === '' || command === '.' || command === '..') return undefined;
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const file = join(folder, command);
    try {
      if (!(await stat(file)).isFile()) continue;
      await access(file, constants.X_OK);
      return file;
    } catch {
      // Not there, or not executable: the next folder.
    }
  }
  return undefined;
}

/** What a tool printed for its version flag (both streams, each capped), and whether it was stopped at the time limit. */
export interface ToolOutput {
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs `file args` directly (no shell) with `env`, stdin closed, at most `timeoutMs` and
 * {@link VERSION_OUTPUT_MAX_BYTES} per stream; resolves with what it printed, whatever its exit
 * status (some tools exit non-zero after printing their version). Never rejects.
 */
export function runVersionCommand(file: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>, timeoutMs = VERSION_TIMEOUT_MS): Promise<ToolOutput> {
  return new Promise((resolve) => {
    try {
      const child = execFile(file, [...args], { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: VERSION_OUTPUT_MAX_BYTES, encoding: 'utf8', windowsHide: true, shell: false }, (error, stdout, stderr) => {
        const timedOut = error !== null && (error as { killed?: boolean }).killed === true && (error as { code?: unknown }).code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        resolve({ stdout: String(stdout ?? ''), stderr: String(stderr ?? ''), timedOut });
      });
      child.stdin?.end();
      child.stdin?.on('error', () => undefined);
    } catch {
      resolve({ stdout: '', stderr: '', timedOut: false });
    }
  });
}
