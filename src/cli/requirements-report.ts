/**
 * The terminal form of requirements checked on this machine (`requirements/check-requirements.ts`):
 * the install's preflight and `loadout doctor` print them alike, one line per requirement, what
 * is missing with how to get it.
 */
import type { RequirementResult } from '../requirements/check-requirements.js';
import { printableLine } from './terminal-text.js';
import { BROUGHT } from '../install/requirements.js';

/** Each requirement once, though several agents' results repeat the tools and variables. */
export function uniqueRequirements(results: readonly RequirementResult[]): RequirementResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = JSON.stringify([r.kind, r.name, r.agent ?? null]);
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

const KIND: Record<RequirementResult['kind'], string> = { tool: 'tool', env: 'variable', mcp: 'MCP server' };

/** One requirement on one line: `ok       tool node (>=20): 20.11.1 at /usr/bin/node`, `missing  variable TOKEN: not set; set TOKEN …`. */
export function formatRequirement(r: RequirementResult): string {
  const what = `${KIND[r.kind]} ${r.name}${r.kind === 'tool' ? ` (${r.wanted})` : r.kind === 'mcp' ? ` for ${r.agent ?? ''}` : ''}`;
  const found = r.found === null ? (r.kind === 'env' ? 'not set' : 'not found') : r.kind === 'mcp' && r.found !== BROUGHT ? `in ${r.found}` : r.found;
  const where = r.path === undefined ? '' : ` at ${r.path}`;
  const how = r.how_to_get === null ? '' : `; get it: ${r.how_to_get}`;
  return printableLine(`${r.ok ? 'ok     ' : 'missing'}  ${what}: ${found}${r.ok ? where : ''}${how}`);
}

/** The lines of `results` under a heading, indented; empty when there are none. */
export function formatRequirements(heading: string, results: readonly RequirementResult[]): string {
  const unique = uniqueRequirements(results);
  if (unique.length === 0) return '';
  return `${heading}\n${unique.map((r) => `  ${formatRequirement(r)}\n`).join('')}`;
}

/**
 * The install's preflight for stderr, per loadout of the run (a bundle's members each, under its
 * own name and version): a warning listing what is missing (and what is there), or one heading
 * saying everything is there; nothing for a loadout whose catalogue publishes no requirements.
 * `outcomes` are the install's, one per loadout and agent.
 */
export function formatPreflight(outcomes: readonly { id: string; version: string; requirements: readonly RequirementResult[] | null }[]): string {
  const byLoadout = new Map<string, RequirementResult[]>();
  for (const o of outcomes) {
    const what = `${o.id} ${o.version}`;
    byLoadout.set(what, [...(byLoadout.get(what) ?? []), ...(o.requirements ?? [])]);
  }
  return [...byLoadout].map(([what, results]) => {
    if (results.every((r) => r.ok)) return formatRequirements(`loadout: what ${what} requires is on this machine:`, results);
    return formatRequirements(`loadout: warning: ${what} requires what is missing on this machine (the install goes on; --strict refuses; \`loadout doctor\` checks again):`, results);
  }).join('');
}
