/**
 * `loadout dev`: builds the catalogue, serves it, and watches `loadouts/` (issue 37, point 1).
 *
 * Watching starts first, before the first build reads a file: the changes seen while that build
 * runs, and until the server listens, wait for it and are built next (a watcher subscribed after
 * the first build lost a save made meanwhile, for about a minute at 10,000 loadouts).
 * A change under `loadouts/<id>/` (a file saved, added or removed; a folder made or removed)
 * marks `<id>`; the changes that arrive while a build runs wait for it and go into the next.
 * Each build is `loadout build`'s own (tree/build.ts) told which loadouts the watcher saw change
 * (`BuildOptions.changed`): those are read and checked again and their outputs written, every
 * other loadout is carried over without asking git, and what the last build kept in memory
 * (its cache, search index and links: `BuildOptions.kept`) stands in for reading the tree. The
 * build switches to a tree that carries the last tree's catalogue documents
 * (`BuildOptions.documents: 'defer'`) and sends `reload`, so the changed loadout's page is
 * served with the change first (the first build writes every document before the session
 * serves); the documents that list every loadout (the list, the search index, the home page…)
 * are then written into the live tree (tree/deferred-documents.ts), and `documents` tells the
 * open pages other than a loadout's own to reload. They are written once
 * no change came for {@link DOCUMENTS_AFTER_MS}; a change seen while they are written stops that
 * writing at the next file: the next build goes first, and its documents follow.
 * A refused build (a broken manifest, a failing check) leaves the tree as it was and sends
 * `refused` with the findings, and the session goes on. A build in which every loadout came out
 * as the live tree held it (the same bytes saved again) sends nothing. When watching stopped and
 * started again (dev/watch.ts), the next build is told nothing: git's status tells what changed,
 * as for `loadout build`. Watching is @parcel/watcher's, in a process of its own (dev/watch.ts;
 * native: one inotify watch per folder on Linux, FSEvents on macOS, ReadDirectoryChangesW on
 * Windows; only changes after it subscribed count). It keeps what it watches outside the
 * JavaScript heap: chokidar, used before, held an `fs.watch` and a `Stats` per file, about
 * 250 MB of the session's 510 MB heap at 10,000 loadouts, which each full collection had to
 * mark (docs/performance.md).
 */
import { formatDiagnostic } from '../catalogue/diagnostics.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { lstat, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Hono } from 'hono';
import { LoadoutError } from '../catalogue/errors.js';
import { normaliseBaseUrl } from '../tree-format/addresses.js';
import { listLoadoutIds, loadoutsDirOf } from '../catalogue/source.js';
import { createApp } from '../server/app.js';
import { listen } from '../server/listen.js';
import { buildCatalogue, type BuildResult } from '../tree/build.js';
import { rehearseLoadoutBuild } from '../tree/build-loadouts.js';
import type { DeferredDocuments } from '../tree/deferred-documents.js';
import { GitHelper } from '../tree/history/git-helper.js';
import type { KeptBuild } from '../tree/incremental/kept-build.js';
import { createDevApp, createDevEvents } from './app.js';
import { reportLoadouts, type DevReport } from './report.js';
import { watchFolder, type FolderWatch } from './watch.js';

/**
 * How long the session waits without a change before it writes the catalogue documents a build
 * deferred (ms): an editor's save is often followed by another (a formatter, auto-save, a
 * checkout of several files), and a change seen before the writing starts costs nothing to
 * put first, where one seen during it waits for the file being written.
 */
export const DOCUMENTS_AFTER_MS = 250;

let fullCollection: (() => void) | undefined;

/**
 * Runs V8's full garbage collection now (`gc()`, which `--expose-gc` makes available; set here
 * for this process). The session runs it when it goes idle: writing the catalogue documents
 * leaves tens of MB of garbage at 10,000 loadouts, and collecting it then keeps a full
 * collection from pausing the next save's build instead.
 */
function collectWhileIdle(): void {
  if (fullCollection === undefined) {
    setFlagsFromString('--expose-gc');
    fullCollection = runInNewContext('gc') as () => void;
  }
  fullCollection();
}

