/**
 * Per-text memoisation for the checks: several checks read the same file's front matter,
 * lines and Markdown structure, and the texts come from one `context.text` cache, so a small
 * map keyed by the text saves parsing each file up to a dozen times (six agents × rules, the
 * safety rules, links, anchors). The map is cleared when it grows past a bound, so memory
 * stays flat over a catalogue of any size.
 */
import { readFrontMatter, type FrontMatter } from '../../catalogue/front-matter.js';
import { LineIndex } from './line-index.js';
import type { NeedleSet } from './needles.js';
import { blankRanges, findCodeBlocks, findCodeSpans, type CodeBlock, type TextRange } from './markdown.js';

const LIMIT = 512;

function memo<T>(compute: (text: string) => T): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined) {
      if (cache.size >= LIMIT) cache.clear();
      value = compute(text);
      cache.set(text, value);
    }
    return value;
  };
}

/**
 * The views of one text that the checks share, each computed on first use. Offsets in every
 * view are offsets into `text` (blanked parts are replaced by spaces, line breaks kept).
 * Read-only: treat the arrays as frozen.
 */
export class TextView {
  #lines: LineIndex | undefined;
  #blocks: CodeBlock[] | undefined;
  #withoutBlocks: string | undefined;
  #codeSpans: TextRange[] | undefined;
  #prose: string | undefined;
  #lower: string | undefined;
  readonly #needles = new Map<NeedleSet, ReadonlySet<string>>();

  constructor(readonly text: string) {}

  /** The text in lower case, for cheap substring tests before a rule's expression runs. */
  get lower(): string {
    return (this.#lower ??= this.text.toLowerCase());
  }

  /**
   * The needles of `set` that occur in the text, ignoring case. An earlier answer for a set
   * that covers `set` answers this one too, so a caller can search once for several sets.
   */
  needles(set: NeedleSet): ReadonlySet<string> {
    let found = this.#needles.get(set);
    if (found === undefined) {
      const wider = [...this.#needles].find(([other]) => other.covers(set))?.[1];
      found = wider === undefined ? set.findIn(this.text) : new Set([...wider].filter((n) => set.needles.has(n)));
      this.#needles.set(set, found);
    }
    return found;
  }

  /** Offset ↔ line lookups. */
  get lines(): LineIndex {
    return (this.#lines ??= new LineIndex(this.text));
  }

  /** Fenced code blocks, read as Markdown (see {@link findCodeBlocks}). */
  get blocks(): CodeBlock[] {
    return (this.#blocks ??= findCodeBlocks(this.text));
  }

  /** The text with fenced code blocks (fences included) blanked. */
  get withoutBlocks(): string {
    return (this.#withoutBlocks ??= blankRanges(this.text, this.blocks));
  }

  /** Inline code spans outside fenced blocks. */
  get codeSpans(): TextRange[] {
    return (this.#codeSpans ??= findCodeSpans(this.withoutBlocks));
  }

  /** The prose and markup only: fenced blocks and code spans blanked. */
  get prose(): string {
    return (this.#prose ??= blankRanges(this.withoutBlocks, this.codeSpans));
  }
}

/** The shared {@link TextView} of `text`, memoised. */
export const viewOf: (text: string) => TextView = memo((text) => new TextView(text));

/** {@link readFrontMatter}, memoised. Treat the result as read-only. */
export const frontMatterOf: (text: string) => FrontMatter = memo(readFrontMatter);
