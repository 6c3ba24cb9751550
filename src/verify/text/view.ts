/**
 * The views of a file's text that several checks share: its lines, front matter, Markdown
 * structure, and which needles it holds. A check run keeps one view per file (see
 * `CheckContext.view`), so each is computed once however many checks and agents ask: a file
 * is otherwise parsed up to a dozen times (six agents × rules, the safety rules, links,
 * anchors). Keyed by path in the run, not by text: hashing every text for a lookup cost more
 * than the lookups saved.
 */
import type { FrontMatter } from '../../catalogue/front-matter.js';
import { readAgentFrontMatter } from './front-matter.js';
import { LineIndex } from './line-index.js';
import type { NeedleSet } from './needles.js';
import { blankRanges, findCodeBlocks, findCodeSpans, type CodeBlock, type TextRange } from '../../catalogue/markdown.js';

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
  #frontMatter: FrontMatter | undefined;
  readonly #needles = new Map<NeedleSet, ReadonlySet<string>>();

  constructor(readonly text: string) {}

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

  /** The Markdown front matter, as the agents read it (see {@link readAgentFrontMatter}). */
  get frontMatter(): FrontMatter {
    return (this.#frontMatter ??= readAgentFrontMatter(this.text));
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