/**
 * The loadouts a build's report is about: those the watcher saw change; at the session's start,
 * those refused (the others were all built); after watching stopped, those the build read again
 * or refused, and those the tree live before it (`before`, what its build kept) held and it no
 * longer does. Pure.
 */
function askedAbout(changed: readonly string[] | 'first' | 'unwatched', result: BuildResult | undefined, before: KeptBuild | undefined): readonly string[] {
  if (changed === 'first') return result?.refused ?? [];
  if (changed !== 'unwatched') return changed;
  if (result === undefined) return [];
  const built = new Set(result.loadouts.map((l) => l.id));
  const removed = result.written ? [...(before?.linked.keys() ?? [])].filter((id) => !built.has(id)) : [];
  return [...result.read, ...result.refused, ...removed];
}

/** What to do when the system cannot watch every folder (one inotify watch per folder on Linux). */
const WATCH_HINT = 'On Linux each folder takes one inotify watch: raise fs.inotify.max_user_watches (sysctl), or stop other watchers.';

/** Options of {@link startDevSession}. */
export interface DevOptions {
  /** Catalogue root (holds `loadouts/`). */
  root: string;
  /** Output folder of the builds, e.g. `dist`. */
  out: string;
  /** `{base_url}` of the published addresses. */
  baseUrl: string;
  /** Address and port to serve on (port 0: any free port). */
  host: string;
  port: number;
  /** Called after each build with its report (the terminal prints it). */
  onBuild?: (report: DevReport) => void;
  /**
   * Called when watching stops after the start (dev/watch.ts: the watcher process killed, or
   * the system's limit of watched folders, `fs.inotify.max_user_watches` on Linux, reached by a
   * new folder), and when an attempt to watch again fails. The session goes on serving and
   * tries again; once it watches again, a build asks git what changed meanwhile.
   */
  onWatchError?: (error: Error) => void;
  /**
   * Called at each moment of the session's start ({@link DevStartMoment}), in order: a save made
   * at any of them, or between them, is built (tests make one at each).
   */
  onStart?: (moment: DevStartMoment) => void;
}

/**
 * A moment of the start of a session, in the order they come. From the first on, every save
 * is seen: the saves seen before the last wait for the first build, and are built after it.
 */
export type DevStartMoment =
  /** The watcher is subscribed; no loadout was read yet. */
  | { kind: 'watching' }
  /** The first build has read, checked and written the loadout `id` (one per loadout it reads). */
  | { kind: 'read'; id: string }
  /** The first build ended with `report`; the server does not listen yet. */
  | { kind: 'built'; report: DevReport }
  /** The server listens at `url`: the session answers from now on. */
  | { kind: 'listening'; url: string };

/** A running session. */
export interface DevSession {
  /** The server's address, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The last build's report. */
  report(): DevReport | undefined;
  /** Stops watching and serving. */
  close(): Promise<void>;
}

/**
 * Starts watching, builds, and serves; resolves once the first build ended and the server
 * listens. The watcher subscribes before the first build reads anything: a save made during the
 * start is built after the first build ({@link DevStartMoment}). A refused first build does not
 * stop it: the pages show why until a change fixes it.
 * @throws LoadoutError `not_found` when there is no `loadouts/` folder, `config` when the folder
 *   cannot be watched or the port is taken.
 */
