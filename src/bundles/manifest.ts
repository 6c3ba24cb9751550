/**
 * The authoring form of a bundle, `bundles/<id>/bundle.yaml` (issue 56; DESIGN.md "Bundles";
 * `schema/bundle.schema.json`, the source of truth for its validation): a named set of the
 * catalogue's loadouts, each with a semver range (`catalogue/version-ranges.ts`) and, where it
 * is only for some agents, those agents. A loadout's own manifest is closed (the interface
 * specification's `additionalProperties: false`), so composition is a resource of its own.
 */
import { join } from 'node:path';
import type { Agent } from '../catalogue/vocabulary.js';

/** One member of a bundle: a loadout of this catalogue, the versions it accepts, and the agents it is for. */
export interface BundleMemberEntry {
  id: string;
  range: string;
  /** Absent: every agent the install asks for. */
  agents?: Agent[];
}

/** A `bundle.yaml` that validates against the bundle schema. */
export interface BundleManifest {
  id: string;
  title: string;
  summary: string;
  description: string;
  version: string;
  license: string;
  author: { name: string; url?: string; github?: string };
  loadouts: BundleMemberEntry[];
}

/** The folder of a catalogue's bundles, beside `loadouts/`. */
export const BUNDLES_FOLDER = 'bundles';
/** The manifest of a bundle folder. */
export const BUNDLE_FILE = 'bundle.yaml';

/** `<root>/bundles`: the folder of a catalogue's bundles. */
export const bundlesDirOf = (root: string): string => join(root, BUNDLES_FOLDER);

/** The display path of bundle `id`'s manifest, relative to the catalogue root: `bundles/<id>/bundle.yaml`. */
export const bundleFileOf = (id: string): string => `${BUNDLES_FOLDER}/${id}/${BUNDLE_FILE}`;
