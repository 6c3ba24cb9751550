/**
 * The rule for `files[].path` (DESIGN.md section 3): relative to the loadout folder,
 * normalised (no `..` or `.` segments, no leading `/` or `./`, no empty segments), forward
 * slashes only, no NUL or other control characters. The same rule guards submissions.
 */

/** Matches every path that one of the tests below refuses: one test for the common, valid case. */
const ANY_PROBLEM = /^$|[\u0000-\u001f\u007f\\]|^\/|^[A-Za-z]:|(?:^|\/)\.{0,2}(?:\/|$)/u;

/**
 * Returns why `path` is not a normalised relative path, or `undefined` when it is.
 * Pure: no file system access.
 */
export function describePathProblem(path: string): string | undefined {
  if (!ANY_PROBLEM.test(path)) return undefined;
  if (path.length === 0) return 'is empty (expected a relative path such as "rules/style.md")';
  if (/[\u0000-\u001f\u007f]/u.test(path)) return 'contains a NUL or control character';
  if (path.includes('\\')) return 'contains a backslash (expected forward slashes)';
  if (path.startsWith('/') || /^[A-Za-z]:/u.test(path)) return 'is absolute (expected a path relative to the loadout folder)';
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return 'contains a ".." segment (expected a path inside the loadout folder)';
  if (segments.some((s) => s === '.')) return 'contains a "." segment (expected a normalised path without "./")';
  if (segments.some((s) => s === '')) return 'has an empty segment (expected no leading, trailing or doubled "/")';
  return undefined;
}

/** True when `path` passes {@link describePathProblem}. */
export function isNormalisedPath(path: string): boolean {
  return describePathProblem(path) === undefined;
}
