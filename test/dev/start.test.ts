/**
 * `loadout dev` (src/dev/session.ts) loses no save made while it starts: a save at each moment
 * of the start (`DevOptions.onStart`: the watcher subscribed, the first build having read the
 * loadout, the first build ended, the server listening) shows in the served tree. Each save is
 * made inside the moment's callback, so it lands exactly then; the test waits for the build
 * that names the loadout, with a bounded timeout, never a sleep. And the command itself, as a
 * process, builds a save made as soon as it prints where it serves.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEV_PATHS } from '../../src/dev/client-script.js';
import type { DevReport } from '../../src/dev/report.js';
import { startDevSession, type DevStartMoment } from '../../src/dev/session.js';
import { freePort } from '../helpers/free-port.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** How long the save may take to come back as a build (a build on a machine shared with other work). */
const BUILD_TIMEOUT_MS = 60_000;
const CLI_ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const REPO = fileURLToPath(new URL('../..', import.meta.url));

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

  it('as the command: builds a save made as soon as the server first answers', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    writeLoadout(root, { id: 'beta' });
    commitAll(root, 'two loadouts');
    const port = await freePort();
    // From this repository's folder: the watcher and git helper processes, run from the sources, import tsx from there.
    const child = spawn(process.execPath, ['--import', TSX, CLI_ENTRY, '--root', root, 'dev', '--port', String(port), '--out', join(root, 'dist')], { cwd: REPO, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Ended, and waited for, before its folder is removed (hooks run last registered first).
    const closed = once(child, 'close');
    onTestFinished(async () => {
      child.kill('SIGTERM');
      await closed;
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    /** Resolves with the first match of `pattern` in what the command printed, once it is there. */
    const printed = (pattern: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const look = (): boolean => {
          const match = pattern.exec(stdout);
          if (match !== null) resolve(match);
          return match !== null;
        };
        if (look()) return;
        const timer = setTimeout(() => reject(new Error(`${pattern} not printed within ${BUILD_TIMEOUT_MS} ms; stdout: ${stdout}; stderr: ${stderr}`)), BUILD_TIMEOUT_MS);
        const onData = (): void => {
          if (!look()) return;
          clearTimeout(timer);
          child.stdout.off('data', onData);
          child.off('close', onClose);
        };
        const onClose = (code: number | null): void => {
          clearTimeout(timer);
          reject(new Error(`loadout dev exited (${String(code)}); stdout: ${stdout}; stderr: ${stderr}`));
        };
        child.stdout.on('data', onData);
        child.once('close', onClose);
      });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));

    // Asked every 10 ms until it answers (the old session answered before it watched, and lost this save).
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + BUILD_TIMEOUT_MS;
    while (!(await fetch(`${url}${DEV_PATHS.report}`).then((r) => r.ok, () => false))) {
      expect(Date.now() < deadline && child.exitCode === null, `loadout dev did not answer; stdout: ${stdout}; stderr: ${stderr}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const agents = join(root, 'loadouts', 'alpha', 'AGENTS.md');
    const marker = 'Marker: saved as soon as loadout dev answered.';
    writeFileSync(agents, `${readFileSync(agents, 'utf8')}\n${marker}\n`);
    await printed(/built in \d+ ms: alpha built/u);
    expect(await (await fetch(`${url}/api/loadouts/alpha.json`)).text()).toContain(marker);
  }, 120_000);
});
