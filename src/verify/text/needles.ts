/**
 * Finding which of a fixed set of substrings occur in a text, in one pass: the rules of the
 * safety check run an expression only over files that hold one of the rule's needles, and
 * testing fifty needles one by one costs fifty passes over every file.
 *
 * The search is an Aho–Corasick automaton (Aho and Corasick, "Efficient string matching",
 * CACM 18(6), 1975) compiled to a dense table over ASCII, with ASCII letters folded to lower
 * case. It is faster than one regular expression of all the needles, and far faster than the
 * npm Aho–Corasick packages, which match Unicode grapheme clusters (DESIGN.md section 7 sets
 * the verify targets; `bench/verify.ts` measures them).
 */

const ALPHABET = 128;

/** A fixed set of ASCII substrings ("needles"), searched for together, ignoring ASCII case. */
export class NeedleSet {
  /** The needles, lower-case. */
  readonly needles: ReadonlySet<string>;
  /** `next[state * 128 + code]`: the state after reading character `code` (< 128) in `state`. */
  readonly #next: Int32Array;
  /** The needles that end in each state (its own and those of its failure chain). */
  readonly #found: (readonly string[] | undefined)[];
  /** 1 where a state ends a needle: the scan tests this typed array, not the list above. */
  readonly #ends: Uint8Array;

  /**
   * @param needles ASCII substrings; matched ignoring ASCII case.
   * @throws Error when there are none, or one is empty or not ASCII.
   */
  constructor(needles: Iterable<string>) {
    this.needles = new Set([...needles].map((n) => n.toLowerCase()));
    if (this.needles.size === 0) throw new Error('NeedleSet: expected at least one needle');
    for (const n of this.needles) {
      if (n === '' || !/^[\x00-\x7f]+$/u.test(n)) throw new Error(`NeedleSet: expected non-empty ASCII needles, got ${JSON.stringify(n)}`);
    }
    // The trie: goto[state] maps a code to a child state.
    const goto: Map<number, number>[] = [new Map()];
    const ends: string[][] = [[]];
    for (const n of this.needles) {
      let state = 0;
      for (let i = 0; i < n.length; i++) {
        const code = n.charCodeAt(i);
        let child = goto[state]?.get(code);
        if (child === undefined) {
          child = goto.length;
          goto.push(new Map());
          ends.push([]);
          goto[state]?.set(code, child);
        }
        state = child;
      }
      ends[state]?.push(n);
    }
    // Breadth first: each state's failure state, and the dense transition table.
    const next = new Int32Array(goto.length * ALPHABET);
    const fail = new Int32Array(goto.length);
    const queue: number[] = [];
    for (const [code, child] of goto[0] ?? []) {
      next[code] = child;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] ?? 0;
      const f = fail[state] ?? 0;
      ends[state]?.push(...(ends[f] ?? []));
      for (let code = 0; code < ALPHABET; code++) {
        const child = goto[state]?.get(code);
        if (child === undefined) next[state * ALPHABET + code] = next[f * ALPHABET + code] ?? 0;
        else {
          next[state * ALPHABET + code] = child;
          fail[child] = next[f * ALPHABET + code] ?? 0;
          queue.push(child);
        }
      }
    }
    // Upper-case ASCII letters move as their lower-case letters do.
    for (let state = 0; state < goto.length; state++) {
      for (let code = 65; code <= 90; code++) next[state * ALPHABET + code] = next[state * ALPHABET + code + 32] ?? 0;
    }
    this.#next = next;
    this.#found = ends.map((e) => (e.length === 0 ? undefined : e));
    this.#ends = Uint8Array.from(ends, (e) => (e.length === 0 ? 0 : 1));
  }

  /** True when every needle of `other` is one of these, so that one search answers for both. */
  covers(other: NeedleSet): boolean {
    let answer = this.#covers.get(other);
    if (answer === undefined) {
      answer = [...other.needles].every((n) => this.needles.has(n));
      this.#covers.set(other, answer);
    }
    return answer;
  }

  /** Answers of {@link covers}: sets are fixed, and the question is asked once per file. */
  readonly #covers = new WeakMap<NeedleSet, boolean>();

  /** The needles (lower-case) that occur in `text`, ignoring ASCII case. Pure. */
  findIn(text: string): Set<string> {
    const hits = scan(text, this.#next, this.#ends);
    const result = new Set<string>();
    for (const state of hits) for (const n of this.#found[state] ?? []) result.add(n);
    return result;
  }
}

/**
 * The automaton's run over `text`: the states reached that end a needle, in order (a state
 * once per run of repeats). Kept apart from the set building so that the loop stays small.
 */
function scan(text: string, next: Int32Array, ends: Uint8Array): number[] {
  const hits: number[] = [];
  let state = 0;
  for (let i = 0, length = text.length; i < length; i++) {
    const code = text.charCodeAt(i);
    // A character outside ASCII is in no needle: the match starts again.
    state = code < ALPHABET ? (next[(state << 7) | code] as number) : 0;
    if (ends[state] !== 0 && hits[hits.length - 1] !== state) hits.push(state);
  }
  return hits;
}
