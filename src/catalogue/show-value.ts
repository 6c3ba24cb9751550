/**
 * Showing a value read from an untrusted JSON document (a lock, a versions document, a key) in
 * a one-line message: as JSON, cut at a length, and never recursing into the value past a
 * small depth. `JSON.stringify` recurses once per level, so a document nested ten thousand
 * levels deep (which `JSON.parse` reads) ends in `RangeError: Maximum call stack size exceeded`
 * (issue 35, point 9); and it walks the whole value before a message could cut it. This walks
 * at most {@link MAX_DEPTH} levels and stops once the line is long enough. Pure.
 */

/** Levels shown; deeper arrays and objects are written `[…]` and `{…}`. */
const MAX_DEPTH = 3;
/** Default length of the shown text, in UTF-16 units; `…` marks a cut. */
const MAX_SHOWN = 80;

/**
 * `value` as one line of JSON of at most `max` characters (`…` marks a cut; nested arrays and
 * objects past three levels are `[…]` and `{…}`); `undefined` as `undefined`. Never throws.
 */
export function showValue(value: unknown, max = MAX_SHOWN): string {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= max;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null || typeof v !== 'object') return push(JSON.stringify(v) ?? String(v));
    const array = Array.isArray(v);
    if (depth >= MAX_DEPTH) return push(array ? '[…]' : '{…}');
    if (!push(array ? '[' : '{')) return false;
    let first = true;
    // for…in stops as soon as the line is full, instead of listing every key of a huge object first.
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      if (!first && !push(',')) return false;
      first = false;
      if (!array && !push(`${JSON.stringify(key)}:`)) return false;
      if (!walk((v as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return push(array ? ']' : '}');
  };
  walk(value, 0);
  const text = parts.join('');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
