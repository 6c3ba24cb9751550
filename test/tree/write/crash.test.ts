/**
 * The crash test of SECURITY.md (a build killed at any moment leaves the previous tree whole):
 * an incremental build killed with SIGKILL at many points, including during the switch, must
 * leave a tree in which every document the tree lists resolves, all of one generation (never
 * some loadouts old and some new), and the next whole build leaves nothing of it behind. Kill
 * points are the build's checkpoints (src/tree/write/crash-points.ts: one per file written,
 * linked or removed, in the main thread and the worker threads alike, and around each step of
 * the switch). `.ci/run` runs 50 of them spread over the whole build; `npm run test:crash`
 * (LOADOUT_CRASH_FULL=1) runs every one, plus kills at random times.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findStandby, treesFolderOf } from '../../../src/tree/write/output.js';
import { listEntries, STORE_FOLDER } from '../../../src/tree/write/store.js';
import type { PublishedRecord } from '../../../src/tree-format/index.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../../helpers/temp.js';
import { libIsFresh, TSX_LOADER } from '../../helpers/cli-command.js';

const BASE = 'https://catalogue.test';
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const FULL = process.env.LOADOUT_CRASH_FULL === '1';
const CHANGED = ['l0', 'l1'];
const KEPT = ['l2', 'l3', 'l4', 'l5', 'l6'];

type State = 'A' | 'B';

/** Writes the catalogue's working tree in `state`: B changes three loadouts and adds one. */
function writeState(root: string, state: State): void {
  for (const id of CHANGED) writeLoadout(root, { id, files: baseFiles(`Test ${id}`, `# ${id}\n\nstate ${state}\n`) });
  if (state === 'B') writeLoadout(root, { id: 'extra' });
  else rmSync(join(root, 'loadouts/extra'), { recursive: true, force: true });
}

/** The state the live tree was built from. */
function liveState(out: string): State {
  const record = JSON.parse(readFileSync(join(out, 'api/loadouts/l0.json'), 'utf8')) as PublishedRecord;
  return record.files.find((f) => f.path === 'AGENTS.md')?.content.includes('state B') === true ? 'B' : 'A';
}

/** Runs the build in a child; `crashAt` kills it at that checkpoint. Resolves with stdout and how it ended. */
function runBuild(root: string, out: string, env: Record<string, string>, killAfterMs?: number): Promise<{ stdout: string; signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs(), root, out], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, signal });
    });
  });
}

/**
 * The child's command: the compiled `lib/` when it is newer than every source file (as after
 * `npm ci`, whose `prepare` compiles it: it starts in a third of the time; cli-command.ts), else
 * the source through tsx.
 */
function childArgs(): string[] {
  if (!libIsFresh()) return ['--import', TSX_LOADER, CHILD];
  const code = `const { buildCatalogue } = await import(${JSON.stringify(join(REPO, 'lib/tree/build.js'))});
const { checkpointsPassed } = await import(${JSON.stringify(join(REPO, 'lib/tree/write/crash-points.js'))});
const [root, out] = process.argv.slice(1);
await buildCatalogue({ root, out, baseUrl: ${JSON.stringify(BASE)}, now: new Date('2026-11-22T00:00:00Z') });
process.stdout.write(String(checkpointsPassed()));`;
  return ['--input-type=module', '-e', code];
}

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const pathOf = (out: string, url: string): string => join(out, decodeURIComponent(url.slice(BASE.length)));

/** Every document the live tree lists resolves, and the tree is all of one state. Returns the state. */
function checkTree(out: string): State {
  expect(lstatSync(out).isSymbolicLink()).toBe(true);
  const list = JSON.parse(readFileSync(join(out, 'api/loadouts.json'), 'utf8')) as { id: string }[] | { loadouts: { id: string }[] };
  const ids = (Array.isArray(list) ? list : list.loadouts).map((l) => l.id).sort();
  const state = liveState(out);
  expect(ids).toEqual([...CHANGED, ...KEPT, ...(state === 'B' ? ['extra'] : [])].sort());
  for (const id of ids) {
    const record = JSON.parse(readFileSync(join(out, `api/loadouts/${id}.json`), 'utf8')) as PublishedRecord;
    if (CHANGED.includes(id)) expect(record.files.find((f) => f.path === 'AGENTS.md')?.content).toContain(`state ${state}`);
    for (const file of record.files) {
      for (const url of [file.raw_url, file.raw_latest_url]) expect(sha(readFileSync(pathOf(out, url)))).toBe(file.sha256);
    }
    for (const install of Object.values(record.install)) expect(existsSync(pathOf(out, install.zip_url))).toBe(true);
    expect(existsSync(pathOf(out, record.source_zip_url))).toBe(true);
    expect(existsSync(join(pathOf(out, record.url), 'index.html'))).toBe(true);
    const versions = JSON.parse(readFileSync(join(out, `api/loadouts/${id}/versions.json`), 'utf8')) as { versions: { files: { raw_url: string; sha256: string }[] }[] };
    for (const version of versions.versions) for (const file of version.files) expect(sha(readFileSync(pathOf(out, file.raw_url)))).toBe(file.sha256);
  }
  for (const doc of ['index.html', 'docs/index.html', 'api/v1/index.json', 'api/tags.json', 'api/agents.json', 'api/schema.json']) expect(existsSync(join(out, doc))).toBe(true);
  return state;
}

