/**
 * How tests start the `loadout` CLI as a child process: the compiled CLI (`bin/loadout` over
 * `lib/`) when `lib/` is newer than every source file, as `npm ci` leaves it (its `prepare`
 * compiles `lib/` just before `.ci/run` runs the tests), else the source through tsx. Both are
 * the code under test; the compiled one starts in 0.17 s where tsx takes 0.48 s, and a suite
 * that starts the CLI hundreds of times spent minutes on it. After an edit to `src/` that is not
 * compiled yet, the source runs.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader, by absolute address: `--import tsx` would resolve from the child's cwd. */
export const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const SOURCE_ENTRY = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));

let compiled: boolean | undefined;

/** True when `lib/` is newer than every file of `src/` (checked once per process). */
export function libIsFresh(): boolean {
  if (compiled === undefined) {
    const newest = (dir: string, ext: string): number => Math.max(0, ...readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => statSync(join(e.parentPath, e.name)).mtimeMs));
    compiled = existsSync(join(REPO, 'lib/cli/main.js')) && newest('src', '') <= newest('lib', '.js');
  }
  return compiled;
}

/** Node's arguments that run `loadout` (before the CLI's own arguments): the compiled CLI when {@link libIsFresh}, else the source through tsx. */
export function cliNodeArgs(): string[] {
  return libIsFresh() ? [join(REPO, 'bin/loadout')] : ['--import', TSX_LOADER, SOURCE_ENTRY];
}
