/**
 * Snapshots of a folder tree as relative path → sha256, for comparing a project before and
 * after an install (the `starter-build` check).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Relative path (forward slashes) → sha256 hex of every regular file under `dir`; other entries map to `"<special>"`. */
export async function snapshotTree(dir: string, prefix = '', into = new Map<string, string>()): Promise<Map<string, string>> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  for (const entry of entries) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) await snapshotTree(dir, rel, into);
    else if (entry.isFile()) into.set(rel, sha256(await readFile(join(dir, rel))));
    else into.set(rel, '<special>');
  }
  return into;
}

/** sha256 hex of `bytes`. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
