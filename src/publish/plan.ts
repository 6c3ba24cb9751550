/**
 * The plan of a publish, from the local tree and the bucket's manifest alone (pure: no I/O).
 * Rules (docs/deploying.md, "The static tree on object storage"):
 * - upload only objects whose bytes (or headers) differ from the manifest;
 * - upload in three phases, each finished before the next starts: content (raw files, zips,
 *   page assets), then records and pages, then catalogue documents, so that a reader never
 *   sees a document pointing at something not uploaded yet; the manifest comes after all;
 * - never delete a pinned version's files; delete other stale objects only with `--delete`.
 */
import { addressClassOf, cacheControlFor, contentTypeFor, type AddressClass } from '../tree-format/tree-headers.js';
import type { ManifestEntry, PublishManifest } from './manifest.js';

/** A file of the tree with what it is published as. */
export interface LocalObject {
  /** Tree path, e.g. `api/loadouts/x.json`. */
  path: string;
  sha256: string;
  bytes: number;
  contentType: string;
  cacheControl: string;
  addressClass: AddressClass;
}

/** Why a stale object (in the manifest, no longer in the tree) stays in the bucket. */
export type KeepReason = 'pinned' | 'no-delete';

/** What a publish will do. Paths are tree paths (no prefix). */
export interface PublishPlan {
  /** Uploads in order: `[content, records and pages, catalogue documents]`; each phase sorted by path. */
  phases: [LocalObject[], LocalObject[], LocalObject[]];
  /** Paths whose object in the bucket already has these bytes and headers. */
  unchanged: string[];
  /** Stale paths to delete (only with `delete`), sorted. */
  deletes: string[];
  /** Stale paths kept, with the reason, sorted. */
  kept: { path: string; reason: KeepReason }[];
  /** Pinned raw files whose bytes differ from what was published (caches may hold the old bytes for a year). */
  changedPinned: string[];
  /** The manifest to write after the uploads and deletes. */
  manifest: PublishManifest;
  /** False when the manifest would be written with the bytes it already has. */
  manifestChanged: boolean;
}

/** The phase of each class: 0 content, 1 records and pages, 2 catalogue documents. */
const PHASE: Readonly<Record<AddressClass, 0 | 1 | 2>> = {
  'pinned-raw': 0,
  raw: 0,
  download: 0,
  asset: 0,
  // Skill archives and files before the discovery indexes (page, catalogue) that point at them.
  'well-known': 0,
  record: 1,
  page: 1,
  catalogue: 2,
};

/** The upload phase (0, 1 or 2) of a tree path. */
export function phaseOf(path: string): 0 | 1 | 2 {
  return PHASE[addressClassOf(path)];
}

/** `{path, sha256, bytes}` with its headers and class (src/publish/headers.ts). */
export function describeLocalObject(file: { path: string; sha256: string; bytes: number }): LocalObject {
  return { path: file.path, sha256: file.sha256, bytes: file.bytes, contentType: contentTypeFor(file.path), cacheControl: cacheControlFor(file.path), addressClass: addressClassOf(file.path) };
}

/**
 * Plans a publish of `local` over a bucket described by `previous` (`undefined`: no manifest
 * yet, so everything is uploaded). The next manifest lists the tree plus every stale object
 * kept, so a later `--delete` still finds them and pinned files stay known.
 */
export function planPublish(local: readonly LocalObject[], previous: PublishManifest | undefined, options: { delete: boolean }): PublishPlan {
  const phases: PublishPlan['phases'] = [[], [], []];
  const unchanged: string[] = [];
  const changedPinned: string[] = [];
  const next = new Map<string, ManifestEntry>();
  const seen = new Set<string>();
  for (const object of [...local].sort((a, b) => compare(a.path, b.path))) {
    seen.add(object.path);
    const entry: ManifestEntry = { sha256: object.sha256, bytes: object.bytes, content_type: object.contentType, cache_control: object.cacheControl };
    next.set(object.path, entry);
    const old = previous?.objects.get(object.path);
    if (old !== undefined && sameEntry(old, entry)) {
      unchanged.push(object.path);
      continue;
    }
    if (old !== undefined && object.addressClass === 'pinned-raw' && old.sha256 !== entry.sha256) changedPinned.push(object.path);
    phases[PHASE[object.addressClass]].push(object);
  }

  const deletes: string[] = [];
  const kept: PublishPlan['kept'] = [];
  for (const [path, entry] of [...(previous?.objects ?? new Map<string, ManifestEntry>())].sort(([a], [b]) => compare(a, b))) {
    if (seen.has(path)) continue;
    if (addressClassOf(path) === 'pinned-raw') kept.push({ path, reason: 'pinned' });
    else if (!options.delete) kept.push({ path, reason: 'no-delete' });
    else {
      deletes.push(path);
      continue;
    }
    next.set(path, entry);
  }

  const manifestChanged = previous === undefined || phases.some((p) => p.length > 0) || deletes.length > 0;
  return { phases, unchanged, deletes, kept, changedPinned, manifest: { objects: next }, manifestChanged };
}

function sameEntry(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.sha256 === b.sha256 && a.bytes === b.bytes && a.content_type === b.content_type && a.cache_control === b.cache_control;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