/** `count` kill points spread over 1..total, always including the last few (the switch). */
function spread(total: number, count: number): number[] {
  if (count >= total) return Array.from({ length: total }, (_, i) => i + 1);
  const points = new Set<number>();
  for (let i = 0; i < count - 4; i++) points.add(1 + Math.floor((i * (total - 1)) / (count - 4)));
  for (let k = total - 3; k <= total; k++) points.add(k);
  return [...points].sort((a, b) => a - b);
}

/** A catalogue in git with its first tree built (state A). */
async function makeCatalogue(): Promise<{ root: string; out: string }> {
  const root = makeTempDir();
  initRepo(root);
  for (const id of KEPT) writeLoadout(root, { id });
  writeState(root, 'A');
  commitAll(root, 'catalogue');
  const out = join(root, 'dist');
  // In a child, like every other build here: a tree named after this test's own process would
  // count as another live build's to every later one, and stay if the build that replaces it is
  // killed between its switch and its clean-up.
  const first = await runBuild(root, out, {});
  expect(first.code, first.stderr).toBe(0);
  expect(checkTree(out)).toBe('A');
  return { root, out };
}

/** Kills a build from the live state to the other one at each point in turn; checks the tree after each. */
async function killAt(catalogue: { root: string; out: string }, points: number[], seen: Set<State>): Promise<number> {
  let killed = 0;
  for (const at of points) {
    const { root, out } = catalogue;
    writeState(root, liveState(out) === 'A' ? 'B' : 'A');
    const run = await runBuild(root, out, { LOADOUT_CRASH_AT: String(at) });
    if (run.signal === 'SIGKILL') killed++;
    else expect(run.code, run.stderr).toBe(0);
    seen.add(checkTree(out));
  }
  return killed;
}

describe('a build killed at any point leaves a whole tree', () => {
  it(FULL ? 'every checkpoint and random times' : '50 checkpoints spread over the build', { timeout: FULL ? 1_800_000 : 900_000 }, async () => {
    const started = performance.now();
    // Two catalogues, killed in turn, so that the two cores each run a build.
    const catalogues = await Promise.all([makeCatalogue(), makeCatalogue()]);
    const [first] = catalogues;

    // Whole builds from A to B and back tell how many checkpoints a build passes: one that
    // updates the standby, and one that finds none (a kill took it) and copies the live tree.
    const totals: number[] = [];
    for (const [state, withoutStandby] of [['B', false], ['A', false], ['B', true]] as const) {
      writeState(first.root, state);
      const standby = findStandby(first.out);
      if (withoutStandby && standby !== undefined) rmSync(standby, { recursive: true });
      const whole = await runBuild(first.root, first.out, {});
      expect(whole.code, whole.stderr).toBe(0);
      totals.push(Number(whole.stdout));
      expect(checkTree(first.out)).toBe(state);
    }
    const [least = 0, total = 0] = [Math.min(...totals), Math.max(...totals)];
    expect(least).toBeGreaterThan(50);

    const points = spread(total, FULL ? total : 54);
    const seen = new Set<State>();
    const killed = (await Promise.all(catalogues.map((c, k) => killAt(c, points.filter((_, i) => i % 2 === k), seen)))).reduce((a, b) => a + b, 0);
    if (FULL) {
      for (let i = 0; i < 20; i++) {
        writeState(first.root, liveState(first.out) === 'A' ? 'B' : 'A');
        await runBuild(first.root, first.out, {}, 300 + Math.floor(Math.random() * 1500));
        seen.add(checkTree(first.out));
      }
    }
    expect(points.length).toBeGreaterThanOrEqual(50);
    expect(killed).toBeGreaterThanOrEqual(points.filter((p) => p <= least).length);
    expect([...seen].sort()).toEqual(['A', 'B']);

    // The next whole build removes whatever the killed ones left.
    for (const { root, out } of catalogues) {
      writeState(root, liveState(out) === 'A' ? 'B' : 'A');
      const last = await runBuild(root, out, {});
      expect(last.code, last.stderr).toBe(0);
      checkTree(out);
      const trees = treesFolderOf(out);
      expect(readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.`))).toEqual([basename(trees)]);
      // Beside the live tree at most the standby (the tree live before it), itself whole, and
      // the store, holding only the entries those two link to.
      // (Its files are the kept consumer CLI package, never a killed build's temporary names.)
      expect(readdirSync(trees).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      const others = readdirSync(trees, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(trees, e.name)).filter((dir) => dir !== realpathSync(out) && basename(dir) !== STORE_FOLDER);
      expect(others.length).toBeLessThanOrEqual(1);
      const linked = new Set([realpathSync(out), ...others].flatMap((dir) => readdirSync(join(dir, 'raw')).map((id) => basename(readlinkSync(join(dir, 'raw', id))))));
      expect([...listEntries(join(trees, STORE_FOLDER))].filter((name) => !linked.has(name))).toEqual([]);
      for (const standby of others) {
        expect(existsSync(join(standby, '.complete'))).toBe(true);
        const link = join(dirname(out), '.standby-check');
        symlinkSync(standby, link);
        try {
          checkTree(link);
        } finally {
          unlinkSync(link);
        }
      }
    }
    console.log(`crash test: ${least} to ${total} checkpoints a build, ${points.length} kill points, ${killed} killed, in ${Math.round(performance.now() - started)} ms`);
  });
});
