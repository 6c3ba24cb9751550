/**
 * What a loadout can run, and what a change adds to it, as lines of a pull request's body
 * (issue 54, points 3 and 4): the submission bot's body (pull-request-body.ts) and the update
 * bot's (update-pull-request-body.ts) say it in the words of `capabilities/describe.ts` and
 * `capabilities/compare.ts`, every item's text through `escapeMarkdown` (it comes from a
 * submitter or a catalogue). Pure.
 */
import type { CapabilityChange } from '../capabilities/compare.js';
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import { escapeMarkdown } from './markdown-text.js';

/** The summary, then each list as a bold title and its items, what needs consent marked; Markdown lines. */
export function capabilityLines(lists: CapabilityLists): string[] {
  const lines = [`${escapeMarkdown(summarizeCapabilities(lists))}.`];
  for (const section of describeCapabilities(lists)) {
    lines.push('', `**${escapeMarkdown(section.title)}**`, '', ...section.lines.map((l) => `- ${escapeMarkdown(l.text)}${l.consent === null ? '' : ` — **needs consent**: ${escapeMarkdown(l.consent)}`}`));
  }
  return lines;
}

/** The capability change, one item a line (`+` added or widened, `−` removed or narrowed), or that there is none; Markdown lines. */
export function capabilityChangeLines(change: CapabilityChange): string[] {
  if (change.items.length === 0) return ['_No change in what it can run._'];
  return change.items.map((item) => `- ${item.change === 'added' || item.change === 'widened' ? '**+**' : '−'} ${item.change}: ${escapeMarkdown(item.text)}`);
}
