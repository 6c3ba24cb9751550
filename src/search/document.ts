/**
 * What the search index holds per loadout: the indexed text ({@link SearchDocument}) and the
 * fields of a search result ({@link SearchRow}, DESIGN.md section 5 "GET /api/v1/search").
 * File contents are never indexed or kept: the index stays small enough for the pages to
 * download and for the server to hold 10,000 loadouts well under its memory target.
 */
import { PUBLISHED_AGENTS, type Agent, type CompatibilityLevel, type HAS_VALUES, type RUNS_VALUES } from '../catalogue/vocabulary.js';
import type { CatalogueEntry } from '../tree-format/catalogue-entry.js';
import { capabilitySummaryOf, type CapabilitySummary } from '../tree-format/capabilities.js';
import type { CompiledSettings } from './settings.js';

/** One of the search's `has` values. */
export type HasValue = (typeof HAS_VALUES)[number];

/** One of the search's `runs` values. */
export type RunsValue = (typeof RUNS_VALUES)[number];

/** The fields of one search result apart from `score`, in the response's order. */
export interface SearchRow {
  id: string;
  title: string;
  summary: string;
  version: string;
  categories: string[];
  stacks: string[];
  compatibility: Record<Agent, CompatibilityLevel>;
  counts: { rules: number; skills: number; mcp: number };
  /** Per agent, the estimated tokens loaded at every session start (`context[agent].always.tokens` of the record). */
  always_tokens: Record<Agent, number>;
  /**
   * What its capability list runs (`runs`) and how many hooks and scripts it brings (issue 54):
   * what `runs`, `has=hooks` and `has=scripts` filter on. Absent from the rows of a tree built
   * before capability lists, which those filters then never match.
   */
  capabilities: CapabilitySummary;
  verified: boolean;
  featured: boolean;
  deprecated: boolean;
  /** `YYYY-MM-DD` or null. */
  updated: string | null;
  url: string;
  api_url: string;
}

/** The text MiniSearch indexes for one loadout; one property per field of `SEARCH_SETTINGS.fields`. */
export interface SearchDocument {
  /** The loadout id: MiniSearch's document key, not indexed. */
  id: string;
  /** The id as text (`nextjs-app-router` → `nextjs app router nextjsapprouter`). */
  slug: string;
  title: string;
  stacks: string;
  categories: string;
  summary: string;
  skills: string;
  highlights: string;
  description: string;
  files: string;
}

/** The result fields of a loadout (its record, or the build's entry of it). Pure. */
export function searchRowOf(r: CatalogueEntry): SearchRow {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    version: r.version,
    categories: r.categories,
    stacks: r.stacks,
    compatibility: r.compatibility,
    counts: r.counts,
    always_tokens: Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, r.context[a].always.tokens])) as Record<Agent, number>,
    capabilities: capabilitySummaryOf(r.capabilities),
    verified: r.verification.verified,
    featured: r.featured,
    deprecated: r.deprecated,
    updated: r.updated ?? null,
    url: r.url,
    api_url: r.api_url,
  };
}

/**
 * True when `row` has at least one of `has` (the search's `has`): a rule file, skill or MCP
 * server by its `counts` (spec "Search"), a hook or script by its capability list (issue 54).
 * A row without a capability list (a tree built before them) has no hooks or scripts. Pure.
 */
export function rowHas(row: Pick<SearchRow, 'counts'> & { capabilities?: CapabilitySummary }, has: HasValue): boolean {
  switch (has) {
    case 'hooks':
    case 'scripts':
      return (row.capabilities?.[has] ?? 0) > 0;
    default:
      return row.counts[has] > 0;
  }
}

/** True when `row`'s capability list `runs` as `runs` says; a row without one (a tree built before them) never does. Pure. */
export function rowRuns(row: { capabilities?: Pick<CapabilitySummary, 'runs'> }, runs: RunsValue): boolean {
  return row.capabilities?.runs === runs;
}

/**
 * The indexed text of a published record: title, summary, highlights, description, stacks,
 * categories, skill names and file descriptions (DESIGN.md section 5), plus the id as `slug`. Slugs and
 * dotted names also appear joined (`next.js` and `next-js` → `nextjs`, by `compiled.withJoined`),
 * so a query that writes a name without its separator still matches. Pure.
 */
export function searchDocumentOf(r: CatalogueEntry, compiled: CompiledSettings): SearchDocument {
  const { withJoined } = compiled;
  const skills = [...new Set(r.files.flatMap((f) => (f.skill === null ? [] : [f.skill])))];
  return {
    id: r.id,
    slug: withJoined(r.id),
    title: withJoined(r.title),
    stacks: withJoined(r.stacks.join(' ')),
    categories: withJoined(r.categories.join(' ')),
    summary: withJoined(r.summary),
    skills: withJoined(skills.join(' ')),
    highlights: withJoined(r.highlights.join('\n')),
    description: r.description,
    files: r.files.map((f) => f.description).join('\n'),
  };
}
