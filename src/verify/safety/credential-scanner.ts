/**
 * The credential scan on a worker thread. secretlint's rules are most of the cost of
 * `verify` (about 0.6 ms of a loadout's 1.9 ms here), and they need nothing but the texts, so
 * a second core can run them while this thread runs the other checks of the next loadouts.
 * Until the worker has started (about 0.1 s), scans run in this thread; the findings are the
 * same either way.
 */
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Finding } from '../check.js';
import { findCredentials, type CredentialScan, type CredentialSource } from './credentials.js';

/** A request to the worker: the files of one loadout. */
export interface CredentialRequest {
  id: number;
  files: readonly CredentialSource[];
}

/** The worker's answer to one {@link CredentialRequest}. */
export type CredentialReply = { id: number; findings: Finding[] } | { id: number; error: string };

interface Pending {
  resolve: (findings: Finding[]) => void;
  reject: (error: Error) => void;
}

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
    this.#worker.on('message', (message: CredentialReply | { ready: true }) => {
      if ('ready' in message) {
        this.#ready = true;
        return;
      }
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if ('error' in message) pending?.reject(new Error(`credential scan failed: ${message.error}`));
      else pending?.resolve(message.findings);
    });
    this.#worker.on('error', (error) => this.#fail(new Error(`the credential scan worker failed: ${error.message}`)));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the credential scan worker stopped (exit code ${code})`)));
  }

  /** True when scans go to the worker: it has started, and has neither failed nor been closed. */
  get onWorker(): boolean {
    return this.#ready && this.#failure === undefined;
  }

  /** {@link findCredentials} on the worker once it runs, in this thread before and after. */
  readonly scan: CredentialScan = (files) => {
    if (!this.onWorker) return findCredentials(files);
    const id = this.#nextId++;
    return new Promise<Finding[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, files } satisfies CredentialRequest);
    });
  };

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
