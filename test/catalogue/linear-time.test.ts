/**
 * Every pattern of `src/catalogue/` that reads a loadout's text runs in linear time (issue 53,
 * point 8; STYLE.md habit 14): the Markdown structure (`markdown.ts`: fences, code spans, blank
 * lines, HTML comments), the references (`markdown-references.ts`: links, definitions, HTML
 * `href`/`src`, `@` imports and every other `@` token, package mentions, destinations split,
 * unescaped and judged for where they lead) and the front matter (`front-matter-data.ts`'s
 * fences, `yaml-document.ts`'s line forms; the YAML itself is the `yaml` library's to read, and
 * is not timed here). An unsigned catalogue sends such text
 * straight to the installer: `<img src` repeated 40,000 times (320 KB) held `install` for 45 s.
 * Each pump is read off a pattern (named in `rule`); the generic ones repeat single characters
 * and short runs that many patterns have in common. Four times the input may take at most 12
 * times the CPU time (test/helpers/linear-time.ts).
 */
import { describe, expect, it } from 'vitest';
import { readFrontMatterForInstall } from '../../src/catalogue/front-matter-data.js';
import { blankRanges, findCodeBlocks, findHtmlComments, proseOf } from '../../src/catalogue/markdown.js';
import { isExternal, referenceLeaves, scanReferences, splitDestination, unescapeDestination } from '../../src/catalogue/markdown-references.js';
import { readsAlike } from '../../src/catalogue/yaml-document.js';
import { growthRatio, measureGrowth, pumped, pumpsOf, RATIO, timed, type TextPump } from '../helpers/linear-time.js';

/** Where the pumped text stands: in the prose of AGENTS.md, in a fenced block of it, or in a rule's front matter that never closes (so that only the fences are looked for). */
type Place = 'prose' | 'fence' | 'front-matter';

const MARKDOWN: Place[] = ['prose', 'fence'];

/** Every pump, with the places it is tried in. */
const PUMPS: { pump: TextPump; places: Place[] }[] = [
  ...pumpsOf('markdown/fence-line', ['', '```\n', ''], ['', '~~~x\n', ''], ['', '   ```', ''], ['', '``` ```\n', 'x'], ['', '````\n```\n', '']),
  ...pumpsOf('markdown/code-span', ['', '`', ''], ['', '``a`', ''], ['', '`a', ''], ['', '`` `', 'x'], ['`', '\n \n', '`']),
  ...pumpsOf('markdown/html-comment', ['', '<!--', ''], ['<!--', '-', ''], ['', '<!-- -->', ''], ['<!--', '->', '']),
  ...pumpsOf('references/inline', ['', '[x](<', ''], ['', '[a](', ''], ['', '[a]', '(x'], ['[', '[a]', '](\n'], ['', '](', ''], ['', '![', ''], ['[a](', ' ', 'x'], ['[a](b', ' ', ''], ['[a](', '(', ''], ['[a](', '(a)', ' x'], ['', '[a](b "', ''], ['', "[a](b '", ''], ['[a](b ', '(', ''], ['', '[a](b (', ''], ['', '[[a]', '](x'], ['', '[a](<b', '']),
  ...pumpsOf('references/definition', ['', '[a]: ', ''], ['[a]:', ' ', ''], ['[a]:', '\n', ''], ['', '[a]:\n', ''], ['', '[', ']:'], ['', '[\r', ''], ['', '[\u2028', ''], ['', '[a]: <\r', '']),
  ...pumpsOf('references/html', ['', '<img src', ''], ['', '<a href=', ''], ['', '<a href="', ''], ['', "<a x='", ''], ['<a', ' x', ''], ['<a', ' x=y', ''], ['<a ', 'x ', ''], ['', '<img title="<a href=', ''], ['', '<a x="', '"'], ['', '<a title="<a href=x ', ''], ['<a', ' ', 'href'], ['<a href', ' ', '=']),
  ...pumpsOf('references/import', [' @', 'a.', 'x'], ['', ' @a/', ''], ['', ' @a.md', ''], [' @a', '/a', '.'], [' @', '../', ''], ['', ' @./', ''], ['', ' @a/b.md ', ''], [' @a/b.md', ' ', 'package']),
  ...pumpsOf('references/token', ['', ' @', ''], ['', '@', ''], [' @', '\\ ', ''], [' @', '\\', ''], ['', '(@', ''], [' @', '.', ''], [' @x', ')', '']),
  ...pumpsOf('references/destination', ['[a](', '../', ')'], ['[a](', 'a/../', ')'], ['[a](', '&#46;', ')'], ['[a](', '\\.', ')'], ['[a](', '%2e', ')'], ['[a](', 'a/', ')'], ['[a](', '?', ')'], ['[a](', '&', ')'], ['[a](', '%', ')'], [' @', '..\\', ''], [' @', '%2e%2e/', '']),
  ...pumpsOf('generic', ['', ' ', 'x'], ['', '\n', 'x'], ['', '\t', ''], ['', 'a', '!'], ['', '\\', ''], ['', '<', ''], ['', '[', ''], ['', '(', ''], ['', '"', ''], ['', '@', ''], ['', '&', ''], ['', '%', ''], ['', '.', ''], ['', '/', ''], ['', '-', ''], ['', '*', ''], ['', '_', ''], ['', ']', ''], ['', ')', ''], ['', '\r\n', ''], ['', '#', ''], ['', '!', '']),
].map((pump) => ({ pump, places: MARKDOWN }));

