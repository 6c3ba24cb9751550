/**
 * Helpers for the `loadout import` tests: a temporary catalogue, source folders written from a
 * path → content map, and reading back what an import wrote.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Manifest } from '../../src/catalogue/manifest.js';
import { importLoadout, type ImportResult } from '../../src/import/import.js';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';
import { makeTempDir } from '../helpers/temp.js';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';

/** A catalogue root with an empty `loadouts/`. */
export function makeCatalogueRoot(): string {
  const root = makeTempDir('loadout-import-root-');
  mkdirSync(join(root, 'loadouts'));
  return root;
}

/** Writes `files` (path → text or bytes) below a new temporary folder; returns it. */
export function writeSource(files: Record<string, string | Uint8Array>, dir = makeTempDir('loadout-import-src-')): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Imports `source` into `root` (dated 2026-11-22). */
export function runImport(root: string, source: string, more: { id?: string; dryRun?: boolean; author?: string | null } = {}): Promise<ImportResult> {
  // Most sources name no author: credit one as `--author` does, unless a test asks for none (null).
  const author = more.author === undefined ? 'Import Test' : more.author;
  return importLoadout({ root, source, dryRun: more.dryRun ?? false, today: '2026-11-22', ...(more.id === undefined ? {} : { id: more.id }), ...(author === null ? {} : { author }) });
}

/** Every file below `dir`, relative, `/`-separated, sorted. */
export function listFiles(dir: string): string[] {
  return listFolderEntries(dir)
    .filter((e) => !e.dirent.isDirectory())
    .map((e) => e.path)
    .sort();
}

/** The manifest an import wrote. */
export function readManifest(root: string, id: string): Manifest {
  return parseYaml(readFileSync(join(root, 'loadouts', id, 'loadout.yaml'), 'utf8')) as Manifest;
}

/** `loadout validate` (the listing check) and `loadout verify` of one loadout, in process. */
export async function validateAndVerify(root: string, id: string): Promise<{ valid: boolean; verified: boolean; details: string[] }> {
  const [listing] = await checkCatalogue({ root }, [id], { only: ['listing'] });
  const [all] = await checkCatalogue({ root }, [id]);
  if (listing === undefined || all === undefined) throw new Error(`no run for ${id}`);
  return { valid: passed(listing), verified: passed(all), details: all.results.filter((r) => r.status === 'fail').flatMap((r) => r.details) };
}
