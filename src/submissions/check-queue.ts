/**
 * The bounded queue in front of the submission checks (issue 35, point 6: 800 submissions whose
 * clients had gone were all read, held, checked and stored, peaking at about 500 MB resident,
 * while static requests slowed). A submission takes a place ({@link CheckQueue.reserve}) once its
 * credential has passed (issue 53, point 7: unauthenticated bodies must not hold places): an
 * agent's API key before its body is read, a browser's form token once the body is (routes.ts;
 * bodies read before any credential passed are bounded per client address instead,
 * bodies-per-address.ts).
 * At most `running + waiting` places exist, so at most that many authenticated submissions are
 * held at once, and a submission that finds none is refused at once (503 with `Retry-After`,
 * routes.ts). Holding a place, it waits for one of `running` turns at
 * the checks (the check threads, check-pool.ts), first come first served. A submission whose
 * client goes away while it waits leaves at once, and its checks never run.
 */

/** The seconds a refused client is told to wait (`Retry-After`, RFC 9110 section 10.2.3). */
export const QUEUE_RETRY_AFTER_SECONDS = 5;

/** Default submissions that may wait for the checks besides those being checked (`LOADOUT_CHECKS_QUEUE`). */
export const DEFAULT_CHECKS_QUEUE = 32;

/** Options of {@link CheckQueue}. */
export interface CheckQueueOptions {
  /** Submissions checked at once (at least 1): the check threads. */
  running: number;
  /** Submissions that may hold a place besides (0 or more): reading their body, being authenticated, or waiting for a turn. */
  waiting: number;
}

/** A submission's place in the queue. */
export interface CheckPlace {
  /**
   * Resolves true when it is this submission's turn at the checks (at once when fewer than
   * `running` are being checked, else after those that asked before it); false when `signal`
   * aborts first (the place is then given back).
   */
  turn(signal?: AbortSignal): Promise<boolean>;
  /** Gives the place (and the turn, if taken) back; once, however often it is called. */
  release(): void;
}

/** A first-come-first-served gate of `running` turns and `running + waiting` places. */
export class CheckQueue {
  readonly running: number;
  readonly waiting: number;
  #held = 0;
  #active = 0;
  readonly #queue: (() => void)[] = [];

  /** @throws RangeError when `running` is below 1 or `waiting` below 0, or either is not a whole number */
  constructor(options: CheckQueueOptions) {
    if (!Number.isInteger(options.running) || options.running < 1) throw new RangeError(`CheckQueue: running is ${options.running} (expected a whole number of at least 1)`);
    if (!Number.isInteger(options.waiting) || options.waiting < 0) throw new RangeError(`CheckQueue: waiting is ${options.waiting} (expected a whole number of at least 0)`);
    this.running = options.running;
    this.waiting = options.waiting;
  }

  /** Places held now (bodies being read, submissions waiting or being checked). */
  get held(): number {
    return this.#held;
  }

  /** Submissions being checked now. */
  get active(): number {
    return this.#active;
  }

  /** Submissions waiting for a turn now. */
  get queued(): number {
    return this.#queue.length;
  }

  /** True when a submission arriving now would be refused. */
  get full(): boolean {
    return this.#held >= this.running + this.waiting;
  }

  /** A place for one submission, or undefined when every place is taken. */
  reserve(): CheckPlace | undefined {
    if (this.full) return undefined;
    this.#held++;
    let state: 'held' | 'waiting' | 'active' | 'released' = 'held';
    let wake: (() => void) | undefined;
    const release = (): void => {
      if (state === 'released') return;
      if (state === 'waiting' && wake !== undefined) this.#queue.splice(this.#queue.indexOf(wake), 1);
      if (state === 'active') {
        this.#active--;
        this.#queue.shift()?.();
      }
      state = 'released';
      this.#held--;
    };
    const turn = (signal?: AbortSignal): Promise<boolean> => {
      if (state !== 'held') return Promise.reject(new Error(`internal error: a turn asked for by a place that is ${state}`));
      if (signal?.aborted === true) {
        release();
        return Promise.resolve(false);
      }
      if (this.#active < this.running) {
        this.#active++;
        state = 'active';
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        const abandon = (): void => {
          release();
          resolve(false);
        };
        wake = () => {
          signal?.removeEventListener('abort', abandon);
          this.#active++;
          state = 'active';
          resolve(true);
        };
        state = 'waiting';
        this.#queue.push(wake);
        signal?.addEventListener('abort', abandon, { once: true });
      });
    };
    return { turn, release };
  }
}
