/**
 * The import graph of `src/` and the directions its rooms may import in (DESIGN.md,
 * "Directions"; STYLE.md habit 5a): a room is a folder directly under `src/` (a file directly
 * under `src/` is a room of its own). Every import is read, type-only ones, re-exports and
 * `import()` included (TypeScript's `preProcessFile`, which reads the import syntax without
 * type checking), so a shape taken from the wrong room counts as much as a function.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import: the importing file and the imported one, both relative to the repository (`src/a/b.ts`). */
export interface ImportEdge {
  from: string;
  to: string;
}

/**
 * What a room may import. `only` lists every other room it may import (none for `[]`);
 * `never` lists rooms it must not import, all others allowed. `why` is the design's reason,
 * shown in a failure and in the diagram.
 */
export interface RoomRule {
  room: string;
  only?: readonly string[];
  never?: readonly string[];
  why: string;
}

/** The directions of DESIGN.md, "Directions" (decided 2026-11-26), one entry per room they constrain. */
export const ROOM_RULES: readonly RoomRule[] = [
  { room: 'catalogue', only: [], why: 'the vocabulary: imports nothing else of the project' },
  { room: 'tree-format', only: ['catalogue'], why: 'the published format: imports only the vocabulary' },
  { room: 'capabilities', only: ['catalogue', 'tree-format'], why: 'what a loadout can run and what needs consent: one rule below the layout, the checks, the installer and the pages' },
  { room: 'policy', only: ['catalogue', 'tree-format', 'capabilities'], why: 'a team\'s policy and its one judge: below the installer, the checks and the CLI that hold to it' },
  { room: 'requirements', only: ['catalogue'], why: 'what a loadout requires of the machine, checked on it: below the installer, the checks and the CLI' },
  { room: 'layout', never: ['install'], why: 'the per-agent layout tables: below the installer' },
  { room: 'search', never: ['tree'], why: 'reads the published format, never the builder' },
  { room: 'mcp', never: ['tree'], why: 'reads the published format, never the builder' },
  { room: 'pages', never: ['server', 'submissions'], why: 'shares shapes with server/ and submissions/ through tree-format/' },
];

/**
 * The room of a repository-relative source path: its first folder below `src/`, or the file's
 * name for a file directly in `src/` (`src/concurrency.ts` → `concurrency.ts`).
 */
export function roomOf(path: string): string {
  const parts = path.split('/');
  return parts[1] ?? path;
}

/**
 * Every relative import of every `.ts` file below `<root>/src`, as repository-relative paths
 * with `.js` specifiers mapped back to the `.ts` source (the project is NodeNext: sources import
 * `./x.js` for `./x.ts`). Package imports are not edges. Reads the files; throws the file
 * system's error when `root` has no `src/`.
 */
export function readImportGraph(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of listSources(join(root, 'src'))) {
    const from = toRepoPath(root, file);
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), imported.fileName).replace(/\.js$/u, '.ts');
      edges.push({ from, to: toRepoPath(root, target) });
    }
  }
  return edges.sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
}

/**
 * The imports that go the wrong way under `rules`, one line each naming both files, the rule
 * and its reason: `src/a/x.ts → src/b/y.ts: a/ may not import b/ (why)`. Imports inside one
 * room are always allowed. Pure.
 */
export function findWrongWayImports(edges: readonly ImportEdge[], rules: readonly RoomRule[] = ROOM_RULES): string[] {
  const byRoom = new Map(rules.map((rule) => [rule.room, rule]));
  const wrong: string[] = [];
  for (const { from, to } of edges) {
    const source = roomOf(from);
    const target = roomOf(to);
    const rule = byRoom.get(source);
    if (rule === undefined || source === target) continue;
    const allowed = rule.only !== undefined ? rule.only.includes(target) : !(rule.never ?? []).includes(target);
    if (!allowed) wrong.push(`${from} → ${to}: ${source}/ may not import ${target}/ (${rule.why})`);
  }
  return wrong;
}

/**
 * The Mermaid flowchart of `rules` (GitHub renders ```` ```mermaid ```` blocks): a solid arrow
 * for each room a restricted room may import, a dotted crossed arrow labelled "never" for each
 * room it must not import. Node ids are the room names with `-` as `_` (Mermaid reads `-` as part
 * of an arrow). Pure; the same rules give the same text.
 */
export function roomsDiagram(rules: readonly RoomRule[] = ROOM_RULES): string {
  const id = (room: string): string => room.replace(/[^a-z0-9]/gu, '_');
  const rooms = [...new Set(rules.flatMap((rule) => [rule.room, ...(rule.only ?? []), ...(rule.never ?? [])]))];
  const lines = ['flowchart BT'];
  for (const room of rooms) {
    const rule = rules.find((r) => r.room === room);
    lines.push(`  ${id(room)}["${room}/${rule === undefined ? '' : `<br/>${rule.why}`}"]`);
  }
  for (const rule of rules) {
    for (const target of rule.only ?? []) lines.push(`  ${id(rule.room)} --> ${id(target)}`);
    for (const target of rule.never ?? []) lines.push(`  ${id(rule.room)} -. never .-x ${id(target)}`);
  }
  return lines.join('\n');
}

/** The modules through which code reaches the file system: Node's, and the catalogue's path-based readers over them. */
const FILE_SYSTEM_MODULES = ['node:fs', 'node:fs/promises', 'fs', 'fs/promises', 'src/catalogue/read-at-most.ts', 'src/catalogue/folder-entries.ts'];

/**
 * The files of `src/install/` allowed to reach the file system, each with why: the one handle
 * on the project (issue 53, point 1), and the catalogue reader's access to a built tree, which
 * reads a catalogue, never the project.
 */
export const FILE_SYSTEM_ACCESS: Readonly<Record<string, string>> = {
  'src/install/project/project-root.ts': 'the one handle on the project: every read, write, rename and removal in a project or the home folder',
  'src/install/catalogue/catalogue-folder.ts': "the catalogue reader's access to a built tree (--from <folder>): it reads a catalogue, not the project",
};

/**
 * The files below `<root>/src/install/` that import a file-system module other than through the
 * allowed files of `allowed` (default {@link FILE_SYSTEM_ACCESS}), one line each naming the file
 * and the module, type-only imports included. Reads the files.
 */
export function findFileSystemImports(root: string, allowed: Readonly<Record<string, string>> = FILE_SYSTEM_ACCESS): string[] {
  const found: string[] = [];
  const dir = join(root, 'src', 'install');
  for (const file of listSources(dir)) {
    const from = toRepoPath(root, file);
    if (Object.hasOwn(allowed, from)) continue;
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const name = imported.fileName.startsWith('.') ? toRepoPath(root, resolve(dirname(file), imported.fileName).replace(/\.js$/u, '.ts')) : imported.fileName;
      if (FILE_SYSTEM_MODULES.includes(name)) found.push(`${from} imports ${name}: under src/install/ only ${Object.keys(allowed).join(' and ')} may reach the file system (every path of a project goes through the project's handle)`);
    }
  }
  return found.sort();
}

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function toRepoPath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
