// ESLint rule `loadout/no-rescan`: a regular expression whose unbounded quantifier can run over
// the next place where a match of the same expression starts (issue 53, point 8).
//
// A regular expression tries a match at every position of the text. When an unbounded quantifier
// after the first characters can consume text that holds the start of another attempt, a text made
// of those starts repeated, with a suffix that fails, makes every attempt run to the end: time
// quadratic in the text. `/<(?:a|img)\b[^>]*?\ssrc=/` on `<img src` repeated 40,000 times took
// 45 s. eslint-plugin-regexp's `no-super-linear-move` (the scslre library) reports such moves only
// for a quantifier the match can reach without consuming anything but that quantifier's own
// characters (`/\s*a/`, `/a+b/`): it models an attack as one character repeated, so a pattern
// that starts with a literal (`<img`) and then runs `[^>]*?` over the next `<img` is beyond it,
// whatever its `report` option.
//
// This rule looks at each unbounded quantifier of one character set (`[^>]*`, `\S+`, `.*`) and at
// what the expression must consume before it on the way from its start: when the quantifier's set
// meets every one of those (each character or class; for a group, every part of one of its
// alternatives), the quantifier can consume a string the expression starts with, and it is
// reported, unless a leading negative lookbehind (`(?<![\w/])`) refuses to start a match after
// any of its characters. It is a heuristic over a sample of characters
// (ASCII and a few others): a quantifier bounded by a character the start needs (`"[^"]*"` after
// `="`, `[^<>]*` after `<`) is not reported. Expressions with the sticky flag, and alternatives
// anchored to the start of the text (`^` without the `m` flag), try one position only and are
// skipped; one anchored to the start of a line (`^` with `m`) is tried after a line terminator
// only, which its quantifier must then hold to be reported.
// Where a reported quantifier is linear for another reason (a match cannot start inside its run),
// say why in an `eslint-disable-next-line` comment and cover the pattern in a pumped-input test.
import { RegExpParser } from '@eslint-community/regexpp';

/** The characters the sets are compared on: ASCII, and a few others that patterns single out. */
const SAMPLE = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), '\u00a0', '\u00e9', '\u2028', '\u3000', '\u{1f600}'];

const CHARACTER_NODES = new Set(['Character', 'CharacterClass', 'CharacterSet', 'ExpressionCharacterClass']);

/** The sample characters `node` (one character of the expression) matches, by the engine itself. */
function sampleOf(node, flags) {
  let re;
  try {
    re = new RegExp(`^(?:${node.raw})$`, flags.replace(/[gy]/gu, ''));
  } catch {
    return new Set(SAMPLE);
  }
  return new Set(SAMPLE.filter((c) => re.test(c)));
}

const meets = (a, b) => [...a].some((c) => b.has(c));

/** True when `node` can match the empty string (so the start need not consume it). */
function canBeEmpty(node) {
  switch (node.type) {
    case 'Assertion':
      return true;
    case 'Quantifier':
      return node.min === 0 || canBeEmpty(node.element);
    case 'Group':
    case 'CapturingGroup':
      return node.alternatives.some((a) => a.elements.every(canBeEmpty));
    case 'Backreference':
      return true;
    default:
      return false;
  }
}

/**
 * Whether `node`, which a match must consume, can consume only characters of `set`: a
 * character that meets it, a group with an alternative whose every part does, a quantifier
 * whose element does. A test of what the start of a match can be, not of all it can be.
 */
function fitsIn(node, set, flags) {
  if (CHARACTER_NODES.has(node.type)) return meets(sampleOf(node, flags), set);
  if (node.type === 'Quantifier') return fitsIn(node.element, set, flags);
  if (node.type === 'Group' || node.type === 'CapturingGroup') return node.alternatives.some((a) => a.elements.filter((e) => !canBeEmpty(e)).every((e) => fitsIn(e, set, flags)));
  return true;
}

/**
 * Walks the alternatives of `alternatives`, `prefix` being the tests of what must be consumed
 * before them (each `(set) => boolean`); calls `report(quantifier)` for each quantifier of one
 * character set that passes them all, unless `notAfter` (a leading negative lookbehind's set)
 * holds all of it: then no match starts inside its run.
 */
function walk(alternatives, prefix, flags, notAfter, report) {
  for (const alternative of alternatives) {
    const before = [...prefix];
    for (const element of alternative.elements) {
      if (element.type === 'Quantifier') {
        if (element.max === Infinity && CHARACTER_NODES.has(element.element.type)) {
          const set = sampleOf(element.element, flags);
          const startsInside = notAfter === undefined || [...set].some((c) => !notAfter.has(c));
          if (startsInside && before.length > 0 && before.every((test) => test(set))) report(element);
        } else if (element.element.type === 'Group' || element.element.type === 'CapturingGroup') {
          walk(element.element.alternatives, before, flags, notAfter, report);
        }
      } else if (element.type === 'Group' || element.type === 'CapturingGroup' || (element.type === 'Assertion' && element.kind === 'lookahead')) {
        walk(element.alternatives, before, flags, notAfter, report);
      }
      if (!canBeEmpty(element)) before.push((set) => fitsIn(element, set, flags));
    }
  }
}

/** The line terminators: after one of them, a `^` of a multiline expression can match. */
const LINE_TERMINATORS = new Set(['\n', '\r', '\u2028', '\u2029']);

/**
 * Walks the top-level alternatives: one that starts with `^` is tried at the start of the text
 * only (skipped), or with the `m` flag at the start of a line only, so that what its quantifiers
 * must run over to reach the next attempt is a line terminator.
 */
function walkPattern(pattern, flags, report) {
  for (const alternative of pattern.alternatives) {
    const [first] = alternative.elements;
    const atStart = first?.type === 'Assertion' && first.kind === 'start';
    if (atStart && !flags.includes('m')) continue;
    walk([alternative], atStart ? [(set) => meets(LINE_TERMINATORS, set)] : [], flags, notAfterOf(first, flags), report);
  }
}

/** The characters a leading negative lookbehind of one character (`(?<![\w.-])`) refuses before a match, or undefined. */
function notAfterOf(node, flags) {
  if ((node?.type === 'Group' || node?.type === 'CapturingGroup') && node.alternatives.length === 1) return notAfterOf(node.alternatives[0].elements[0], flags);
  if (node?.type !== 'Assertion' || node.kind !== 'lookbehind' || !node.negate || node.alternatives.length !== 1) return undefined;
  const [only, ...rest] = node.alternatives[0].elements;
  return only !== undefined && rest.length === 0 && CHARACTER_NODES.has(only.type) ? sampleOf(only, flags) : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noRescan = {
  meta: {
    type: 'problem',
    docs: { description: 'disallow an unbounded quantifier that can run over the next place where a match of its expression starts (quadratic time)' },
    messages: {
      rescan: 'The quantifier {{quantifier}} can consume what this expression starts with: on the start repeated, with a suffix that fails, every attempt runs to the end of the text (quadratic time). Bound it by a character the start needs, or say why a match cannot start inside its run and cover the pattern in a pumped-input test.',
    },
    schema: [],
  },
  create(context) {
    const parser = new RegExpParser({ ecmaVersion: 2025 });
    return {
      Literal(node) {
        if (!node.regex) return;
        const { pattern: source, flags } = node.regex;
        if (flags.includes('y')) return;
        let pattern;
        try {
          pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
        } catch {
          return;
        }
        walkPattern(pattern, flags, (quantifier) => context.report({ node, messageId: 'rescan', data: { quantifier: quantifier.raw } }));
      },
    };
  },
};

export default { rules: { 'no-rescan': noRescan } };
