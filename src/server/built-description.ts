/**
 * What a built tree says of itself in its static description document (`api/v1/index.json`,
 * written by tree/render/catalogue-documents.ts): the base URL it was built for and what the
 * build published beyond the service (the consumer CLI, the signing keys, the plugins). The
 * server reads it to name the tree's own addresses in `GET /api/v1` (app.ts) and to warn when
 * a tree was built for another base URL than the one it publishes (cli/commands/serve.ts),
 * at start and on every rebuild it follows (issue 57, point 6).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PublishedKey } from '../tree-format/signing/keys.js';
import type { CliDescription, PluginsDescription, PublishedExtras } from '../tree/render/description.js';

/** The tree's own description, as far as it can be read. */
export interface BuiltDescription {
  /**
   * The base URL the tree was built for (no trailing slash), read from the document's `schema`
   * address, `<base>/api/schema.json` (description.ts `schemaUrl`); undefined when the tree
   * has no readable document or its `schema` has another form.
   */
  baseUrl: string | undefined;
  /** `cli`, `signing.keys` and `plugins` as the build wrote them (each absent when it did not). */
  extras: PublishedExtras;
}

const SCHEMA_PATH = '/api/schema.json';

/**
 * Reads `<distDir>/api/v1/index.json`. Never throws: a tree without the document (or with one
 * that does not parse) gives `{ baseUrl: undefined, extras: {} }`.
 */
export async function readBuiltDescription(distDir: string): Promise<BuiltDescription> {
  let doc: { schema?: unknown; cli?: CliDescription; signing?: { keys?: PublishedKey[] }; plugins?: PluginsDescription };
  try {
    doc = JSON.parse(await readFile(join(distDir, 'api', 'v1', 'index.json'), 'utf8')) as typeof doc;
  } catch {
    return { baseUrl: undefined, extras: {} };
  }
  if (doc === null || typeof doc !== 'object') return { baseUrl: undefined, extras: {} };
  const baseUrl = typeof doc.schema === 'string' && doc.schema.endsWith(SCHEMA_PATH) ? doc.schema.slice(0, -SCHEMA_PATH.length) : undefined;
  return { baseUrl, extras: { cli: doc.cli, signingKeys: doc.signing?.keys, plugins: doc.plugins } };
}

/** The base URL the tree in `distDir` was built for ({@link readBuiltDescription}), or undefined. */
export async function builtBaseUrl(distDir: string): Promise<string | undefined> {
  return (await readBuiltDescription(distDir)).baseUrl;
}

/**
 * The warning for a tree built for `builtFor` served by a server that publishes `publishes`
 * (both base URLs without a trailing slash), or undefined when they are the same. `tree` names
 * the tree (the `--out` folder). One sentence, without a trailing newline.
 */
export function otherBaseWarning(tree: string, builtFor: string | undefined, publishes: string): string | undefined {
  if (builtFor === undefined || builtFor === publishes) return undefined;
  return `${tree} was built for ${builtFor}, but this server publishes ${publishes}; the pages' links and commands and /api/v1 name ${builtFor} (rebuild with the same LOADOUT_BASE_URL or PORT, or set LOADOUT_BASE_URL=${builtFor})`;
}
