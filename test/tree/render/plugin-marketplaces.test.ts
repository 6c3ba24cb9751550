/**
 * The marketplace documents' digests (src/tree/render/plugin-marketplaces.ts): a signing build
 * gets the digest of each document as written and of each plugin zip; a build that signs
 * nothing gets none and writes the same documents. (plugins.test.ts checks a signed build's
 * snapshot end to end.)
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKETPLACE } from '../../../src/layout/plugin-marketplaces.js';
import type { CatalogueListing } from '../../../src/tree/render/catalogue-entry.js';
import { MARKETPLACE_TREE_PATHS, writeMarketplaces } from '../../../src/tree/render/plugin-marketplaces.js';
import { outputOver, TreeFiles } from '../../../src/tree/write/tree-files.js';
import { makeTempDir } from '../../helpers/temp.js';

const BASE = 'https://catalogue.test';

/** A listing with what the marketplaces read; `plugin` absent for a loadout without one. */
function listing(id: string, plugin?: CatalogueListing['plugin'], categories: string[] = ['testing']): CatalogueListing {
  const row = { id, version: '1.2.0', summary: `The "${id}" loadout & more`, categories, stacks: ['react', 'node', 'react'], url: `${BASE}/loadouts/${id}/` } as Partial<CatalogueListing['row']>;
  return { row: row as CatalogueListing['row'], published: null, author: id === 'b' ? { name: 'B', url: 'https://b.test' } : { name: 'A' }, skills: '', discovery: { skills: [], legacy: [] }, ...(plugin === undefined ? {} : { plugin }) };
}

const LISTINGS = [listing('a', { sha256: 'a'.repeat(64), bytes: 100, license: 'MIT' }), listing('b', { sha256: 'b'.repeat(64), bytes: 200, license: 'Apache-2.0' }, []), listing('c')];
const DOCUMENTS = Object.values(MARKETPLACE_TREE_PATHS);

/** The four documents written into a fresh tree, and what writeMarketplaces returned. */
async function write(digests: boolean): Promise<{ texts: string[]; dir: string; result: Map<string, { sha256: string; bytes: number }> }> {
  const dir = makeTempDir();
  const result = await writeMarketplaces(outputOver(new TreeFiles(dir)), BASE, DEFAULT_MARKETPLACE, LISTINGS, { digests });
  return { dir, result, texts: DOCUMENTS.map((path) => readFileSync(join(dir, path), 'utf8')) };
}

describe('the marketplace documents\' digests', () => {
  it('are those of the documents as written and of the plugin zips when the build signs', async () => {
    const { dir, result } = await write(true);
    for (const path of DOCUMENTS) {
      const bytes = readFileSync(join(dir, path));
      expect(result.get(path)).toEqual({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength });
    }
    expect(result.get('download/a/plugin-1.2.0.zip')).toEqual({ sha256: 'a'.repeat(64), bytes: 100 });
    expect(result.get('download/b/plugin-1.2.0.zip')).toEqual({ sha256: 'b'.repeat(64), bytes: 200 });
    expect(result.size).toBe(DOCUMENTS.length + 2);
  });

  it('are not computed when the build signs nothing, and the documents are the same', async () => {
    const signed = await write(true);
    const unsigned = await write(false);
    expect(unsigned.result.size).toBe(0);
    expect(unsigned.texts).toEqual(signed.texts);
  });

  it('leave out what an entry lacks, as the vendors\' documents expect', async () => {
    const { dir } = await write(false);
    const claude = JSON.parse(readFileSync(join(dir, MARKETPLACE_TREE_PATHS.claude), 'utf8')) as { plugins: Record<string, unknown>[] };
    // Only the loadouts with a plugin; `category` only with a category, the author's `url` only when given.
    expect(claude.plugins.map((p) => p['name'])).toEqual(['a', 'b']);
    expect(claude.plugins[0]).toEqual({ name: 'a', version: '1.2.0', description: 'The "a" loadout & more', author: { name: 'A' }, homepage: `${BASE}/loadouts/a/`, license: 'MIT', keywords: ['react', 'node', 'testing'], category: 'testing', tags: ['react', 'node', 'react'], source: './a' });
    expect(claude.plugins[1]).not.toHaveProperty('category');
    expect(claude.plugins[1]?.['author']).toEqual({ name: 'B', url: 'https://b.test' });
    const codex = JSON.parse(readFileSync(join(dir, MARKETPLACE_TREE_PATHS.codex), 'utf8')) as { plugins: Record<string, unknown>[] };
    expect(codex.plugins[1]).toEqual({ name: 'b', source: { source: 'local', path: './b' }, policy: { installation: 'AVAILABLE', authentication: 'ON_INSTALL' } });
  });
});
