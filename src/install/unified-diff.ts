/**
 * Unified diffs for `loadout update` (DESIGN.md section 8), made by jsdiff (the `diff` package,
 * `createTwoFilesPatch`: the unified format of GNU diff, with `---`/`+++` headers and `@@`
 * hunks, three lines of context).
 */
import { createTwoFilesPatch } from 'diff';

/**
 * The unified diff of file `name` from `before` to `after`, headed `a/<name>` and
 * `b/<name>` with the labels (e.g. `kit 1.0.0`) as their time stamps.
 */
export function unifiedDiff(name: string, before: string, after: string, fromLabel: string, toLabel: string): string {
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, fromLabel, toLabel, { context: 3 });
}
