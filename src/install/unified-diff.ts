/**
 * Unified diffs for `loadout update` (issue 12 point 2), made by jsdiff (the `diff` package,
 * `createTwoFilesPatch`: the unified format of GNU diff, with `---`/`+++` headers and `@@`
 * hunks, three lines of context).
 *
 * The package is loaded when first needed. Until it is installed (it is not yet a dependency
 * of this checkout), {@link loadDiffer} answers undefined and update shows every change
 * without its diff, saying why; nothing else depends on it.
 */

/** The part of jsdiff's API used here (`diff` 5 to 9: `createTwoFilesPatch(oldName, newName, old, new, oldHeader, newHeader, {context})`). */
interface JsDiff {
  createTwoFilesPatch(oldFileName: string, newFileName: string, oldStr: string, newStr: string, oldHeader?: string, newHeader?: string, options?: { context?: number }): string;
}

/** Makes the unified diff of one file between two versions. */
export type Differ = (name: string, before: string, after: string, fromLabel: string, toLabel: string) => string;

// A variable, so the type checker does not require the package before it is installed.
const PACKAGE = 'diff';
let loaded: Promise<Differ | undefined> | undefined;

/** The differ, or undefined when the `diff` package is not installed. Loaded once. */
export function loadDiffer(): Promise<Differ | undefined> {
  loaded ??= (import(PACKAGE) as Promise<JsDiff>).then(
    (jsdiff) => (name, before, after, fromLabel, toLabel) => jsdiff.createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, fromLabel, toLabel, { context: 3 }),
    () => undefined,
  );
  return loaded;
}

/** Why no diff is shown when {@link loadDiffer} gives none. */
export const NO_DIFFER = 'diffs need the "diff" package (npm install diff), which is not installed';
