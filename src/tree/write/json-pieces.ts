/**
 * Pretty-printed JSON a piece at a time (tree-files.ts `ContentPieces`), for the catalogue
 * documents that list every loadout (the list, the marketplaces: 2 to 11 MB each at 10,000
 * loadouts), so that none is ever made as one string: its memory and the flattening of a
 * string that large cost a rebuild more than the JSON itself (DESIGN.md section 7), and the
 * deferred documents' writer can let the event loop run between pieces.
 *
 * The members or elements made whole come a run at a time ({@link RUN}), each run from one
 * `JSON.stringify` of them nested as deep as they stand in the document, so that V8 indents
 * them itself: indenting each one's lines afterwards (a `replaceAll` per element) cost as much
 * as the JSON, and a rebuild at 10,000 loadouts writes 25 MB of such documents.
 */

/**
 * The text of `JSON.stringify(value, null, 2)` followed by a newline (what `writeJson`
 * writes), as pieces: the members of objects and the elements of arrays down to `depth` levels
 * are made one at a time, each below that level whole. For JSON data: plain objects, arrays,
 * strings, numbers, booleans and null (object members whose value is undefined, a function or a
 * symbol are left out and such array elements are `null`, as `JSON.stringify` does; an object
 * with `toJSON` is made whole).
 * @throws TypeError as `JSON.stringify` does (a BigInt, a cycle).
 */
export function* jsonDocumentPieces(value: unknown, depth = 2): Generator<string, void, undefined> {
  yield* jsonPieces(value, depth, '');
  yield '\n';
}

/** Whether `JSON.stringify` leaves a member with this value out of an object (and writes `null` for it in an array). */
const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * Members or elements made whole in one piece (the last level {@link jsonDocumentPieces} splits):
 * few enough that the deferred documents' writer, which may pause between pieces, pauses every
 * few tens of KB of a catalogue's list (a loadout's row is about 1 KB).
 */
export const RUN = 64;

function* jsonPieces(value: unknown, depth: number, indent: string): Generator<string, void, undefined> {
  if (depth === 0 || value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // Nested lines indented to this level (JSON text holds no raw line break inside a string).
    yield (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return yield '[]';
    yield '[\n';
    if (depth === 1) {
      yield* runsOf(value.length, (start, end) => value.slice(start, end), inner);
    } else {
      for (let i = 0; i < value.length; i++) {
        yield inner;
        yield* jsonPieces(omitted(value[i]) ? null : value[i], depth - 1, inner);
        yield i === value.length - 1 ? '\n' : ',\n';
      }
    }
    yield `${indent}]`;
    return;
  }
  const members = Object.entries(value).filter(([, v]) => !omitted(v));
  if (members.length === 0) return yield '{}';
  yield '{\n';
  if (depth === 1) {
    // A run of members as an object of its own iterates in the same order: the whole object's
    // integer-like keys come first, ascending, so those of any run of its members do too.
    yield* runsOf(members.length, (start, end) => Object.fromEntries(members.slice(start, end)), inner);
  } else {
    for (let i = 0; i < members.length; i++) {
      const [key, v] = members[i] as [string, unknown];
      yield `${inner}${JSON.stringify(key)}: `;
      yield* jsonPieces(v, depth - 1, inner);
      yield i === members.length - 1 ? '\n' : ',\n';
    }
  }
  yield `${indent}}`;
}

/**
 * `count` members or elements made whole, a run of {@link RUN} at a time (`runAt(start, end)` gives
 * those from `start` to before `end` as an array or an object), each run a piece that ends with
 * ",\n", the last with "\n".
 */
function* runsOf(count: number, runAt: (start: number, end: number) => unknown[] | Record<string, unknown>, inner: string): Generator<string, void, undefined> {
  for (let start = 0; start < count; start += RUN) yield `${wholeRun(runAt(start, start + RUN), inner)}${start + RUN >= count ? '\n' : ',\n'}`;
}

/**
 * The elements of the array `run`, or the members of the object `run` (not empty), as
 * `JSON.stringify(…, null, 2)` writes them at the indentation `inner` inside their container:
 * each on its own lines, separated by ",\n", with no line break before the first or after the
 * last. Made by one `JSON.stringify` of `run` wrapped in objects of one member, "w", down to that
 * depth, then cut out between the lines those wrappers and `run`'s own brackets take.
 */
function wholeRun(run: unknown[] | Record<string, unknown>, inner: string): string {
  const [open, close] = Array.isArray(run) ? ['[', ']'] : ['{', '}'];
  let wrapped: unknown = run;
  let before = `${open}\n`;
  let after = `\n${inner.slice(2)}${close}`;
  for (let outer = inner.length - 4; outer >= 0; outer -= 2) {
    wrapped = { w: wrapped };
    before = `{\n${' '.repeat(outer + 2)}"w": ${before}`;
    after = `${after}\n${' '.repeat(outer)}}`;
  }
  const text = JSON.stringify(wrapped, null, 2);
  return text.slice(before.length, text.length - after.length);
}
