/**
 * dev/watch.ts with the real @parcel/watcher in its watcher process: signals that stopped it
 * when it ran in the session's own process, a watcher process killed, a failing start while
 * the folder is gone, and watching again once it is back; and a watcher process whose parent
 * went while it was still loading.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { watchFolder, type WatchHandlers } from '../../src/dev/watch.js';
import { soon } from '../helpers/soon.js';
import { makeTempDir } from '../helpers/temp.js';
import { signalThreads } from '../helpers/threads.js';

/** A folder to watch, and handlers that record what they are told; `onStop` runs in `stopped`. */
function watched(onStop?: (count: number) => void): { dir: string; parent: string; paths: string[]; stops: string[]; resumed: () => number; handlers: WatchHandlers } {
  const parent = makeTempDir();
  const dir = join(parent, 'loadouts');
  mkdirSync(dir);
  const paths: string[] = [];
  const stops: string[] = [];
  let resumed = 0;
  return {
    dir,
    parent,
    paths,
    stops,
    resumed: () => resumed,
    handlers: {
      changed: (changed) => paths.push(...changed),
      stopped: (error) => {
        stops.push(error.message);
        onStop?.(stops.length);
      },
      resumed: () => resumed++,
    },
  };
}

describe('watchFolder', () => {
  it('keeps watching while signals land on every thread, of this process and of the watcher process', async () => {
    const w = watched();
    const watch = await watchFolder(w.dir, w.handlers);
    onTestFinished(() => watch.close());
    // Handled here, as Node handles SIGWINCH on a terminal: in this process, a thread's poll(2) is interrupted.
    const handled = (): void => undefined;
    process.on('SIGWINCH', handled);
    onTestFinished(() => void process.off('SIGWINCH', handled));
    for (let i = 0; i < 10; i++) {
      signalThreads(process.pid, constants.signals.SIGWINCH);
      signalThreads(watch.pid as number, constants.signals.SIGWINCH);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    writeFileSync(join(w.dir, 'after.md'), 'seen\n');
    expect(await soon(() => w.paths.includes(join(w.dir, 'after.md')), 10_000)).toBe(true);
    expect(w.stops).toEqual([]);
  }, 60_000);

  it('starts another watcher process when one is killed, reports a failing start once, and watches again', async () => {
    // The folder moves away before the first start again (0 ms later): that start fails.
    const w = watched((count) => count === 1 && renameSync(join(w.parent, 'loadouts'), join(w.parent, 'away')));
    const watch = await watchFolder(w.dir, w.handlers);
    onTestFinished(() => watch.close());
    writeFileSync(join(w.dir, 'before.md'), 'seen\n');
    expect(await soon(() => w.paths.includes(join(w.dir, 'before.md')), 10_000)).toBe(true);

    const first = watch.pid as number;
    process.kill(first, 'SIGKILL');
    expect(await soon(() => w.stops.length > 1, 10_000), 'the failing start is reported').toBe(true);
    expect(w.stops[0]).toBe('the watcher process ended (SIGKILL)');
    expect(w.stops[1]).toMatch(/^no folder at .*loadouts/u);
    // Starts 1 s and then 5 s apart fail the same way: not reported again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(w.stops).toHaveLength(2);
    expect(w.resumed()).toBe(0);
    expect(watch.pid).toBeUndefined();

    renameSync(join(w.parent, 'away'), w.dir);
    expect(await soon(() => w.resumed() === 1, 15_000), 'watching again once the folder is back').toBe(true);
    expect(watch.pid).not.toBe(first);
    writeFileSync(join(w.dir, 'after.md'), 'seen again\n');
    expect(await soon(() => w.paths.includes(join(w.dir, 'after.md')), 10_000)).toBe(true);
  }, 60_000);

  it('stops starting watchers when closed, and ends its watcher process', async () => {
    const w = watched((count) => count === 1 && renameSync(join(w.parent, 'loadouts'), join(w.parent, 'away')));
    const watch = await watchFolder(w.dir, w.handlers);
    process.kill(watch.pid as number, 'SIGKILL');
    expect(await soon(() => w.stops.length > 1, 10_000)).toBe(true);
    await watch.close();
    renameSync(join(w.parent, 'away'), w.dir);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(w.resumed()).toBe(0);

    const again = await watchFolder(w.dir, w.handlers);
    const pid = again.pid as number;
    await again.close();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/u);
  }, 60_000);

  it('refuses a folder it cannot watch, with the watcher\'s message', async () => {
    const w = watched();
    await expect(watchFolder(join(w.dir, 'missing'), w.handlers)).rejects.toThrow(/^no folder at .*missing /u);
  }, 60_000);

  it('ends when its parent went while it was still loading', async () => {
    const w = watched();
    // A parent that forks the watcher process as watch.ts does, prints its id and exits at once.
    const script = `const { fork } = require('node:child_process');
const child = fork(${JSON.stringify(WATCH_MAIN)}, [${JSON.stringify(w.dir)}], { execArgv: ['--import', 'tsx'], detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
process.stdout.write(String(child.pid));
process.exit(0);`;
    // Its output only: the watcher process holds none of the pipes, which would keep execFileSync waiting.
    const pid = Number(execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    onTestFinished(() => void (ended(pid) || process.kill(pid, 'SIGKILL')));
    expect(pid).toBeGreaterThan(0);
    expect(await soon(() => ended(pid), 20_000), 'the orphaned watcher process still runs').toBe(true);
  }, 60_000);
});

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const WATCH_MAIN = fileURLToPath(new URL('../../src/dev/watch-main.ts', import.meta.url));

/** True when process `pid` is gone, or a zombie no one has reaped yet (/proc/<pid>/stat). */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}
