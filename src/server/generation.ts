/**
 * One generation: everything the server holds in memory for one built tree, loaded together
 * and swapped in as one object (DESIGN.md section 7, "Operation": a running server follows a
 * rebuild with 0 failed requests). A generation is the tree's resolved root (the folder the
 * `--out` link points at when it loads), the search engine with its ranking file, the MCP
 * catalogue (agents, tags, skills, discovery) and the app that answers from them, static files
 * included. A request takes the current generation once, when it starts, and is answered
 * wholly from it: a rebuild never gives one answer from two trees.
 */
import { realpath } from 'node:fs/promises';
import type { Hono } from 'hono';
import { LoadoutError } from '../catalogue/errors.js';
import { loadSearchEngine, type SearchEngine } from '../search/engine.js';
import { builtBaseUrl } from './built-description.js';

/** One loaded tree and the app over it. */
export interface Generation {
  /** 1 for the tree loaded at start, then one more for each swap. */
  readonly number: number;
  /** The tree's real folder (the `--out` link resolved at load time). */
  readonly root: string;
  readonly engine: SearchEngine;
  /** Answers every request that reaches the tree (search, MCP, static files, submissions). */
  readonly app: Hono;
  /** Milliseconds its load took. */
  readonly loadMs: number;
  /** The base URL the tree was built for, from its description document (built-description.ts); undefined when it names none. */
  readonly builtFor: string | undefined;
}

/** Builds the app of a generation from its root and engine (search, MCP, static files). */
export type GenerationAppFactory = (root: string, engine: SearchEngine) => Promise<Hono>;

/**
 * Loads the tree `--out` points at now as generation `number`: resolves the link once, then
 * reads everything from that folder, so a switch during the load cannot mix two trees.
 * `engine` reuses a search engine already loaded from `root` (the start-up path loads search first).
 * @throws LoadoutError `not_found` when `out` leads nowhere or the tree lacks its index or documents;
 *   whatever `makeApp` throws.
 */
export async function loadGeneration(out: string, number: number, makeApp: GenerationAppFactory, preloaded?: { root: string; engine: SearchEngine }): Promise<Generation> {
  const started = performance.now();
  const root = preloaded?.root ?? (await resolveTreeRoot(out));
  const engine = preloaded?.engine ?? (await loadSearchEngine(root));
  const [app, builtFor] = await Promise.all([makeApp(root, engine), builtBaseUrl(root)]);
  return { number, root, engine, app, loadMs: performance.now() - started, builtFor };
}

/**
 * The real folder of the tree at `out` (a link to one tree, or a folder).
 * @throws LoadoutError `not_found` when nothing is there.
 */
export async function resolveTreeRoot(out: string): Promise<string> {
  return realpath(out).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${out} leads to no built tree`, { cause, hint: 'Run `loadout build` first.' });
  });
}

/** The generation in service, swapped whole. */
export interface GenerationHolder {
  /** The generation new requests are answered from, or undefined before the first loads. */
  current(): Generation | undefined;
  /** Puts `next` in service; requests already started keep theirs. */
  swap(next: Generation): void;
}

/** A holder, empty or with `first`. Swaps are one assignment: atomic for the event loop. */
export function createGenerationHolder(first?: Generation): GenerationHolder {
  let live = first;
  return {
    current: () => live,
    swap(next) {
      live = next;
    },
  };
}
