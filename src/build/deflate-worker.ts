/**
 * Raw DEFLATE at level 6, with each input's CRC-32 and size, in a worker thread (issue 13:
 * compressing the files of 10,000 loadouts took 6 of the build's main-thread seconds, while the
 * second core had room). Node's own zlib in both threads, so the bytes are those that
 * `zlib.deflateRawSync` gives on the main thread (`zip.ts` falls back to it).
 *
 * One worker for the process, started on first use and holding the process open only while
 * an answer is awaited. Its code is plain JavaScript, started without the parent's Node
 * options, for the reasons given in tree-writer.ts.
 */
import { Worker } from 'node:worker_threads';

/** A content compressed: CRC-32 and size (bytes) before compression, and the raw DEFLATE stream (RFC 1951). */
export interface Deflated {
  crc: number;
  size: number;
  data: Uint8Array<ArrayBuffer>;
}

const WORKER_SOURCE = String.raw`
const { crc32, deflateRawSync } = require('node:zlib');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, contents }) => {
  const results = [];
  try {
    for (const content of contents) {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      // A copy with its own ArrayBuffer, handed over without another copy.
      const data = new Uint8Array(deflateRawSync(bytes, { level: 6 }));
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
  const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
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
