/**
 * Per-text memoisation for the checks: several checks read the same file's front matter and
 * Markdown structure, and the texts come from one `context.text` cache, so a small map keyed
 * by the text saves parsing each file up to a dozen times (six agents × rules, …). The map is
 * cleared when it grows past a bound, so memory stays flat over a catalogue of any size.
 */
import { readFrontMatter, type FrontMatter } from '../../catalogue/front-matter.js';
import { findCodeBlocks, type CodeBlock } from './markdown.js';

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

/** {@link readFrontMatter}, memoised. Treat the result as read-only. */
export const frontMatterOf: (text: string) => FrontMatter = memo(readFrontMatter);

/** {@link findCodeBlocks}, memoised. Treat the result as read-only. */
export const codeBlocksOf: (text: string) => CodeBlock[] = memo(findCodeBlocks);
