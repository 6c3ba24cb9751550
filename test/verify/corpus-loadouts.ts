/**
 * Wrapping the real-world corpus (`../shared/corpus/`, see its README) in loadouts: each skill
 * folder, instructions file, agent file and Cursor rule becomes one loadout in a temporary
 * catalogue, with the record an honest author would write: its scripts listed,
 * `security.network: false`, and a Cursor rule (no `applyTo`) not installed for Copilot.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';

/** The corpus folder: `LOADOUT_CORPUS_DIR`, else `<repo>/../shared/corpus`. */
export const CORPUS_DIR = process.env['LOADOUT_CORPUS_DIR'] ?? fileURLToPath(new URL('../../../shared/corpus', import.meta.url));

/** A loadout file of a corpus item, with the corpus file it was copied from. */
export interface CorpusFile extends TestFile {
  /** Path of the original, relative to the corpus folder (`superpowers/skills/x/SKILL.md`). */
  source: string;
}

/** One corpus item: its kind, a loadout id, and the loadout files it becomes. */
export interface CorpusItem {
  /** `<repo>/skills/<name>`, `<repo>/instructions/<file>`, `<repo>/agents/<file>` or `<repo>/rules/<file>`. */
  name: string;
  id: string;
  files: CorpusFile[];
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-|-$/gu, '')
    .slice(0, 60);
}

/** Every corpus item of every repository folder under `dir` (empty when `dir` does not exist). */
export function readCorpus(dir = CORPUS_DIR): CorpusItem[] {
  if (!existsSync(dir)) return [];
  const items: CorpusItem[] = [];
  for (const repo of readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory())) {
    const base = join(dir, repo);
    const skills = join(base, 'skills');
    if (existsSync(skills)) {
      for (const name of readdirSync(skills).sort()) {
        const folder = join(skills, name);
        const files: CorpusFile[] = walk(folder).map((path) => {
          const rel = relative(folder, path).split('\\').join('/');
          return { path: `skills/${name}/${rel}`, role: rel === 'SKILL.md' ? 'skill' : 'reference', skill: name, content: readFileSync(path, 'utf8'), source: `${repo}/skills/${name}/${rel}` };
        });
        items.push({ name: `${repo}/skills/${name}`, id: `skill-${slug(name)}`.slice(0, 60).replace(/-$/u, ''), files });
      }
    }
    // Copilot instructions and Cursor rules are both rules; Cursor's (`.mdc`, no applyTo) are not installed for Copilot.
    for (const [kind, role, folder, prefix] of [['instructions', 'rules', 'rules', 'rule'], ['agents', 'subagent', 'agents', 'agent'], ['rules', 'rules', 'rules', 'cursor']] as const) {
      const dirPath = join(base, kind);
      if (!existsSync(dirPath)) continue;
      for (const file of readdirSync(dirPath).sort()) {
        const stem = file.replace(/\.(?:instructions|agent)\.md$/u, '').replace(/\.(?:md|mdc)$/u, '');
        const entry: CorpusFile = { path: `${folder}/${slug(stem)}.md`, role, content: readFileSync(join(dirPath, file), 'utf8'), source: `${repo}/${kind}/${file}` };
        if (file.endsWith('.mdc')) entry.install_to = { copilot: null };
        items.push({ name: `${repo}/${kind}/${file}`, id: `${prefix}-${slug(stem)}`.slice(0, 60).replace(/-$/u, ''), files: [entry] });
      }
    }
  }
  return items;
}

const SCRIPT = /\.(?:sh|bash|ps1|py|js|mjs|cjs|ts|rb|pl)$/u;

/** Writes `item` as `<root>/loadouts/<id>/`; scripts (by extension or shebang) are listed in `security.scripts`. */
export function writeCorpusLoadout(root: string, item: CorpusItem): void {
  const title = `Corpus ${item.id}`.slice(0, 60);
  const scripts = item.files.filter((f) => SCRIPT.test(f.path) || f.content.startsWith('#!')).map((f) => f.path);
  writeLoadout(root, {
    id: item.id,
    title,
    files: [...baseFiles(title), ...item.files.map(({ source: _source, ...file }) => file)],
    manifest: { security: { scanned: true, network: false, scripts } },
  });
}
