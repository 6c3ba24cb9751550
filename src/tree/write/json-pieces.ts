/**
 * Pretty-printed JSON a piece at a time (tree-files.ts `ContentPieces`), for the catalogue
 * documents that list every loadout (the list, the marketplaces: 2 to 11 MB each at 10,000
 * loadouts), so that none is ever made as one string: its memory and the flattening of a
 * string that large cost a rebuild more than the JSON itself (DESIGN.md section 7), and the
 * deferred documents' writer can let the event loop run between pieces.
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
    for (let i = 0; i < value.length; i++) {
      yield inner;
      yield* jsonPieces(omitted(value[i]) ? null : value[i], depth - 1, inner);
      yield i === value.length - 1 ? '\n' : ',\n';
    }
    yield `${indent}]`;
    return;
  }
  const members = Object.entries(value).filter(([, v]) => !omitted(v));
  if (members.length === 0) return yield '{}';
  yield '{\n';
  for (let i = 0; i < members.length; i++) {
    const [key, v] = members[i] as [string, unknown];
    yield `${inner}${JSON.stringify(key)}: `;
    yield* jsonPieces(v, depth - 1, inner);
    yield i === members.length - 1 ? '\n' : ',\n';
  }
  yield `${indent}}`;
}
