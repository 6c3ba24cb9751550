/**
 * The bounded queue in front of the submission checks (issue 35, point 6: 800 submissions whose
 * clients had gone were all held, checked and stored, peaking at about 500 MB resident, while
 * static requests slowed tenfold). At most `running` submissions are checked at once (the check
 * threads, check-pool.ts) and at most `waiting` more wait for a turn, first come first served;
 * a submission past that is refused at once (503 with `Retry-After`, routes.ts), before its body
 * is read when the queue is already full. A waiting submission whose client goes away leaves
 * the queue at once, and its checks never run.
 */

/** The seconds a refused client is told to wait (`Retry-After`, RFC 9110 section 10.2.3). */
export const QUEUE_RETRY_AFTER_SECONDS = 5;

/** Default submissions that may wait for the checks (`LOADOUT_CHECKS_QUEUE`). */
export const DEFAULT_CHECKS_QUEUE = 32;

/** What {@link CheckQueue.enter} gave. */
export type QueueTurn =
  /** The caller's turn: run the checks, then call `leave` (once). */
  | { kind: 'admitted'; leave: () => void }
  /** Every place is taken: nothing was queued. */
  | { kind: 'full' }
  /** The signal aborted (the client left) before the turn came: nothing runs. */
  | { kind: 'abandoned' };

/** Options of {@link CheckQueue}. */
export interface CheckQueueOptions {
  /** Submissions checked at once (at least 1): the check threads. */
  running: number;
  /** Submissions that may wait for a turn besides (0 or more). */
  waiting: number;
}

/** A first-come-first-served gate of `running` places with `waiting` places to wait in. */
export class CheckQueue {
  readonly running: number;
  readonly waiting: number;
  #active = 0;
  readonly #queue: { admit: () => void; abandon: () => void }[] = [];

  /** @throws RangeError when `running` is below 1 or `waiting` below 0, or either is not a whole number */
  constructor(options: CheckQueueOptions) {
    if (!Number.isInteger(options.running) || options.running < 1) throw new RangeError(`CheckQueue: running is ${options.running} (expected a whole number of at least 1)`);
    if (!Number.isInteger(options.waiting) || options.waiting < 0) throw new RangeError(`CheckQueue: waiting is ${options.waiting} (expected a whole number of at least 0)`);
    this.running = options.running;
    this.waiting = options.waiting;
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
    return this.#active >= this.running && this.#queue.length >= this.waiting;
  }

  /**
   * Takes a place: at once when fewer than `running` are being checked, else after those queued
   * before it; `full` when every place to wait is taken too; `abandoned` when `signal` aborts
   * first (then the place is given back at once).
   */
  enter(signal?: AbortSignal): Promise<QueueTurn> {
    if (signal?.aborted === true) return Promise.resolve({ kind: 'abandoned' });
    if (this.#active < this.running) return Promise.resolve(this.#admit());
    if (this.#queue.length >= this.waiting) return Promise.resolve({ kind: 'full' });
    return new Promise((resolve) => {
      const entry = {
        admit: () => {
          signal?.removeEventListener('abort', entry.abandon);
          resolve(this.#admit());
        },
        abandon: () => {
          const at = this.#queue.indexOf(entry);
          if (at >= 0) this.#queue.splice(at, 1);
          resolve({ kind: 'abandoned' });
        },
      };
      this.#queue.push(entry);
      signal?.addEventListener('abort', entry.abandon, { once: true });
    });
  }

  #admit(): QueueTurn {
    this.#active++;
    let left = false;
    return {
      kind: 'admitted',
      leave: () => {
        if (left) return;
        left = true;
        this.#active--;
        this.#queue.shift()?.admit();
      },
    };
  }
}
