/**
 * git run from a small helper process (git-helper-main.ts), for a long-running process that
 * grows large: `loadout dev` at 10,000 loadouts holds about 1 GB. Node starts a child process
 * with `fork`, which copies the parent's page tables and marks its memory copy-on-write: on
 * this project's 2-core machine, each git process started from a 1.1 GB process held its event
 * loop for 40–50 ms, and its next pass over that memory took 290 ms more, a fault per page
 * (docs/performance.md). A save runs five git processes. The helper is forked once, while the
 * process is still small, and forks git from its own few megabytes.
 *
 * Requests and replies are messages on the IPC channel (Node's `advanced` serialization, so
 * output goes as bytes). The helper does not keep this process alive when nothing waits on it.
 */
import type { ChildProcess } from 'node:child_process';
import { forkSibling } from '../../sibling-module.js';
import { exitOnce, type GitCommands, type GitPipe } from './git-commands.js';

/** A message to the helper. */
export type HelperRequest =
  | { kind: 'raw'; id: number; cwd: string; args: string[] }
  | { kind: 'pipe'; id: number; cwd: string; args: string[] }
  | { kind: 'write'; id: number; text: string }
  | { kind: 'end'; id: number };

/** A message from the helper: a command's output or error, or a pipe's output and its end. */
export type HelperReply =
  | { kind: 'raw'; id: number; out: string; error?: undefined }
  | { kind: 'raw'; id: number; error: string }
  | { kind: 'data'; id: number; chunk: Uint8Array }
  | { kind: 'exit'; id: number; code: number | null; error?: string };

interface Waiting {
  raw?: { resolve: (out: string) => void; reject: (error: Error) => void };
  data?: (chunk: Uint8Array) => void;
  exit?: (code: number | null, error?: Error) => void;
}

/**
 * The helper process and what waits on it. {@link GitHelper.commandsIn} gives {@link GitCommands}
 * that behave as git-commands.ts `gitIn`'s. When the helper dies (killed, out of memory), what
 * waited on it fails with an Error that says so, and the next command forks a new helper.
 */
export class GitHelper {
  #child: ChildProcess | undefined;
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();
  #closed = false;

  /** Forks the helper now (call it while this process is small). */
  constructor() {
    this.#start();
  }

  /** The helper's process id; undefined between a helper that died and the next command. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** git in the folder `cwd`, through the helper. */
  commandsIn(cwd: string): GitCommands {
    return {
      raw: (args) =>
        new Promise((resolve, reject) => {
          const id = this.#send((id) => ({ kind: 'raw', id, cwd, args: [...args] }), { raw: { resolve, reject } });
          if (id === undefined) reject(new Error('the git helper process was closed'));
        }),
      pipe: (args) => this.#pipe(cwd, args),
    };
  }

  /** Ends the helper (idempotent): what still waits on it fails. */
  close(): void {
    this.#closed = true;
    this.#child?.disconnect();
    this.#child = undefined;
    this.#failAll(new Error('the git helper process was closed'));
  }

  #pipe(cwd: string, args: readonly string[]): GitPipe {
    const dataListeners: ((chunk: Uint8Array) => void)[] = [];
    const { exit, onExit, ended } = exitOnce();
    let inputEnded = false;
    const id = this.#send((id) => ({ kind: 'pipe', id, cwd, args: [...args] }), { data: (chunk) => dataListeners.forEach((listener) => listener(chunk)), exit });
    if (id === undefined) queueMicrotask(() => exit(null, new Error('the git helper process was closed')));
    return {
      write: (text) => {
        if (id !== undefined && !inputEnded && !ended()) this.#child?.send({ kind: 'write', id, text } satisfies HelperRequest);
      },
      end: () => {
        if (id === undefined || inputEnded || ended()) return;
        inputEnded = true;
        this.#child?.send({ kind: 'end', id } satisfies HelperRequest);
      },
      onData: (listener) => void dataListeners.push(listener),
      onExit,
    };
  }

  /** Sends the request `make(id)` and waits for its replies; undefined once closed. */
  #send(make: (id: number) => HelperRequest, waiting: Waiting): number | undefined {
    if (this.#closed) return undefined;
    const child = this.#child ?? this.#start();
    const id = this.#nextId++;
    this.#waiting.set(id, waiting);
    child.channel?.ref();
    child.send(make(id));
    return id;
  }

  #start(): ChildProcess {
    const child = forkSibling(import.meta.url, 'git-helper-main', [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (reply: HelperReply) => this.#receive(reply));
    child.on('exit', (code, signal) => {
      // A helper that close() let go has failed what waited on it already.
      if (this.#child !== child) return;
      this.#child = undefined;
      this.#failAll(new Error(`the git helper process ended (${signal ?? `exit code ${String(code)}`})`));
    });
    child.on('error', () => undefined);
    // Neither the process nor its channel keeps this process alive; a request refs the channel
    // until its reply (the helper exits when this process goes: git-helper-main.ts).
    child.unref();
    child.channel?.unref();
    this.#child = child;
    return child;
  }

  #receive(reply: HelperReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (waiting === undefined) return;
    if (reply.kind === 'data') {
      waiting.data?.(reply.chunk);
      return;
    }
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#child?.channel?.unref();
    if (reply.kind === 'raw') {
      if (reply.error === undefined) waiting.raw?.resolve(reply.out);
      else waiting.raw?.reject(new Error(reply.error));
    } else waiting.exit?.(reply.code, reply.error === undefined ? undefined : new Error(reply.error));
  }

  #failAll(error: Error): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const w of waiting) {
      w.raw?.reject(error);
      w.exit?.(null, error);
    }
  }
}
