/**
 * Following rebuilds: `loadout build` switches `--out` from one whole tree to the next with one
 * rename of a symbolic link (src/tree/write/output.ts). This watches for that switch and loads
 * the new tree as the next generation (generation.ts), within a second of the switch
 * (DESIGN.md section 7, "Operation").
 *
 * Two signals, either enough: `fs.watch` on the folder holding `--out` (a rename there is an
 * event at once, where the platform reports it), and a poll of the link's target every
 * `pollMs` as the fallback for file systems that report nothing (network mounts, some
 * containers). Each signal only compares the link's real target with the one in service, which
 * costs one `realpath`.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { loadGeneration, type Generation, type GenerationAppFactory, type GenerationHolder } from './generation.js';

/** What {@link followRebuilds} reports. */
export interface FollowEvents {
  /** A new generation is in service; `swapMs` is from noticing the switch to serving it. */
  swapped(generation: Generation, swapMs: number): void;
  /** The tree at `root` could not be loaded; the old generation keeps serving. */
  failed(root: string, error: unknown): void;
}

/** Options of {@link followRebuilds}. */
export interface FollowOptions {
  /** Poll interval in milliseconds (default 500: a switch is seen within a second even without events). */
  pollMs?: number;
}

/** A running follower. */
export interface Follower {
  /** Checks the link now (also what the watcher and the poll call); resolves once any load it starts is done. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Watches `out` and swaps a new generation into `holder` whenever its target changes. One load
 * runs at a time; a switch seen during a load is checked again when it ends. A tree that fails
 * to load is not tried again until the link moves on.
 */
export function followRebuilds(out: string, holder: GenerationHolder, makeApp: GenerationAppFactory, events: FollowEvents, options: FollowOptions = {}): Follower {
  const target = resolve(out);
  let failedRoot: string | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const loadIfSwitched = async (): Promise<void> => {
    const noticed = performance.now();
    const root = await realpath(target).catch(() => undefined);
    const live = holder.current();
    if (root === undefined || stopped || root === live?.root || root === failedRoot) return;
    try {
      const next = await loadGeneration(target, (live?.number ?? 0) + 1, makeApp, undefined);
      if (stopped) return;
      holder.swap(next);
      failedRoot = undefined;
      events.swapped(next, performance.now() - noticed);
    } catch (error) {
      failedRoot = root;
      events.failed(root, error);
    }
  };

  const check = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await loadIfSwitched();
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(target), { persistent: false }, (_event, name) => {
      if (name === null || name === basename(target)) void check();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined; // the poll still follows
  }
  const poll = setInterval(() => void check(), options.pollMs ?? 500);
  poll.unref();

  return {
    check,
    stop() {
      stopped = true;
      clearInterval(poll);
      watcher?.close();
    },
  };
}
