/**
 * Reading a catalogue's bundles (issue 56, point 1): listing `bundles/`, reading each
 * `bundle.yaml`, and the checks that need nothing but the file: YAML that parses, the bundle
 * schema (`schema/bundle.schema.json`), the id equal to the folder's name, a licence of the
 * allowed list, ranges that node-semver reads, and each loadout named once. Every problem is a
 * diagnostic that names the file and the line (DESIGN.md section 4: findings name file and
 * line); what needs the catalogue's loadouts is checked by check.ts.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../catalogue/diagnostics.js';
import { escapePointer, validateBundleAgainstSchema } from '../catalogue/schema.js';
import { decodeUtf8 } from '../catalogue/source.js';
import { describeRangeProblem } from '../catalogue/version-ranges.js';
import { LICENCES } from '../catalogue/vocabulary.js';
import { parseYamlSource } from '../catalogue/yaml-document.js';
import { BUNDLE_FILE, bundleFileOf, bundlesDirOf, type BundleManifest } from './manifest.js';

/** The bytes of one bundle folder's manifest. */
export interface BundleSource {
  /** The folder's name. */
  id: string;
  /** `bundles/<id>/bundle.yaml`, as diagnostics name it. */
  file: string;
  /** The manifest's bytes; undefined when the folder has no `bundle.yaml` (or it is not a regular file). */
  bytes: Uint8Array | undefined;
}

/** A bundle as read: its manifest when it has the schema's shape, and every problem found. */
export interface ReadBundle {
  id: string;
  file: string;
  /** Set when the file parsed and passed the schema (other problems may remain: see `diagnostics`). */
  manifest: BundleManifest | undefined;
  diagnostics: Diagnostic[];
  /** The line of an RFC 6901 pointer into the manifest (or of its nearest parent), for later findings. */
  lineOf(pointer: string): number | undefined;
}

/**
 * The bundle ids of the catalogue at `root`: the folders directly under `bundles/`, sorted;
 * hidden folders ignored; none when there is no `bundles/` folder. Synchronous: a catalogue has
 * few bundles (DESIGN.md section 7 leaves the build's time to its loadouts).
 * @throws the file system's error when `bundles/` exists but cannot be read.
 */
export function listBundleIds(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(bundlesDirOf(root), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

/**
 * Reads `bundles/<id>/bundle.yaml` of the catalogue at `root`. A symbolic link is not followed
 * (it could point outside the catalogue): it reads as no manifest.
 * @throws the file system's error other than a missing file.
 */
export function readBundleSource(root: string, id: string): BundleSource {
  const path = join(bundlesDirOf(root), id, BUNDLE_FILE);
  const file = bundleFileOf(id);
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return { id, file, bytes: undefined };
  return { id, file, bytes: readFileSync(path) };
}

/**
 * Parses and checks one bundle's manifest on its own (see the module comment). Never throws
 * for bad content.
 */
export function parseBundle(source: BundleSource): ReadBundle {
  const { id, file } = source;
  const diagnostics: Diagnostic[] = [];
  const at = (pointer: string, message: string, line: number | undefined, hint?: string): Diagnostic => ({ loadout: id, file, ...(line === undefined ? {} : { line }), pointer, message, ...(hint === undefined ? {} : { hint }) });
  const none: ReadBundle = { id, file, manifest: undefined, diagnostics, lineOf: () => undefined };
  if (source.bytes === undefined) {
    diagnostics.push({ loadout: id, file, message: `no ${BUNDLE_FILE} in bundles/${id}/ (expected the bundle's manifest there, a regular file)`, hint: 'Write bundles/<id>/bundle.yaml (docs/authoring.md, "Bundles"), or remove the folder.' });
    return none;
  }
  const text = decodeUtf8(source.bytes);
  if (text === undefined) {
    diagnostics.push({ loadout: id, file, message: 'is not UTF-8 text (expected a YAML file in UTF-8)' });
    return none;
  }
  const yaml = parseYamlSource(text);
  const lineOf = (pointer: string): number | undefined => yaml.lineOf(pointer);
  if (yaml.errors.length > 0) {
    for (const error of yaml.errors) diagnostics.push({ loadout: id, file, line: error.line, message: `YAML syntax error: ${error.message}` });
    return { ...none, lineOf };
  }
  const violations = validateBundleAgainstSchema(yaml.data);
  for (const v of violations) diagnostics.push(at(v.pointer, `${v.pointer === '' ? 'the bundle' : v.pointer} ${v.message}`, lineOf(v.pointer)));
  if (violations.length > 0) return { ...none, lineOf };
  const manifest = yaml.data as BundleManifest;
  if (manifest.id !== id) diagnostics.push(at('/id', `/id is ${JSON.stringify(manifest.id)} (expected ${JSON.stringify(id)}, the folder's name)`, lineOf('/id')));
  if (!(LICENCES as readonly string[]).includes(manifest.license)) diagnostics.push(at('/license', `/license is ${JSON.stringify(manifest.license)} (expected one of ${LICENCES.join(', ')})`, lineOf('/license')));
  const firstLine = new Map<string, number | undefined>();
  manifest.loadouts.forEach((member, i) => {
    const pointer = `/loadouts/${i}`;
    const problem = describeRangeProblem(member.range);
    if (problem !== undefined) diagnostics.push(at(`${pointer}/range`, `the range of ${member.id}, ${JSON.stringify(member.range)}, ${problem}`, lineOf(`${pointer}/range`), 'node-semver reads the range as npm does: github.com/npm/node-semver#ranges.'));
    const seen = firstLine.get(member.id);
    if (firstLine.has(member.id)) diagnostics.push(at(`${pointer}/id`, `names loadout ${member.id} again${seen === undefined ? '' : ` (first at line ${seen})`} (expected each loadout once)`, lineOf(`${pointer}/id`)));
    else firstLine.set(member.id, lineOf(`${pointer}/id`));
  });
  return { id, file, manifest, diagnostics, lineOf };
}

/** The pointer of member `index`'s `field` in a bundle manifest. */
export const memberPointer = (index: number, field: 'id' | 'range' | 'agents'): string => `/loadouts/${index}/${escapePointer(field)}`;
