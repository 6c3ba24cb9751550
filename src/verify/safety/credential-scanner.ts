/**
 * The credential scan on a worker thread. secretlint's rules are most of the cost of `verify`
 * (`bench/verify.ts` prints the credential scan alone), and they need nothing but the texts, so
 * a second core can run them while this thread runs the other checks of the next loadouts.
 * Scans sent before the worker has started wait for it, so that this thread never loads
 * secretlint; after the worker failed or was closed, they run in this thread. The findings are
 * the same either way.
 */
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Finding } from '../check.js';
import { findCredentials, joinSources, type CredentialScan } from './credentials.js';

/**
 * A request to the worker: the files of one loadout, joined (see `joinSources`), with the
 * joined text as UTF-8 bytes whose buffer is transferred, not copied: cloning the texts cost
 * the sending thread more than a tenth of `verify`.
 */
export interface CredentialRequest {
  id: number;
  paths: string[];
  starts: number[];
  utf8: Uint8Array;
}

/** The worker's answer to one {@link CredentialRequest}. */
export type CredentialReply = { id: number; findings: Finding[] } | { id: number; error: string };

/**
 * What crosses between the threads: the requests made while this thread ran, sent together
 * once it yields, and their replies, sent together once all are scanned. One message per
 * batch instead of one per loadout: each message wakes the other thread, which on a busy
 * machine costs more than the scan of a small loadout.
 */
export interface CredentialBatch {
  requests: CredentialRequest[];
}

/** The worker's answer to one {@link CredentialBatch}, in its order. */
export interface CredentialReplies {
  replies: CredentialReply[];
}

interface Pending {
  resolve: (findings: Finding[]) => void;
  reject: (error: Error) => void;
}

const ENCODER = new TextEncoder();

/** A worker thread that scans loadouts for credentials. Call {@link close} when done. */
export class CredentialScanner {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #ready = false;
  /** Set when the worker failed: scans then run in this thread, and waiting ones reject. */
  #failure: Error | undefined;

  constructor() {
    const { entry, evalCode } = workerEntry();
    this.#worker = new Worker(entry, { eval: evalCode });
    this.#worker.on('message', (message: CredentialReplies | { ready: true }) => {
      if ('ready' in message) {
        this.#ready = true;
        return;
      }
      for (const reply of message.replies) {
        const pending = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        if ('error' in reply) pending?.reject(new Error(`credential scan failed: ${reply.error}`));
        else pending?.resolve(reply.findings);
      }
    });
    this.#worker.on('error', (error) => this.#fail(new Error(`the credential scan worker failed: ${error.message}`)));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the credential scan worker stopped (exit code ${code})`)));
  }

  /** True when scans go to the worker: it has started, and has neither failed nor been closed. */
  get onWorker(): boolean {
    return this.#ready && this.#failure === undefined;
  }

  /** {@link findCredentials} on the worker; in this thread once the worker failed or was closed. */
  readonly scan: CredentialScan = (files) => {
    if (this.#failure !== undefined) return findCredentials(files);
    const id = this.#nextId++;
    const { paths, starts, content } = joinSources(files);
    const utf8 = ENCODER.encode(content);
    return new Promise<Finding[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#batch.length === 0) setImmediate(() => this.#send());
      this.#batch.push({ id, paths, starts, utf8 });
    });
  };

  /** Requests made since the last send. */
  #batch: CredentialRequest[] = [];

  #send(): void {
    const requests = this.#batch;
    this.#batch = [];
    if (this.#failure !== undefined) return; // #fail rejected them
    this.#worker.postMessage({ requests } satisfies CredentialBatch, requests.map((r) => r.utf8.buffer as ArrayBuffer));
  }

  /** Stops the worker. Scans still waiting reject; later ones run in this thread. */
  async close(): Promise<void> {
    this.#fail(new Error('the credential scanner was closed'));
    await this.#worker.terminate();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/**
 * How to start the worker: `credential-worker.js` beside this module in `lib/`; from source
 * (tests, benchmarks under tsx) a line that registers tsx's loader in the worker and imports
 * the `.ts` file, since Node 20 does not pass loaders on to workers (nodejs/node#47747).
 */
function workerEntry(): { entry: string | URL; evalCode: boolean } {
  const ext = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./credential-worker${ext}`, import.meta.url);
  if (ext !== '.ts') return { entry: url, evalCode: false };
  // tsx's "./esm/api" export (import condition); import.meta.resolve is missing under vitest.
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return { entry: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, evalCode: true };
}
