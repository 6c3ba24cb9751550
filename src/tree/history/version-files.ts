/**
 * Materialising a version's files: a loadout folder as it stood at one commit, read through
 * one `git cat-file --batch` process for every blob of a build.
 */
import type { GitCommands, GitPipe } from './git-commands.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';

/** A loadout folder as it stood at one commit. */
export interface Snapshot {
  /** The manifest text at that commit. */
  manifestText: string;
  /** Every file of the folder at that commit except the manifest, by relative path. */
  files: Map<string, Uint8Array>;
}

/**
 * Reads the loadout folder `dir` (relative to the repository's top, forward slashes) as it
 * stood at `commit`: its manifest text and every other file by path relative to `dir`;
 * undefined when the folder has no manifest at that commit. Rejects with git's error when
 * `git ls-tree` or the blob reader fails.
 */
export async function readSnapshot(git: GitCommands, blobs: BlobReader, commit: string, dir: string): Promise<Snapshot | undefined> {
  // The blobs are read by object id, not as `<commit>:<path>`, which has git read the commit's
  // whole `loadouts/` tree for each file (commit-log.ts `readManifestCommits`).
  const entries = readTreeListing(await git.raw(['ls-tree', '-r', '-z', commit, '--', `${dir}/`])).filter((e) => e.type === 'blob');
  // Asked for at once: the reader sends one turn's requests to git in one write.
  const read = await Promise.all(entries.map(({ object }) => blobs.read(object)));
  const files = new Map<string, Uint8Array>();
  let manifestText: string | undefined;
  for (const [i, { path }] of entries.entries()) {
    const bytes = read[i];
    if (bytes === undefined) continue;
    const rel = path.slice(dir.length + 1);
    if (rel === MANIFEST_FILE) manifestText = Buffer.from(bytes).toString('utf8');
    else files.set(rel, bytes);
  }
  return manifestText === undefined ? undefined : { manifestText, files };
}

/** One entry of `git ls-tree` (see {@link readTreeListing}). */
export interface TreeEntry {
  /** `blob`, `tree` or `commit` (a submodule). */
  type: string;
  /** Its object id. */
  object: string;
  /** Its path, relative to the top folder with `--full-tree` or a pathspec from the top. */
  path: string;
}

/**
 * The entries of `git ls-tree -z` output: records `<mode> SP <type> SP <object> TAB <path>`, each
 * ended by NUL (git-ls-tree, "OUTPUT FORMAT"). A record without those fields is left out. Pure.
 */
export function readTreeListing(listing: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of listing.split('\u0000')) {
    const tab = record.indexOf('\t');
    const [, type, object] = record.slice(0, tab).split(' ');
    if (tab >= 0 && type !== undefined && object !== undefined) entries.push({ type, object, path: record.slice(tab + 1) });
  }
  return entries;
}

/**
 * Reads blobs through one `git cat-file --batch` process (git's documented batch protocol:
 * a request line, an object id or `<rev>:<path>`, an answer header `<sha> <type> <size>` or `<rev> missing`,
 * then `size` bytes and a newline). Requests are answered in order. The requests of one turn
 * of the event loop go to git in one write: a cold build asks for every blob of every version,
 * and a write per request spends one system call per blob on the main thread, which the cold
 * build benchmark (docs/performance.md) showed as main-thread time the batching removes.
 * `read` rejects with the process's error, or when git exits with requests unanswered.
 */
export class BlobReader {
  private readonly child: GitPipe;
  private buffer = Buffer.alloc(0);
  private pending = '';
  private readonly queue: { resolve: (b: Uint8Array | undefined) => void; reject: (e: Error) => void }[] = [];

  /** Starts `git cat-file --batch` through `git` (git-commands.ts). */
  constructor(git: GitCommands) {
    this.child = git.pipe(['cat-file', '--batch']);
    this.child.onData((chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    this.child.onExit((code, error) => {
      if (this.queue.length > 0) this.failAll(error ?? new Error(`git cat-file exited with code ${String(code)}`));
    });
  }

  /**
   * The bytes of the blob `spec`: an object id, or `<rev>:<path>` (which has git walk the trees
   * down to `path` on each request: slow in a large folder); undefined when it is missing or not a blob.
   */
  read(spec: string): Promise<Uint8Array | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      if (this.pending === '') setImmediate(() => this.send());
      this.pending += `${spec}\n`;
    });
  }

  private send(): void {
    const requests = this.pending;
    this.pending = '';
    if (requests !== '') this.child.write(requests);
  }

  /** Sends what is queued and ends git's input, so the process exits once it has answered (again: nothing). */
  close(): void {
    if (this.pending !== '') this.send();
    this.child.end();
  }

  private drain(): void {
    for (;;) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.buffer.subarray(0, newline).toString('utf8');
      const waiter = this.queue[0];
      if (waiter === undefined) return;
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.queue.shift();
        waiter.resolve(undefined);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buffer.length < newline + 1 + size + 1) return;
      const body = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.queue.shift();
      waiter.resolve(header.split(' ')[1] === 'blob' ? body : undefined);
    }
  }

  private failAll(error: Error): void {
    for (const waiter of this.queue.splice(0)) waiter.reject(error);
  }
}
