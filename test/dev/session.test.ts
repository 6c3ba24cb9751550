/**
 * `loadout dev` (src/dev/session.ts) with a real server on 127.0.0.1, a real git repository and
 * real file changes: each change is waited for as the server-sent event it causes, with a
 * bounded timeout, never a sleep.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { formatDevReport } from '../../src/cli/commands/dev.js';
import { DEV_PATHS } from '../../src/dev/client-script.js';
import type { DevReport } from '../../src/dev/report.js';
import { startDevSession } from '../../src/dev/session.js';
import { BUILT_SINCE_FILE } from '../../src/tree/incremental/cache.js';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { soon } from '../helpers/soon.js';
import { childrenRunning } from '../helpers/threads.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** How long one change may take to come back as an event (a build on a machine shared with other work). */
const EVENT_TIMEOUT_MS = 60_000;

interface DevEvent {
  event: string;
  report: DevReport;
}

/**
 * Reads the session's event stream; `next(test)` resolves with the first later event that passes
 * `test`. When none comes in time, the error says which events came meanwhile and what `state()`
 * gives (the session's builds), so that a failure in CI says where the session stood.
 */
async function openEvents(url: string, state: () => unknown = () => undefined): Promise<{ next: (test: (e: DevEvent) => boolean) => Promise<DevEvent>; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${url}${DEV_PATHS.events}`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/u);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const readBlock = async (): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return block;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  // The stream opens with a comment: from here on, every event reaches this reader.
  expect(await readBlock()).toBe(': loadout dev');
  const next = async (test: (e: DevEvent) => boolean): Promise<DevEvent> => {
    const skipped: string[] = [];
    const deadline = AbortSignal.timeout(EVENT_TIMEOUT_MS);
    const timedOut = new Promise<never>((_, reject) =>
      deadline.addEventListener('abort', () => reject(new Error(`no matching event within ${EVENT_TIMEOUT_MS} ms; events meanwhile: [${skipped.join('; ')}]; state: ${JSON.stringify(state())?.slice(0, 4000) ?? 'none'}`))),
    );
    for (;;) {
      const block = await Promise.race([readBlock(), timedOut]);
      const event = /^event: (.+)$/mu.exec(block)?.[1];
      const data = /^data: (.+)$/mu.exec(block)?.[1];
      if (event === undefined || data === undefined) continue;
      const found = { event, report: JSON.parse(data) as DevReport };
      if (test(found)) return found;
      skipped.push(`${event} ${found.report.loadouts.map((l) => `${l.id} ${l.state}`).join(', ')}`);
    }
  };
  return { next, close: () => controller.abort() };
}

const about = (id: string, state: string) => (e: DevEvent): boolean => e.report.loadouts.some((l) => l.id === id && l.state === state);

describe('loadout dev', () => {
  it('rebuilds a changed loadout and reloads the pages, shows a broken manifest without stopping, and follows new and deleted folders', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    writeLoadout(root, { id: 'beta' });
    commitAll(root, 'two loadouts');
    const builds: DevReport[] = [];
    const session = await startDevSession({ root, out: join(root, 'dist'), baseUrl: 'http://127.0.0.1:8787', host: '127.0.0.1', port: 0, onBuild: (r) => builds.push(r) });
    onTestFinished(() => session.close());
    expect(session.report()?.written).toBe(true);
    // On a timeout: how many builds ran, and the last one's report (when, how long, what it said).
    const events = await openEvents(session.url, () => ({ builds: builds.length, last: session.report() }));
    onTestFinished(() => events.close());

    // One loadout's file saved: its record and page change, and the page carries the dev script.
    const agents = join(root, 'loadouts', 'alpha', 'AGENTS.md');
    const original = readFileSync(agents, 'utf8');
    writeFileSync(agents, `${original}\nMarker one: saved while the server ran.\n`);
    const reload = await events.next(about('alpha', 'built'));
    expect(reload.event).toBe('reload');
    const alpha = reload.report.loadouts.find((l) => l.id === 'alpha');
    expect(Object.keys(alpha?.context ?? {}).sort()).toEqual([...PUBLISHED_AGENTS].sort());
    expect(alpha?.checks.map((c) => c.id)).toContain('listing');
    expect(await (await fetch(`${session.url}/api/loadouts/alpha.json`)).text()).toContain('Marker one');
    const page = await (await fetch(`${session.url}/loadouts/alpha/`)).text();
    expect(page).toContain(`<script src="${DEV_PATHS.script}" defer></script>`);
    expect((await fetch(`${session.url}${DEV_PATHS.script}`)).headers.get('content-type')).toMatch(/^text\/javascript/u);
    expect(formatDevReport(reload.report).out).toMatch(/alpha: context claude-code \d+\+\d+/u);

    // A broken manifest: refused with its finding, on the page's report and in the terminal; the last tree stays served.
    const manifest = join(root, 'loadouts', 'alpha', 'loadout.yaml');
    const goodManifest = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, 'id: [unclosed\n');
    const refused = await events.next(about('alpha', 'refused'));
    expect(refused.event).toBe('refused');
    const failing = refused.report.loadouts[0]?.checks.filter((c) => c.status === 'fail') ?? [];
    expect(failing.length).toBeGreaterThan(0);
    expect(formatDevReport(refused.report).err).toMatch(/loadout: alpha: \S+ fails: /u);
    expect(await (await fetch(`${session.url}${DEV_PATHS.report}`)).json()).toEqual(refused.report);
    expect((await fetch(`${session.url}/`)).status).toBe(200);
    expect(await (await fetch(`${session.url}/api/loadouts/alpha.json`)).text()).toContain('Marker one');
    writeFileSync(manifest, goodManifest);
    expect((await events.next(about('alpha', 'built'))).event).toBe('reload');

    // A new folder appears, a deleted one goes.
    writeLoadout(root, { id: 'gamma' });
    await events.next((e) => e.event === 'reload' && about('gamma', 'built')(e));
    expect((await fetch(`${session.url}/api/loadouts/gamma.json`)).status).toBe(200);
    rmSync(join(root, 'loadouts', 'beta'), { recursive: true });
    await events.next((e) => e.event === 'reload' && about('beta', 'removed')(e));
    expect((await fetch(`${session.url}/api/loadouts/beta.json`)).status).toBe(404);
    expect(builds.at(-1)?.written).toBe(true);

    // The documents that list every loadout follow the reload: then the list has the change, and
    // the tree on disk is whole (no loadout left for the next build to read again).
    // A file directly in loadouts/ belongs to no loadout: no build names it.
    writeFileSync(join(root, 'loadouts', 'NOTES.md'), 'Notes of the catalogue, not a loadout.\n');
    const gammaManifest = join(root, 'loadouts', 'gamma', 'loadout.yaml');
    const summary = 'Gamma, changed while loadout dev ran; the list follows the reload of its own page.';
    writeFileSync(gammaManifest, readFileSync(gammaManifest, 'utf8').replace(/^summary: .*$/mu, `summary: ${summary}`));
    await events.next((e) => e.event === 'reload' && about('gamma', 'built')(e));
    await events.next((e) => e.event === 'documents');
    const list = (await (await fetch(`${session.url}/api/loadouts.json`)).json()) as { loadouts: { id: string; summary: string }[] };
    expect(list.loadouts.find((l) => l.id === 'gamma')?.summary).toBe(summary);
    expect(existsSync(join(root, 'dist', BUILT_SINCE_FILE))).toBe(false);
    expect(builds.flatMap((b) => b.loadouts.map((l) => l.id))).not.toContain('NOTES.md');

    // The same bytes saved again: a build, and no event (no page reloads, and its documents
    // reload none); the next event is the next real change's reload.
    const count = builds.length;
    writeFileSync(gammaManifest, readFileSync(gammaManifest, 'utf8'));
    expect(await soon(() => builds.length !== count, EVENT_TIMEOUT_MS), 'no build after the same bytes were saved').toBe(true);
    expect(builds.at(-1)?.loadouts.map((l) => [l.id, l.state])).toEqual([['gamma', 'built']]);
    const gammaAgents = join(root, 'loadouts', 'gamma', 'AGENTS.md');
    const changedAt = new Date().toISOString();
    writeFileSync(gammaAgents, `${readFileSync(gammaAgents, 'utf8')}\nChanged after the same bytes were saved.\n`);
    const after = await events.next(() => true);
    expect(after.event).toBe('reload');
    expect(after.report.loadouts.map((l) => l.id)).toEqual(['gamma']);
    expect(after.report.at >= changedAt, `the reload came from the build of ${after.report.at}, before the change at ${changedAt}`).toBe(true);
  }, 240_000);

  it('watches again after its watcher process was killed, and builds what changed while nothing watched', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    writeLoadout(root, { id: 'beta' });
    writeLoadout(root, { id: 'gamma' });
    commitAll(root, 'three loadouts');
    const agents = join(root, 'loadouts', 'alpha', 'AGENTS.md');
    const stops: Error[] = [];
    const session = await startDevSession({
      root,
      out: join(root, 'dist'),
      baseUrl: 'http://127.0.0.1:8787',
      host: '127.0.0.1',
      port: 0,
      // Saved and removed while nothing watches: the callback runs before the session subscribes again.
      onWatchError: (error) => {
        stops.push(error);
        if (stops.length > 1) return;
        writeFileSync(agents, `${readFileSync(agents, 'utf8')}\nMarker two: saved while nothing watched.\n`);
        rmSync(join(root, 'loadouts', 'gamma'), { recursive: true });
      },
    });
    onTestFinished(() => session.close());
    const events = await openEvents(session.url);
    onTestFinished(() => events.close());

    const [watcher] = childrenRunning('watch-main');
    expect(watcher, 'the session\'s watcher process').toBeDefined();
    process.kill(watcher as number, 'SIGKILL');
    expect(await soon(() => stops.length > 0, 10_000)).toBe(true);
    expect(stops[0]?.message).toBe('the watcher process ended (SIGKILL)');
    const caught = await events.next(about('alpha', 'built'));
    expect(caught.event).toBe('reload');
    expect(caught.report.loadouts.map((l) => [l.id, l.state])).toEqual([
      ['alpha', 'built'],
      ['gamma', 'removed'],
    ]);
    expect(await (await fetch(`${session.url}/api/loadouts/alpha.json`)).text()).toContain('Marker two');
    expect((await fetch(`${session.url}/api/loadouts/gamma.json`)).status).toBe(404);

    // And it watches: the next save is seen as before.
    const beta = join(root, 'loadouts', 'beta', 'AGENTS.md');
    writeFileSync(beta, `${readFileSync(beta, 'utf8')}\nMarker three: saved once it watched again.\n`);
    const seen = await events.next(about('beta', 'built'));
    expect(seen.event).toBe('reload');
    expect(await (await fetch(`${session.url}/api/loadouts/beta.json`)).text()).toContain('Marker three');
    expect(stops).toHaveLength(1);
  }, 120_000);

  it('refuses a port that is taken, naming it', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    commitAll(root, 'alpha');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void taken.close());
    const port = (taken.address() as AddressInfo).port;
    await expect(startDevSession({ root, out: join(root, 'dist'), baseUrl: 'http://127.0.0.1:8787', host: '127.0.0.1', port })).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  }, 120_000);
});