PUMPS.push(
  ...pumpsOf('front-matter', ['', 'a: b\n', ''], ['', '\n', ''], ['a:', ' ', 'x'], ['', '- ', ''], ['a: [', 'x, ', ''], ['', '&a ', ''], ['a: ', 'x ', ':'], ['', '---', ''], ['', '--- \n-', ''], ['', '# ', ''], ['', 'a: "', ''], ['a: ', "'", ''], ['a: [x', ', x', ' ,'], ['a: x', ' x', ':'], ['a:', ' \t', 'x']).map((pump) => ({ pump, places: ['front-matter'] as Place[] })),
);

/** The file a pump makes in `place`. */
function fileOf(place: Place, body: string): string {
  switch (place) {
    case 'prose':
      return `# Kit\n\n${body}\n`;
    case 'fence':
      return `# Kit\n\n\`\`\`md\n${body}\n\`\`\`\n`;
    case 'front-matter':
      return `---\n${body}\n`;
  }
}

let runs = 0;

/** Reads `text` as the checks and the installer do with the catalogue's patterns; returns a count so that nothing is optimised away. */
function readText(text: string): number {
  const prose = proseOf(text);
  let found = findHtmlComments(blankRanges(text, findCodeBlocks(text))).length;
  for (const site of scanReferences(prose, true)) {
    const target = site.loose === true ? site.raw : splitDestination(site.raw).path;
    if (referenceLeaves('AGENTS.md', target, site.kind) !== undefined) found++;
    if (isExternal(target) || unescapeDestination(target) !== target) found++;
  }
  // A text of its own each run: the front matter's reading is kept by text.
  const front = readFrontMatterForInstall(`${text}<!-- ${runs++} -->\n`);
  return found + front.errors.length + (text.startsWith('---\n') && readsAlike(text.slice(4)) ? 1 : 0);
}

const cases = PUMPS.flatMap(({ pump, places }) => places.map((place) => ({ pump, place, name: `${pump.rule}: ${JSON.stringify(pump.prefix)} + ${JSON.stringify(pump.pump)}×n + ${JSON.stringify(pump.suffix)} (${place})` })));

describe('the catalogue\'s text patterns run in linear time on pumped inputs', () => {
  it.each(cases)('$name', ({ pump, place }) => {
    const growth = measureGrowth((bytes) => timed(() => readText(fileOf(place, pumped(pump, bytes)))));
    expect(growthRatio(growth), `${growth.small.toFixed(1)} ms at 25 KB, ${growth.large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });
});
