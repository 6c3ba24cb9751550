/**
 * How the history reads run git: a command's standard output (through simple-git), and a git
 * process that keeps running with piped input and output (the blob reader's
 * `git cat-file --batch`). {@link gitIn} runs them from this process; `loadout dev` runs them
 * from a small helper process instead (git-helper.ts), whose `fork` costs a fraction of that of
 * a large one.
 */
import { spawn } from 'node:child_process';
import { simpleGit } from 'simple-git';

/** A git process with piped input and output, as {@link GitCommands.pipe} starts it. */
export interface GitPipe {
  /** Writes `text` to git's standard input. */
  write(text: string): void;
  /** Ends git's standard input (idempotent). */
  end(): void;
  /** Calls `listener` with each chunk of git's standard output, in order. */
  onData(listener: (chunk: Uint8Array) => void): void;
  /**
   * Calls `listener` once, when git has exited (`code`, null when a signal ended it) or could not
   * run (`error`, e.g. `spawn git ENOENT`), after the last chunk of output.
   */
  onExit(listener: (code: number | null, error?: Error) => void): void;
}

/** git in one folder. */
export interface GitCommands {
  /**
   * Runs `git <args>` and resolves to its standard output (UTF-8). Rejects with an Error whose
   * message is git's standard error when git exits with another code than 0 and says why, or
   * with the error that kept git from running (its message names the cause, e.g. ENOENT);
   * like simple-git's `raw`, an exit code other than 0 with nothing on standard error resolves.
   */
  raw(args: string[]): Promise<string>;
  /** Starts `git <args>` with piped standard input and output. */
  pipe(args: readonly string[]): GitPipe;
}

/** git in the folder `cwd`, run from this process. */
export function gitIn(cwd: string): GitCommands {
  const git = simpleGit({ baseDir: cwd });
  return { raw: (args) => git.raw(args), pipe: (args) => spawnPipe(cwd, args) };
}

/** {@link GitCommands.pipe} from this process: `git <args>` in `cwd`, its standard error ignored. */
export function spawnPipe(cwd: string, args: readonly string[]): GitPipe {
  const child = spawn('git', args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  const { exit, onExit } = exitOnce();
  child.on('error', (error) => exit(null, error));
  // 'close' comes after the last 'data' of standard output, where 'exit' may come before it.
  child.on('close', (code) => exit(code));
  // A write after git exited fails with EPIPE: onExit has told the reader already.
  child.stdin.on('error', () => undefined);
  return {
    write: (text) => {
      if (!child.stdin.writableEnded) child.stdin.write(text);
    },
    end: () => {
      if (!child.stdin.writableEnded) child.stdin.end();
    },
    onData: (listener) => child.stdout.on('data', listener),
    onExit,
  };
}

/**
 * The end of a {@link GitPipe}, told once: `exit` records the first outcome and calls the
 * listeners `onExit` took; a listener added after it is called at once with that outcome;
 * `ended` says whether it came. Later calls of `exit` are ignored.
 */
export function exitOnce(): { exit: (code: number | null, error?: Error) => void; onExit: GitPipe['onExit']; ended: () => boolean } {
  let outcome: { code: number | null; error?: Error } | undefined;
  const listeners: ((code: number | null, error?: Error) => void)[] = [];
  return {
    exit: (code, error) => {
      if (outcome !== undefined) return;
      outcome = error === undefined ? { code } : { code, error };
      for (const listener of listeners) listener(code, error);
    },
    onExit: (listener) => {
      if (outcome === undefined) listeners.push(listener);
      else listener(outcome.code, outcome.error);
    },
    ended: () => outcome !== undefined,
  };
}