export async function startDevSession(options: DevOptions): Promise<DevSession> {
  const loadoutsDir = loadoutsDirOf(options.root);
  const events = createDevEvents();
  let tree: Hono | undefined;
  let last: DevReport | undefined;
  /** What the last written build kept for the next one, and the documents it left to write. */
  let kept: KeptBuild | undefined;
  let deferred: DeferredDocuments | undefined;
  /** Whether a build since the documents were last written changed what the pages show (else their writing reloads no page). */
  let documentsChanged = false;
  /** The loadouts whose last build was refused, as the pages show them. */
  const shownRefused = new Set<string>();
  /** Stops the documents being written (a change came). */
  let stopDocuments: AbortController | undefined;
  /** Ends the wait before the documents early (a change came). */
  let endWait: (() => void) | undefined;
  const quietFor = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      endWait = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (endWait = undefined));
  const serve = (dir: string): void => {
    tree = createApp({ distDir: dir, baseUrl: options.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
  };

  /**
   * Runs one build of `changed`: the loadouts the watcher saw change, `first` (the session's
   * start: every document written before it serves), or `unwatched` (watching stopped and
   * started again: git tells what changed). Never throws: a failure is in the report.
   */
  const build = async (changed: readonly string[] | 'first' | 'unwatched', since: number): Promise<void> => {
    const before = kept;
    let result: BuildResult | undefined;
    const warnings: string[] = [];
    try {
      const reading = changed === 'first' && options.onStart !== undefined ? { onProgress: (_done: number, _total: number, id: string) => options.onStart?.({ kind: 'read', id }) } : {};
      result = await buildCatalogue({ root: options.root, out: options.out, baseUrl: options.baseUrl, gitFor: (cwd) => git.commandsIn(cwd), kept, documents: changed === 'first' ? 'write' : 'defer', ...reading, ...(typeof changed === 'string' ? {} : { changed }) });
      warnings.push(...result.warnings);
      // A bundle's findings refuse the build as a loadout's do (issue 56): they are shown with the warnings.
      warnings.push(...result.bundleDiagnostics.map((d) => `build refused: ${formatDiagnostic(d)}`));
      if (result.written) {
        kept = result.kept;
        deferred = result.deferred;
      }
    } catch (error) {
      warnings.push((error as Error).message);
    }
    const treeDir = await realpath(options.out).catch(() => undefined);
    if (result?.written === true && treeDir !== undefined) serve(treeDir);
    const asked = askedAbout(changed, result, before);
    const loadouts = result === undefined ? [] : await reportLoadouts(asked, result, treeDir);
    last = { at: new Date().toISOString(), ms: Math.round(performance.now() - since), written: result?.written === true, loadouts, warnings };
    // Nothing the pages show changed when every loadout asked about came out as the live tree
    // held it, and none of them was last shown refused: a file saved with the same bytes, a
    // `touch`, the second event a watcher may give one save (@parcel/watcher can send a
    // write's modifications in two batches 50 ms apart), or nothing changed while unwatched.
    // Such a build reloads no page.
    const unchanged = changed !== 'first' && result?.written === true && asked.every((id) => result.reused.includes(id) && !shownRefused.has(id));
    for (const l of loadouts) {
      if (l.state === 'refused') shownRefused.add(l.id);
      else shownRefused.delete(l.id);
    }
    if (last.written && !unchanged) documentsChanged = true;
    if (!unchanged) events.send(last.written ? 'reload' : 'refused', last);
    options.onBuild?.(last);
  };

  // Changes seen and not built yet, whether watching stopped and started again since the last
  // build (then git tells what changed), and when the first of them was seen.
  const pending = new Set<string>();
  let unwatched = false;
  let firstSeen = 0;
  let running: Promise<void> | undefined;
  /** Whether the first build was served: before, changes only wait (schedule). */
  let started = false;
  /** Writes the documents the last build deferred; true when it ended or cannot go on, false when a change stopped it. */
  const writeDocuments = async (job: DeferredDocuments): Promise<boolean> => {
    stopDocuments = new AbortController();
    try {
      const done = await job.write(stopDocuments.signal);
      if (!done && stopDocuments.signal.aborted) return false;
      deferred = undefined;
      // Not written: another build switched the tree since, and its documents are whole.
      if (!done) return true;
      serve(job.tree);
      if (last !== undefined && documentsChanged) events.send('documents', last);
      documentsChanged = false;
    } catch (error) {
      deferred = undefined;
      if (last !== undefined) {
        last = { ...last, warnings: [...last.warnings, `the catalogue documents were not written: ${(error as Error).message}`] };
        options.onBuild?.(last);
      }
    } finally {
      stopDocuments = undefined;
    }
    return true;
  };
  const drain = async (): Promise<void> => {
    for (;;) {
      while (pending.size > 0 || unwatched) {
        const asked = unwatched ? 'unwatched' : [...pending];
        const since = firstSeen;
        pending.clear();
        unwatched = false;
        await build(asked, since);
      }
      if (deferred === undefined) break;
      await quietFor(DOCUMENTS_AFTER_MS);
      if (pending.size > 0) continue;
      if ((await writeDocuments(deferred)) && pending.size === 0) {
        collectWhileIdle();
        break;
      }
    }
    running = undefined;
  };
  /** Starts building what is pending unless a build runs. */
  const startDrain = (): void => {
    // Changes that arrive together (an editor's save is several events) go into one build.
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
  };
  /** Starts a build unless one runs (or the session is still starting), after `mark` noted what it is to build. */
  const schedule = (mark: () => void): void => {
    if (pending.size === 0 && !unwatched) firstSeen = performance.now();
    mark();
    endWait?.();
    stopDocuments?.abort();
    // Until the first build has been served, changes wait for it (startDevSession's end).
    if (started) startDrain();
  };
  /** Marks the loadout `id` changed. */
  const changed = (id: string): void => schedule(() => pending.add(id));
  const seen = (paths: readonly string[]): void => {
    const checks: Promise<void>[] = [];
    for (const path of paths) {
      const [id, ...rest] = relative(loadoutsDir, path).split(sep);
      if (id === undefined || id === '' || id === '..' || id.startsWith('.')) continue;
      if (rest.length > 0) changed(id);
      // Directly in loadouts/: a loadout folder made or removed, or a file, which belongs to no loadout.
      else checks.push(lstat(path).then((info) => (info.isDirectory() ? changed(id) : undefined), () => changed(id)));
    }
    void Promise.all(checks);
  };
  // Nothing to watch without the folder: the same error as `loadout build`'s.
  const ids = await listLoadoutIds(loadoutsDir);
  // Forked now, while this process is small: every build runs git from it (git-helper.ts).
  const git = new GitHelper();
  // Watching starts before the first build reads anything: a save made while that build runs
  // (at 10,000 loadouts, about a minute) or before the server answers waits for it, and is built
  // next; subscribing after it lost such a save.
  let watcher: FolderWatch;
  try {
    watcher = await watchFolder(loadoutsDir, {
      changed: seen,
      // A folder past the system's limit of watches stops it too: say how to raise the limit.
      stopped: (error) => options.onWatchError?.(/No space left on device|ENOSPC/u.test(error.message) ? new Error(`${error.message}. ${WATCH_HINT}`, { cause: error }) : error),
      resumed: () => schedule(() => (unwatched = true)),
    });
  } catch (cause) {
    git.close();
    throw new LoadoutError('config', `cannot watch ${loadoutsDir}: ${(cause as Error).message}`, { cause, hint: WATCH_HINT });
  }
  options.onStart?.({ kind: 'watching' });
  await build('first', performance.now());
  if (last !== undefined) options.onStart?.({ kind: 'built', report: last });
  collectWhileIdle();
  // While no save has come: a build thread runs the checks and renderers once, so that the first
  // save does not run them for the first time (build-loadouts.ts). A failure there is the first
  // save's to report, if it happens again.
  const rehearsal = ids[0] === undefined ? Promise.resolve() : rehearseLoadoutBuild({ loadoutsDir, fixturesDir: join(options.root, 'fixtures'), base: normaliseBaseUrl(options.baseUrl), id: ids[0] }).then(() => undefined, () => undefined);

  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(createDevApp({ tree: () => tree, report: () => last }, events, { host: options.host }), { host: options.host, port: options.port });
  } catch (error) {
    await watcher.close();
    await rehearsal;
    git.close();
    throw error;
  }
  // The changes seen since the watcher subscribed are built now, after the first tree.
  started = true;
  if (pending.size > 0 || unwatched) startDrain();
  options.onStart?.({ kind: 'listening', url: server.url });

  return {
    url: server.url,
    report: () => last,
    async close() {
      await watcher.close();
      await rehearsal;
      await running;
      events.close();
      git.close();
      await server.close();
    },
  };
}
