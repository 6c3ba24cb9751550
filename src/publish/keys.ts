/**
 * Object keys of a publish: every key is `<prefix><path>`, the prefix as given and the tree's
 * relative path with forward slashes. A key must read the same to every store and CDN in front
 * (some normalise `..`, `//` or backslashes, and a control character in a key breaks logs and
 * listings), so these rules refuse anything that is not a plain relative path: content must not
 * reach object storage outside its place (DESIGN.md section 3: normalised paths, no `..`).
 */

/** S3's limit on a key: 1,024 bytes of UTF-8 (Amazon S3 User Guide, "Naming objects"). */
export const MAX_KEY_BYTES = 1024;

const CONTROL = /\p{Cc}/u;

/**
 * Why `path` cannot be part of an object key, or `undefined` when it can: it must be
 * non-empty, relative (no leading `/`, no drive letter), with forward slashes only, no
 * control character (C0, DEL, C1), and no `.`, `..` or empty segment. Pure.
 */
export function describeKeyPathProblem(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (CONTROL.test(path)) return 'contains a control character';
  if (path.includes('\\')) return 'contains a backslash (expected forward slashes)';
  if (path.startsWith('/') || /^[A-Za-z]:/u.test(path)) return 'starts with "/" or a drive letter (expected a relative path)';
  const segments = path.split('/');
  if (segments.includes('..')) return 'contains a ".." segment';
  if (segments.includes('.')) return 'contains a "." segment';
  if (segments.includes('')) return 'has an empty segment (a doubled or trailing "/")';
  return undefined;
}

/**
 * Why `prefix` cannot start object keys, or `undefined` when it can: empty, or a path that
 * passes {@link describeKeyPathProblem} followed by `/` (`catalogue/`, `site/v1/`). The
 * trailing `/` is required, so that `--prefix site` cannot silently make `siteapi/…` keys.
 * Pure.
 */
export function describePrefixProblem(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  if (!prefix.endsWith('/')) {
    const body = describeKeyPathProblem(prefix);
    return body ?? `does not end with "/" (keys are the prefix followed by the tree's paths: did you mean "${prefix}/"?)`;
  }
  return describeKeyPathProblem(prefix.slice(0, -1));
}

/** Why `key` is too long for S3, or `undefined`. Pure. */
export function describeKeyLengthProblem(key: string): string | undefined {
  const bytes = Buffer.byteLength(key, 'utf8');
  return bytes > MAX_KEY_BYTES ? `is ${bytes} bytes long (expected at most ${MAX_KEY_BYTES} bytes of UTF-8)` : undefined;
}
