/**
 * What each source format of `loadout import` hands over (DESIGN.md section 8): the files it
 * makes into loadout files, byte for byte, with their file entries; the source files it used;
 * and notes on what it left out and why. Shared helpers for names and descriptions.
 */
import { readFrontMatter } from '../catalogue/front-matter.js';
import type { FileEntry } from '../catalogue/manifest.js';
import { decodeUtf8 } from '../catalogue/source.js';
import type { SkippedSource, SourceFile, SourceTree } from './source-tree.js';

/** A file of the loadout being made: its file entry and its bytes. */
export interface ImportedFile {
  entry: FileEntry;
  bytes: Uint8Array;
  /** The source file it is a copy of (relative to the source root), or undefined when generated. */
  from?: string;
}

/** Metadata a format may find (a Claude Code plugin's `plugin.json`). */
export interface FoundMetadata {
  name?: string;
  description?: string;
  version?: string;
  author?: { name: string; url?: string };
  license?: string;
  repository?: string;
}

/** What one format took from the source. */
export interface FormatOutcome {
  files: ImportedFile[];
  /** Source paths this format used (no other format takes them). */
  claimed: string[];
  /** Source files it saw but left out, and why (with the fix). */
  notes: SkippedSource[];
  /** Rules not installed for an agent, and why: for the author's to-do list. */
  todo: string[];
  metadata?: FoundMetadata;
}

/** One source format: reads what it knows from the tree, leaving `claimed` files alone. */
export interface SourceFormat {
  /** Short name for messages, e.g. `Cursor rules`. */
  label: string;
  read(tree: SourceTree, claimed: ReadonlySet<string>): FormatOutcome;
}

/** An empty outcome to fill. */
export const emptyOutcome = (): FormatOutcome => ({ files: [], claimed: [], notes: [], todo: [] });

/** The last path segment. */
export const baseNameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * A slug from any text (`Thinking-Beast-Mode` → `thinking-beast-mode`): lower case, runs of
 * other characters become one hyphen, at most 64 characters; `fallback` when nothing is left.
 * Pure.
 */
export function slugify(text: string, fallback = 'imported'): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|(?<!-)-+$/gu, '')
    .slice(0, 64)
    .replace(/(?<!-)-+$/u, '');
  return slug === '' ? fallback : slug;
}

/** The front matter of a Markdown file's bytes ({} when it has none or is not UTF-8). */
export function frontMatterOf(file: SourceFile): Record<string, unknown> {
  const text = decodeUtf8(file.bytes);
  return text === undefined ? {} : readFrontMatter(text).data;
}

/** Text cut to `max` characters on a word boundary, with `…` when cut; whitespace collapsed. Pure. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/(?<![\s,.;:])[\s,.;:]+$/u, '')}…`;
}

/** A file entry `description` (1 to 200 characters): the front matter's `description`, else `fallback`. */
export function describeFile(file: SourceFile, fallback: string): string {
  const description = frontMatterOf(file)['description'];
  return typeof description === 'string' && description.trim() !== '' ? clip(description, 200) : clip(fallback, 200);
}

/** True when `bytes` are UTF-8 text without NUL (the `parse` check's rule for every file). */
export function isText(bytes: Uint8Array): boolean {
  const text = decodeUtf8(bytes);
  return text !== undefined && !text.includes('\u0000');
}

/** A name not yet in `taken` (`name`, `name-2`, `name-3`, …), then taken. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`;
  taken.add(candidate);
  return candidate;
}
