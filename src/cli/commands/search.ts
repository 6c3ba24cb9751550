/**
 * `loadout search <query> [--agent A] [--tags T,U] [--category C] [--verified true|false]
 * [--has skills|mcp|rules|hooks|scripts] [--runs nothing|something] [--max-always-tokens N] [--limit N] [--offset N] [--json]
 * [--from URL-or-dir | --out dist]`: the same ranked search as `GET /api/v1/search`, over the
 * index in a built tree, or over a catalogue's base URL (`install/catalogue/remote-search.ts`)
 * (DESIGN.md section 2).
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { loadSearchEngine, type SearchResponse } from '../../search/engine.js';
import { fromRecord, parseSearchParameters } from '../../search/query.js';
import { catalogueBaseUrl } from '../../install/catalogue/catalogue-reader.js';
import { checkCatalogueFolder } from '../../install/catalogue/catalogue-folder.js';
import { searchRemote } from '../../install/catalogue/remote-search.js';
import { EXIT } from '../exit.js';
import { printable, printableJson } from '../terminal-text.js';
import type { Write } from '../report.js';

/** Options of `loadout search`: the flags as given (strings), checked like the HTTP parameters. */
export interface SearchCommandOptions {
  /** Built tree holding `api/search-index.json`. */
  out: string;
  /** A catalogue's base URL or a built tree's folder; replaces `out` when given. */
  from?: string;
  q: string;
  agent?: string;
  tags?: string;
  category?: string;
  verified?: string;
  has?: string;
  /** `--runs`: `nothing` or `something` (issue 54). */
  runs?: string;
  /** `--max-always-tokens`. */
  max_always_tokens?: string;
  limit?: string;
  offset?: string;
  /** Print the `GET /api/v1/search` response as JSON. */
  json: boolean;
}

/**
 * Runs the search and prints a table or JSON; returns 0.
 * @throws LoadoutError `usage` naming each bad flag; `not_found` when the tree has no index.
 */
export async function searchCommand(options: SearchCommandOptions, out: Write): Promise<number> {
  const { out: dir, from, json: _json, ...flags } = options;
  const { query, errors } = parseSearchParameters(fromRecord(flags));
  if (query === undefined) {
    // The parameter names are the flag names, so the messages read as flags.
    throw new LoadoutError('usage', errors.map((e) => e.message.replace(/^q is/u, 'the query is').replace(/^(\w+) is/u, (_, name: string) => `--${name.replaceAll('_', '-')} is`)).join('; '));
  }
  let response: SearchResponse;
  const base = from === undefined ? undefined : catalogueBaseUrl(from);
  if (base !== undefined) {
    const parameters = new URLSearchParams();
    for (const [name, value] of Object.entries(flags)) if (value !== undefined) parameters.set(name, value);
    response = await searchRemote(base, query, parameters);
  } else {
    await checkCatalogueFolder(from ?? dir);
    response = (await loadSearchEngine(from ?? dir)).search(query);
  }
  // A remote catalogue is not trusted: its text is shown with terminal controls escaped.
  out(options.json ? `${printableJson(response)}\n` : printable(formatSearchTable(response)));
  return EXIT.ok;
}

/** The response as a terminal table: rank, id, version, score (when ranked), title and flags, then a count line; with no match, the suggestions; then the bundles found. */
export function formatSearchTable(response: SearchResponse): string {
  return formatLoadoutTable(response) + formatBundleLines(response);
}

/** The bundles found (issue 56), one line each after the loadouts: `bundle <id> <version>  <title>: <loadout> <range>, …`; '' for none. */
function formatBundleLines(response: SearchResponse): string {
  const bundles = response.bundles ?? [];
  if (bundles.length === 0) return '';
  return `${bundles.map((b) => `bundle ${b.id} ${b.version}  ${truncate(b.title, 48)}: ${b.loadouts.map((m) => `${m.id} ${m.range}`).join(', ')}`).join('\n')}\n`;
}

function formatLoadoutTable(response: SearchResponse): string {
  const { results, total, offset, query } = response;
  const what = query === '' ? 'all loadouts' : `"${query}"`;
  if (results.length === 0) {
    if (total > 0) return `no results at offset ${offset} (${total} in total for ${what})\n`;
    const suggested = (response.suggestions ?? []).map((s) => `${s.value} (${s.kind})`);
    return `no loadouts match ${what}${suggested.length === 0 ? '' : `; did you mean ${suggested.join(', ')}?`}\n`;
  }
  const ranked = query !== '';
  const rows = results.map((r, i) => [
    String(offset + i + 1),
    r.id,
    r.version,
    ...(ranked ? [r.score.toFixed(2)] : []),
    truncate(r.title, 48) + (r.featured ? ' [featured]' : '') + (r.deprecated ? ' [deprecated]' : ''),
  ]);
  const header = ['#', 'id', 'version', ...(ranked ? ['score'] : []), 'title'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ');
  const shown = `${offset + 1}-${offset + results.length} of ${total}`;
  return `${[line(header), ...rows.map(line)].join('\n')}\n${shown} for ${what}\n`;
}

const truncate = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
