/**
 * `loadout dev` (src/dev/session.ts) loses no save made while it starts: a save at each moment
 * of the start (`DevOptions.onStart`: the watcher subscribed, the first build having read the
 * loadout, the first build ended, the server listening) shows in the served tree. Each save is
 * made inside the moment's callback, so it lands exactly then; the test waits for the build
 * that names the loadout, with a bounded timeout, never a sleep.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DevReport } from '../../src/dev/report.js';
import { startDevSession, type DevStartMoment } from '../../src/dev/session.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** How long the save may take to come back as a build (a build on a machine shared with other work). */
const BUILD_TIMEOUT_MS = 60_000;

describe('loadout dev while it starts', () => {
  it.each<DevStartMoment['kind']>(['watching', 'read', 'built', 'listening'])('builds a save made at the moment "%s"', async (moment) => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    writeLoadout(root, { id: 'beta' });
    commitAll(root, 'two loadouts');
    const agents = join(root, 'loadouts', 'alpha', 'AGENTS.md');
    const marker = `Marker: saved at the moment ${moment} of the start.`;
    const moments: string[] = [];
    let savedAt = -1;
    const builds: DevReport[] = [];
    let built: (report: DevReport) => void = () => undefined;
    const alphaBuilt = new Promise<DevReport>((resolve) => (built = resolve));
    const session = await startDevSession({
      root,
      out: join(root, 'dist'),
      baseUrl: 'http://127.0.0.1:8787',
      host: '127.0.0.1',
      port: 0,
      onStart: (m) => {
        moments.push(m.kind === 'read' ? `read ${m.id}` : m.kind);
        if (savedAt >= 0 || m.kind !== moment || (m.kind === 'read' && m.id !== 'alpha')) return;
        writeFileSync(agents, `${readFileSync(agents, 'utf8')}\n${marker}\n`);
        savedAt = builds.length;
      },
      onBuild: (report) => {
        builds.push(report);
        // A build after the save that names alpha built: the save was seen (at 'watching' the first build read it too).
        if (savedAt >= 0 && builds.length > savedAt && report.loadouts.some((l) => l.id === 'alpha' && l.state === 'built')) built(report);
      },
    });
    onTestFinished(() => session.close());
    // The first build reads the two loadouts in either order.
    expect([moments[0], ...moments.slice(1, 3).sort(), ...moments.slice(3)]).toEqual(['watching', 'read alpha', 'read beta', 'built', 'listening']);
    expect(savedAt, `no save was made at ${moment}`).toBeGreaterThanOrEqual(0);

    const timedOut = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new Error(`the save at ${moment} was not built within ${BUILD_TIMEOUT_MS} ms; builds: ${JSON.stringify(builds.map((b) => b.loadouts.map((l) => `${l.id} ${l.state}`)))}`)), BUILD_TIMEOUT_MS);
      onTestFinished(() => clearTimeout(timer));
    });
    await Promise.race([alphaBuilt, timedOut]);
    expect(await (await fetch(`${session.url}/api/loadouts/alpha.json`)).text()).toContain(marker);
  }, 120_000);
});
