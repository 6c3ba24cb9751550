/**
 * Runs `work` over `items` with at most `limit` calls in flight; results keep the order of
 * `items`. After the first rejection no new call starts, and the promise rejects with that
 * error once the calls in flight have settled (so a caller can clean up safely).
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/** `items` in consecutive slices of `size` (the last may be shorter). Pure. */
export function slicesOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Like `Promise.all`, but settles only once every promise has: the values in order, or the
 * first of them (in order) that rejected, thrown after the others ended. For work that writes
 * where the caller cleans up on failure: nothing still writes when the error comes.
 */
export async function allSettled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<T>).value);
}
