/**
 * The load generator of `bench/search.ts`, run as a second process (`child_process.fork`):
 * keeps `concurrency` requests in flight over keep-alive connections for `warmupSeconds` and
 * then `seconds`, taking the given requests in order (starting over at the end, which it
 * reports as `wrapped`), and reports latency percentiles (ms) and requests per second.
 * Loopback only; Node's own `http`, no dependency.
 */
import { Agent, request } from 'node:http';

/** One request of a scenario. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the parent sends. */
export interface ClientJob {
  url: string;
  requests: BenchRequest[];
  concurrency: number;
  warmupSeconds: number;
  seconds: number;
}

/** What the client sends back. */
export interface ClientReport {
  /** Requests answered while recording (after the warm-up). */
  requests: number;
  /** Requests answered in all, warm-up included (for costs per request). */
  answered: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
  /** True when the requests ran out and were sent again (so an all-different run was not). */
  wrapped: boolean;
}

function once(agent: Agent, base: URL, r: BenchRequest): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ agent, host: base.hostname, port: base.port, method: r.method, path: r.path, headers: { ...r.headers, ...(r.body === undefined ? {} : { 'content-length': Buffer.byteLength(r.body) }) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.end(r.body);
  });
}

async function run(job: ClientJob): Promise<ClientReport> {
  const base = new URL(job.url);
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let answered = 0;
  let next = 0;
  let recording = false;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const r = job.requests[next++ % job.requests.length] as BenchRequest;
      const start = process.hrtime.bigint();
      const ok = await once(agent, base, r);
      answered++;
      if (!recording) continue;
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!ok) errors++;
    }
  };
  const workers = Array.from({ length: job.concurrency }, worker);
  await new Promise((r) => setTimeout(r, job.warmupSeconds * 1000));
  recording = true;
  const started = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, job.seconds * 1000));
  stop = true;
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(workers);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { requests: latencies.length, answered, errors, p50: at(0.5), p99: at(0.99), rps: latencies.length / elapsed, wrapped: next > job.requests.length };
}

process.once('message', (job: ClientJob) => {
  void run(job).then((report) => {
    process.send?.(report);
    process.disconnect?.();
  });
});
