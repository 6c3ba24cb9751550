/**
 * The capability list and its changes in the terminal (issue 54, points 2 to 4): what
 * `install`, `update`, `outdated`, `status` and `verify` print, in the words of
 * `capabilities/describe.ts`. Everything a catalogue sent goes through `printableLine` first.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { describeCapabilities, summarizeCapabilities } from '../capabilities/describe.js';
import type { CapabilityLists } from '../capabilities/digest.js';
import type { CapabilityChange } from '../capabilities/compare.js';
import type { ConsentRequest } from '../capabilities/consent.js';
import { combineCapabilities } from '../bundles/capabilities.js';
import { printableLine } from './terminal-text.js';

/** One list of items per agent merged into one: each item once, in the lists' order. */
export function mergeLists(parts: readonly CapabilityLists[]): CapabilityLists {
  const merged: CapabilityLists = { mcp_servers: [], hooks: [], permissions: [], scripts: [], network: [], env: [] };
  for (const list of Object.keys(merged) as (keyof CapabilityLists)[]) {
    const seen = new Set<string>();
    for (const part of parts) {
      for (const item of part[list]) {
        const key = JSON.stringify(item);
        if (seen.has(key)) continue;
        seen.add(key);
        (merged[list] as unknown[]).push(item);
      }
    }
  }
  return merged;
}

/**
 * The lists of the installs of one run as one (`id`: the loadout of each part): each loadout's
 * parts merged ({@link mergeLists}); several loadouts (a bundle's members) combined as the
 * bundle's page combines them (`bundles/capabilities.ts`: files named below their loadout, one
 * host reached for one reason one item, whichever loadouts name it). Pure.
 */
export function runLists(parts: readonly { id: string; capabilities: CapabilityLists }[]): CapabilityLists {
  const ids = [...new Set(parts.map((p) => p.id))];
  if (ids.length <= 1) return mergeLists(parts.map((p) => p.capabilities));
  return combineCapabilities(ids.map((id) => ({ id, agents: null, capabilities: mergeLists(parts.filter((p) => p.id === id).map((p) => p.capabilities)) })));
}

/**
 * `heading` then the lists as indented lines, what needs consent marked `[needs your consent]`;
 * `What it can run: nothing …` when the lists hold nothing that runs.
 */
export function formatCapabilities(heading: string, lists: CapabilityLists, agents?: readonly Agent[]): string {
  const lines = [`${heading}: ${printableLine(summarizeCapabilities(lists, agents))}`];
  for (const section of describeCapabilities(lists, agents)) {
    lines.push(`  ${section.title}:`);
    for (const line of section.lines) lines.push(`    - ${printableLine(line.text)}${line.consent === null ? '' : `  [needs your consent: ${printableLine(line.consent)}]`}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The consent requests as lines for a refusal: `loadout: <id> needs your consent: …`. */
export function formatConsent(label: string, requests: readonly ConsentRequest[]): string {
  return requests.map((r) => `loadout: ${printableLine(label)} needs your consent: ${printableLine(r.message)}\n`).join('');
}

const CHANGE_MARK: Record<CapabilityChange['items'][number]['change'], string> = { added: '+', widened: '+', removed: '-', narrowed: '-' };

/** A capability change, one line per item (`+` added or widened, `-` removed or narrowed), or `no change in what it can run`. */
export function formatCapabilityChange(heading: string, change: CapabilityChange | null): string {
  if (change === null) return `${heading}: not known (the catalogue publishes no capability list for these versions)\n`;
  if (change.items.length === 0) return `${heading}: no change in what it can run\n`;
  const lines = [`${heading}${change.widens ? ' (adds to what it can run: needs your yes)' : ''}:`];
  for (const item of change.items) lines.push(`  ${CHANGE_MARK[item.change]} ${item.change.padEnd(8)} ${printableLine(item.text)}`);
  return `${lines.join('\n')}\n`;
}

/** A Markdown section: `### What <id> can run`, its summary, then a list per kind (text escaped by the caller's renderer: item texts are shown in code spans). */
export function capabilitiesMarkdown(id: string, lists: CapabilityLists): string {
  const lines = [`### What ${id} can run`, '', summarizeCapabilities(lists), ''];
  for (const section of describeCapabilities(lists)) {
    lines.push(`**${section.title}**`, '', ...section.lines.map((l) => `- ${codeSpan(l.text)}${l.consent === null ? '' : ' — needs your consent'}`), '');
  }
  return `${lines.join('\n')}\n`;
}

/** `text` in a code span that no backtick in it can close (CommonMark 6.1), on one line. */
function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/gu, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/gu)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${flat.startsWith('`') || flat.endsWith('`') ? ` ${flat} ` : flat}${fence}`;
}
