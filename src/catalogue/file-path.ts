/**
 * The rule for `files[].path` (DESIGN.md section 3): relative to the loadout folder,
 * normalised (no `..` or `.` segments, no leading `/` or `./`, no empty segments), forward
 * slashes only, no NUL or other control character (C0, DEL, C1), no bidirectional control
 * (Unicode UAX #9: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and no line or
 * paragraph separator (U+2028, U+2029): a path is shown to maintainers and users, and such
 * characters would hide or reorder what they read. A segment is at most 255 bytes of UTF-8,
 * the longest file name of ext4, APFS and NTFS (`NAME_MAX`), so every checkout can hold it.
 * The same rule guards submissions, the bot and the installer.
 *
 * A set of paths must also fit one file system ({@link describePathClashes}): no path is a
 * file and, for another path, a folder, and no two paths differ only in case, because on the
 * case-insensitive file systems of macOS and Windows they name the same file.
 */

/** Characters a path must not hold: controls, bidirectional controls, line and paragraph separators. */
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Matches every path that one of the tests below refuses: one test for the common, valid case. */
const ANY_PROBLEM = /^$|[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]|^\/|^[A-Za-z]:|(?:^|\/)\.{0,2}(?:\/|$)/u;

/** Most UTF-8 bytes in one path segment (`NAME_MAX` of ext4, APFS and NTFS). */
export const MAX_SEGMENT_BYTES = 255;

/**
 * Returns why `path` is not a normalised relative path, or `undefined` when it is.
 * Pure: no file system access.
 */
export function describePathProblem(path: string): string | undefined {
  // A segment of at most 85 UTF-16 units holds at most 255 bytes of UTF-8.
  if (!ANY_PROBLEM.test(path)) return path.length <= MAX_SEGMENT_BYTES / 3 ? undefined : describeLongSegment(path);
  if (path.length === 0) return 'is empty (expected a relative path such as "rules/style.md")';
  if (/[\u0000-\u001f\u007f]/u.test(path)) return 'contains a NUL or control character';
  const unsafe = UNSAFE_CHARACTER.exec(path)?.[0];
  if (unsafe !== undefined) return `contains U+${(unsafe.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}, a control, bidirectional or line-separator character (expected visible characters only)`;
  if (path.includes('\\')) return 'contains a backslash (expected forward slashes)';
  if (path.startsWith('/') || /^[A-Za-z]:/u.test(path)) return 'is absolute (expected a path relative to the loadout folder)';
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) return 'contains a ".." segment (expected a path inside the loadout folder)';
  if (segments.some((s) => s === '.')) return 'contains a "." segment (expected a normalised path without "./")';
  if (segments.some((s) => s === '')) return 'has an empty segment (expected no leading, trailing or doubled "/")';
  return describeLongSegment(path);
}

function describeLongSegment(path: string): string | undefined {
  for (const segment of path.split('/')) {
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES) return `has a segment of ${bytes} bytes (expected at most ${MAX_SEGMENT_BYTES} bytes of UTF-8 per file or folder name)`;
  }
  return undefined;
}

/** Two paths of one set that cannot both exist on disk, and why. */
export interface PathClash {
  /** The path met first. */
  path: string;
  /** The path that clashes with it. */
  other: string;
  /** E.g. `"skills/a/x" is a file, but "skills/a/x/y.md" needs a folder of that name`. */
  message: string;
}

/**
 * The clashes in a set of normalised paths (each already passing {@link describePathProblem}):
 * a path that is also a folder of another path (`skills/a/x` and `skills/a/x/y.md`: git and
 * every file system refuse it), and two paths that differ only in case or Unicode
 * normalisation, which are one file on case-insensitive file systems (APFS and NTFS by
 * default) and so also a file/folder clash there (`skills/a/X` and `skills/a/x/y.md`).
 * Exact duplicates are the caller's to report. Pure.
 * @returns one clash per offending path, in the order of `paths`.
 */
export function describePathClashes(paths: Iterable<string>): PathClash[] {
  const files = new Map<string, string>();
  const list = [...new Set(paths)];
  for (const path of list) {
    const key = foldPath(path);
    if (!files.has(key)) files.set(key, path);
  }
  const folders = new Map<string, string>();
  for (const path of list) {
    const key = foldPath(path);
    for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
      const folder = key.slice(0, i);
      if (!folders.has(folder)) folders.set(folder, path);
    }
  }
  const clashes: PathClash[] = [];
  for (const path of list) {
    const key = foldPath(path);
    const same = files.get(key);
    if (same !== undefined && same !== path) {
      clashes.push({ path, other: same, message: `"${path}" and "${same}" differ only in case (expected names that stay distinct on case-insensitive file systems such as macOS's and Windows')` });
      continue;
    }
    const below = folders.get(key);
    if (below !== undefined) {
      const exact = below.startsWith(`${path}/`);
      clashes.push({ path, other: below, message: `"${path}" is a file, but "${below}" needs a folder of ${exact ? 'that name' : 'that name on case-insensitive file systems'} (expected no path to be both a file and a folder)` });
    }
  }
  return clashes;
}

/** The form under which two paths name the same file on a case-insensitive, normalisation-insensitive file system. */
function foldPath(path: string): string {
  return path.normalize('NFC').toLowerCase();
}
