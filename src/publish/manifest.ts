/**
 * The publish manifest: what the last publish left in the bucket, kept in the bucket itself at
 * `<prefix>.loadout-publish.json` (docs/deploying.md, "The static tree on object storage"). It maps
 * each tree path (without the prefix) to the sha256, size and headers of the object published
 * there, so the next publish uploads only what changed without reading the objects back. Pure:
 * parsing and writing text.
 *
 * Shape: `{"format": 1, "objects": {"<path>": {"sha256": "<64 hex>", "bytes": <n>,
 * "content_type": "…", "cache_control": "…"}}}`, objects sorted by path, so that the same
 * bucket state always has the same bytes.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { describeKeyPathProblem } from './keys.js';

/** The manifest's name after the prefix. A dot file: the tree's own dot files are never published, so no path collides. */
export const MANIFEST_NAME = '.loadout-publish.json';

/** What the bucket holds at one path. */
export interface ManifestEntry {
  /** sha256 of the bytes, lower-case hex. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** The `Content-Type` it was stored with. */
  content_type: string;
  /** The `Cache-Control` it was stored with. */
  cache_control: string;
}

/** The manifest in memory (a Map, so that a path such as `__proto__` or `constructor` is just a path). */
export interface PublishManifest {
  /** Tree path (no prefix) → entry. */
  objects: Map<string, ManifestEntry>;
}

const SHA256 = /^[0-9a-f]{64}$/u;

/**
 * Parses a manifest read from `where` (for messages). Every path must be a plain relative path
 * (src/publish/keys.ts): the paths become keys to delete, and a tampered manifest must not aim
 * a delete outside the prefix.
 * @throws LoadoutError `invalid_content` naming the first problem, with a hint.
 */
export function parseManifest(text: string, where: string): PublishManifest {
  const fail = (what: string): never => {
    throw new LoadoutError('invalid_content', `${where}: ${what} (expected a publish manifest written by loadout publish)`, {
      hint: `delete ${where} to publish every object again (nothing else is lost)`,
    });
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('is not JSON');
  }
  if (!isRecord(data) || data['format'] !== 1 || !isRecord(data['objects'])) return fail('has no "format": 1 and "objects"');
  const objects = new Map<string, ManifestEntry>();
  for (const [path, entry] of Object.entries(data['objects'])) {
    const problem = describeKeyPathProblem(path);
    if (problem !== undefined) return fail(`object path ${JSON.stringify(path)} ${problem}`);
    if (
      !isRecord(entry) ||
      typeof entry['sha256'] !== 'string' ||
      !SHA256.test(entry['sha256']) ||
      !Number.isSafeInteger(entry['bytes']) ||
      (entry['bytes'] as number) < 0 ||
      typeof entry['content_type'] !== 'string' ||
      typeof entry['cache_control'] !== 'string'
    ) {
      return fail(`/objects/${path}: expected {sha256, bytes, content_type, cache_control}`);
    }
    objects.set(path, { sha256: entry['sha256'], bytes: entry['bytes'] as number, content_type: entry['content_type'], cache_control: entry['cache_control'] });
  }
  return { objects };
}

/** The manifest as UTF-8 JSON text, objects sorted by path (deterministic bytes). */
export function serialiseManifest(manifest: PublishManifest): string {
  // A null-prototype object: JSON.stringify writes a `__proto__` path as an ordinary key.
  const objects = Object.create(null) as Record<string, ManifestEntry>;
  for (const path of [...manifest.objects.keys()].sort()) {
    const e = manifest.objects.get(path) as ManifestEntry;
    objects[path] = { sha256: e.sha256, bytes: e.bytes, content_type: e.content_type, cache_control: e.cache_control };
  }
  return `${JSON.stringify({ format: 1, objects })}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
