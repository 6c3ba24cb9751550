/**
 * Gives memory back once the server goes idle (DESIGN.md section 7: under 150 MB resident when
 * idle; `bench/search.ts` measures it). Under load V8 grows its heap to several times what is
 * live, and keeps it until its memory reducer judges the process idle, which it does from the
 * allocation rate it last sampled: that can be a minute or more after the last request, with
 * the heap over the target meanwhile. After `idleMs` without a request this switches V8 to
 * optimising for size (`--optimize-for-size`, which V8 reads at every collection, so the memory
 * reducer runs within about 10 s), and the next request switches it back: under load the
 * setting costs CPU per request (`bench/search.ts` prints the server's CPU time per request).
 */
import { setFlagsFromString } from 'node:v8';

/** The idle tracker of one server. */
export interface IdleMemory {
  /** Called on every request. */
  touch(): void;
  /** Stops the timer and leaves V8 as it was at start. */
  stop(): void;
}

/**
 * Starts tracking; the timer never keeps the process alive. `idleMs` defaults to 5,000;
 * `setFlags` is how V8's flags are set (default `node:v8`'s `setFlagsFromString`; tests watch it).
 */
export function releaseMemoryWhenIdle(idleMs = 5_000, setFlags: (flags: string) => void = setFlagsFromString): IdleMemory {
  let last = performance.now();
  let sizeMode = false;
  const setSizeMode = (on: boolean): void => {
    sizeMode = on;
    setFlags(on ? '--optimize-for-size' : '--no-optimize-for-size');
  };
  const timer = setInterval(() => {
    if (!sizeMode && performance.now() - last >= idleMs) setSizeMode(true);
  }, Math.max(1, Math.floor(idleMs / 2)));
  timer.unref();
  return {
    touch() {
      last = performance.now();
      if (sizeMode) setSizeMode(false);
    },
    stop() {
      clearInterval(timer);
      if (sizeMode) setSizeMode(false);
    },
  };
}
