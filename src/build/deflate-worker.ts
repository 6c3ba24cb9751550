/**
 * Raw DEFLATE at level 6, with each input's CRC-32 and size, in a worker thread (issue 13:
 * compressing the files of 10,000 loadouts took 6 of the build's main-thread seconds, while the
 * second core had room). Node's own zlib in both threads, so the bytes are those that
 * {@link deflateHere} gives on the main thread (`zip.ts` falls back to it).
 *
 * `zlib.crc32` needs Node 20.15 or 22.2 (package.json `engines`).
 *
 * One worker for the process, started on first use and holding the process open only while
 * an answer is awaited. Its code is plain JavaScript, started without the parent's Node
 * options, for the reasons given in tree-writer.ts.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';

/** A content compressed: CRC-32 and size (bytes) before compression, and the raw DEFLATE stream (RFC 1951). */
export interface Deflated {
  crc: number;
  size: number;
  data: Uint8Array<ArrayBuffer>;
}

/** zlib's default level: the zips' bytes depend on it, in both threads. */
const LEVEL = 6;

/**
 * Compresses `content` (text as UTF-8) on the calling thread: the same bytes as
 * {@link deflateInWorker}, for the odd content not compressed beforehand.
 */
export function deflateHere(content: string | Uint8Array): Deflated {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const out = deflateRawSync(bytes, { level: LEVEL });
  // zlib's output is never a SharedArrayBuffer; the view is what fflate's types ask for.
  return { crc: crc32(bytes), size: bytes.byteLength, data: new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength) };
}

/** The worker's side, {@link deflateHere} again in plain JavaScript; `workerData` is `{ level }`. */
const WORKER_SOURCE = String.raw`
const { crc32, deflateRawSync } = require('node:zlib');
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', ({ id, contents }) => {
  const results = [];
  try {
    for (const content of contents) {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      // A copy with its own ArrayBuffer, handed over without another copy.
      const data = new Uint8Array(deflateRawSync(bytes, { level: workerData.level }));
      results.push({ crc: crc32(bytes), size: bytes.byteLength, data });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: error.message });
    return;
  }
  parentPort.postMessage({ id, results }, results.map((r) => r.data.buffer));
});
`;

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (results: Deflated[]) => void; reject: (error: Error) => void }>();

function started(): Worker {
  if (worker !== undefined) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { level: LEVEL } });
  started.unref();
  const fail = (error: Error): void => {
    if (worker === started) worker = undefined;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  started.on('error', (error) => fail(new Error(`the compression thread stopped: ${error.message}`, { cause: error })));
  started.on('exit', () => fail(new Error('the compression thread ended')));
  started.on('message', ({ id, results, error }: { id: number; results?: Deflated[]; error?: string }) => {
    const w = waiting.get(id);
    waiting.delete(id);
    if (waiting.size === 0) started.unref();
    if (error !== undefined) w?.reject(new Error(`compression failed: ${error}`));
    else w?.resolve(results ?? []);
  });
  worker = started;
  return started;
}

/**
 * Compresses every one of `contents` (text as UTF-8) in the worker thread.
 * @returns one {@link Deflated} for each content, in order.
 * @throws Error when the worker fails or stops.
 */
export function deflateInWorker(contents: readonly (string | Uint8Array)[]): Promise<Deflated[]> {
  const thread = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    thread.ref();
    thread.postMessage({ id, contents });
  });
}
