/**
 * How many submission bodies one client address may be sending at once before any credential
 * of theirs has passed (issue 53, point 7: 40 unauthenticated POSTs from one address, each
 * trickling a byte every 5 s, were all read at once). A browser's credential, the form token,
 * is inside the body, so its body is read first: it holds a slot of its address from the moment
 * the server starts reading it until it has arrived, failed or run out of its deadline
 * (body.ts); past the cap, the submission is answered 429 `rate_limited` with `Retry-After`
 * before its body is read (routes.ts). A body sent with an API key that passed holds a place in
 * the checks' queue instead (check-queue.ts), so that nobody sharing an address with a flood of
 * unauthenticated bodies is held back by it. Addresses are counted as the rate limits count
 * them (`rateLimitAddress`: an IPv6 prefix is one address). The count lives in this process: a
 * connection, and so a body, belongs to one instance.
 */

/** Default bodies without an API key one address may be sending at once (`LOADOUT_BODIES_PER_ADDRESS`). */
export const DEFAULT_BODIES_PER_ADDRESS = 4;

/**
 * The seconds a refused client is told to wait (`Retry-After`, RFC 9110 section 10.2.3). A
 * body arrives in well under a second on any ordinary link, and none is read past its deadline.
 */
export const BODIES_RETRY_AFTER_SECONDS = 5;

/** The bodies being read now, per address, at most `cap` each. */
export class BodiesPerAddress {
  readonly cap: number;
  readonly #reading = new Map<string, number>();

  /** @throws RangeError when `cap` is not a whole number of at least 1 */
  constructor(cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`BodiesPerAddress: cap is ${cap} (expected a whole number of at least 1)`);
    this.cap = cap;
  }

  /**
   * A slot for one more body from `address` (a rate-limit key), as the function that gives it
   * back (once, however often it is called); undefined when `address` holds `cap` already.
   */
  take(address: string): (() => void) | undefined {
    const held = this.#reading.get(address) ?? 0;
    if (held >= this.cap) return undefined;
    this.#reading.set(address, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#reading.get(address) ?? 1) - 1;
      if (left === 0) this.#reading.delete(address);
      else this.#reading.set(address, left);
    };
  }

  /** Bodies being read now from `address`. */
  reading(address: string): number {
    return this.#reading.get(address) ?? 0;
  }
}
