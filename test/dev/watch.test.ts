/**
 * dev/watch.ts with the real @parcel/watcher: a stop by a signal, a failing attempt to watch
 * again while the folder is gone, and watching again once it is back.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { watchFolder } from '../../src/dev/watch.js';
import { soon } from '../helpers/soon.js';
import { makeTempDir } from '../helpers/temp.js';
import { interruptWatchers } from '../helpers/threads.js';

describe('watchFolder', () => {
  it('reports a stop, reports a failing retry once, and watches again when it can', async () => {
    const parent = makeTempDir();
    const dir = join(parent, 'loadouts');
    mkdirSync(dir);
    const stops: string[] = [];
    const paths: string[] = [];
    let resumed = 0;
    const watch = await watchFolder(dir, {
      changed: (events) => paths.push(...events.map((e) => e.path)),
      // The folder moves away before the first retry (0 ms later): that retry fails.
      stopped: (error) => {
        stops.push(error.message);
        if (stops.length === 1) renameSync(dir, join(parent, 'away'));
      },
      resumed: () => resumed++,
    });
    onTestFinished(() => watch.close());
    writeFileSync(join(dir, 'before.md'), 'seen\n');
    expect(await soon(() => paths.includes(join(dir, 'before.md')), 10_000)).toBe(true);

    expect(await interruptWatchers(() => stops.length > 0)).toBe(true);
    expect(stops[0]).toMatch(/Interrupted system call/u);
    expect(await soon(() => stops.length > 1, 10_000), 'the failing retry is reported').toBe(true);
    expect(stops[1]).toMatch(/No such file or directory|ENOENT/u);
    // Retries 1 s and then 5 s apart fail the same way: not reported again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stops).toHaveLength(2);
    expect(resumed).toBe(0);

    renameSync(join(parent, 'away'), dir);
    expect(await soon(() => resumed === 1, 15_000), 'watching again once the folder is back').toBe(true);
    writeFileSync(join(dir, 'after.md'), 'seen again\n');
    expect(await soon(() => paths.includes(join(dir, 'after.md')), 10_000)).toBe(true);
  }, 60_000);

  it('stops retrying when closed', async () => {
    const parent = makeTempDir();
    const dir = join(parent, 'loadouts');
    mkdirSync(dir);
    let resumed = 0;
    const stops: string[] = [];
    const watch = await watchFolder(dir, {
      changed: () => undefined,
      stopped: (error) => {
        stops.push(error.message);
        if (stops.length === 1) renameSync(dir, join(parent, 'away'));
      },
      resumed: () => resumed++,
    });
    expect(await interruptWatchers(() => stops.length > 0)).toBe(true);
    expect(await soon(() => stops.length > 1, 10_000)).toBe(true);
    await watch.close();
    renameSync(join(parent, 'away'), dir);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(resumed).toBe(0);
  }, 60_000);
});
