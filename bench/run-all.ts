/**
 * `npm run bench`: runs every benchmark, one after the other (each in its own process, so one
 * failing does not stop the others), then prints one line per benchmark with its exit code.
 * Exits 1 when any of them failed. None of them runs in `.ci/run`: they take minutes and
 * measure the machine as much as the code.
 */
import { spawnSync } from 'node:child_process';

// The build benchmark first: it makes hundreds of thousands of files, which a file system
// that skips recently freed inodes makes slow right after another benchmark's clean-up
// (bench/build.ts explains).
// Each at the size its targets are set for: the build's and `loadout dev`'s at 10,000 loadouts
// (`--large`; the build's default of 1,000 projects to 10,000, which overstates the fixed costs of
// a rebuild tenfold, and `loadout dev`'s target is open below 10,000).
const BENCHMARKS: [string, ...string[]][] = [['build', '--large'], ['dev', '--large'], ['search'], ['verify'], ['consumer']];
const TSX = new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname;

const outcomes = BENCHMARKS.map(([name, ...args]) => {
  console.log(`\n=== bench/${name}.ts ${args.join(' ')}\n`);
  const run = spawnSync(process.execPath, [TSX, new URL(`./${name}.ts`, import.meta.url).pathname, ...args], { stdio: 'inherit' });
  return { name, status: run.status ?? 1 };
});
console.log('');
for (const { name, status } of outcomes) console.log(`bench/${name}.ts: ${status === 0 ? 'pass' : `FAIL (exit ${status})`}`);
process.exitCode = outcomes.every((o) => o.status === 0) ? 0 : 1;
