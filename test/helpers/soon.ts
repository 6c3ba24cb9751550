/**
 * Test helper: waiting for what another process or the event loop does by itself (a detached
 * deleter, a watcher's build, a process's exit).
 */

/**
 * Resolves true once `holds()` is true, checked at once and then every 50 ms; false when it
 * still is not after `timeoutMs` (default 60,000 ms).
 */
export async function soon(holds: () => boolean, timeoutMs = 60_000): Promise<boolean> {
  for (let waited = 0; ; waited += 50) {
    if (holds()) return true;
    if (waited >= timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
