/**
 * From what the formats found to a loadout (DESIGN.md section 8, `loadout import`): `loadout.yaml`
 * with roles, skills and descriptions from the files' front matter, the licence, the source and
 * author from git, the generated adapters, an `AGENTS.md` when the content had none, and the list
 * of what the author must still fill in. Pure: no I/O.
 */
import { stringify } from 'yaml';
import { ADAPTER_AGENTS, adapterFileName, generateAdapter } from '../adapters/generate.js';
import type { FileEntry, Manifest } from '../catalogue/manifest.js';
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import type { LoadoutSource } from '../catalogue/source.js';
import { VERSION_PATTERN, type Licence } from '../catalogue/vocabulary.js';
import { declareSecurity } from '../submissions/declared-security.js';
import type { GitOrigin } from './metadata.js';
import { baseNameOf, clip, frontMatterOf, type FoundMetadata, type ImportedFile } from './parts.js';

/** The licence `license` gets when none was found: not an accepted id, so the `licence` check names it. */
export const UNKNOWN_LICENCE = 'UNKNOWN';
/** The author when none was found. */
export const UNKNOWN_AUTHOR = 'Your Name';

/** Everything {@link assembleLoadout} needs. */
export interface AssembleInput {
  id: string;
  /** Name of the imported folder (or plugin), for the title when nothing better is known. */
  sourceName: string;
  files: ImportedFile[];
  metadata: FoundMetadata;
  /** The licence and where it was found (a file, or a front matter or plugin.json field). */
  licence: { licence: Licence; from: string } | undefined;
  git: GitOrigin | undefined;
  /** `YYYY-MM-DD` for `last_checked`. */
  today: string;
  /** The author named on the command line (`--author`), credited when the source names none. */
  author?: string;
}

/** The loadout to write. */
export interface AssembledLoadout {
  manifest: Manifest;
  manifestText: string;
  /** Every file, imported and generated, in manifest order. */
  files: ImportedFile[];
  /** The same as a source the checks can judge, with `displayDir` `loadouts/<id>`. */
  source: LoadoutSource;
  /** What the author must still fill in or decide, one line each. */
  todo: string[];
}

const titleCase = (text: string): string =>
  text
    .split(/[-_\s]+/u)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/** `text` made to fit `min`..`max` characters: cut on a word, or extended with `pad`. */
function fit(text: string, min: number, max: number, pad: string): string {
  let fitted = clip(text, max);
  if (fitted.length < min) fitted = clip(`${fitted}${fitted === '' ? '' : ' '}${pad}`, max);
  return fitted;
}

/**
 * Builds the loadout. Files that collide on a path keep the first; later ones get `-2`,
 * `-3` before their extension (two rules of the same name from Copilot and Cursor).
 */
export function assembleLoadout(input: AssembleInput): AssembledLoadout {
  const todo: string[] = [];
  const files = uniquePaths(input.files);
  const count = (role: FileEntry['role']): number => files.filter((f) => f.entry.role === role).length;
  const skills = files.filter((f) => f.entry.role === 'skill');
  const meta = input.metadata;

  // One skill, rule or subagent: the loadout is named and summarised after it.
  const items = files.filter((f) => f.entry.role === 'skill' || f.entry.role === 'rules' || f.entry.role === 'subagent');
  const single = items.length === 1 ? items[0] : undefined;
  const singleName = single === undefined ? undefined : (single.entry.skill ?? baseNameOf(single.entry.path).replace(/\.md$/u, ''));
  const singleDescription = single === undefined ? undefined : frontMatterOf({ path: single.entry.path, bytes: single.bytes })['description'];
  const title = fit(titleCase(meta.name ?? singleName ?? input.sourceName), 3, 60, 'Loadout');
  const contents = [plural(skills.length, 'skill'), plural(count('rules'), 'rule'), plural(count('subagent'), 'subagent'), plural(count('mcp'), 'MCP configuration')].filter((s) => s !== '');
  const inventory = `${contents.join(', ') || 'instructions'}, imported with loadout import from ${input.sourceName}`;
  const lead = meta.description ?? (typeof singleDescription === 'string' && singleDescription.trim() !== '' ? singleDescription : undefined);
  const summary = fit(lead ?? `${title}: ${inventory}.`, 20, 200, `(${inventory})`);
  if (lead === undefined) todo.push(`loadout.yaml: summary and description were generated ("${summary}"): say what the loadout does and for which projects`);
  const description = fit(`${lead === undefined ? '' : `${clip(lead, 3800)} `}This loadout holds ${inventory}.`, 20, 4000, '');
  const highlights = files
    .filter((f) => f.entry.role === 'skill' || f.entry.role === 'rules' || f.entry.role === 'subagent')
    .slice(0, 8)
    .map((f) => clip(`${f.entry.role === 'skill' ? `Skill ${f.entry.skill ?? ''}` : f.entry.role === 'rules' ? `Rule ${f.entry.path.slice('rules/'.length, -'.md'.length)}` : `Subagent ${f.entry.path.slice('agents/'.length, -'.md'.length)}`}: ${f.entry.description}`, 120));
  if (highlights.length === 0) highlights.push(clip(`Instructions from ${input.sourceName}`, 120));

  if (!files.some((f) => f.entry.path === 'AGENTS.md')) {
    files.unshift({ entry: { path: 'AGENTS.md', role: 'instructions', description: 'Instructions for every agent' }, bytes: Buffer.from(generatedAgentsMd(title, files)) });
    todo.push('AGENTS.md was generated (the content had none): write the instructions every agent should follow in this project');
  }
  for (const agent of ADAPTER_AGENTS) {
    files.push({ entry: { path: adapterFileName(agent), role: 'adapter', agent, description: `Adapter for ${agent}: imports AGENTS.md (generated)` }, bytes: Buffer.from(generateAdapter(agent, title)) });
  }

  const version = meta.version !== undefined && VERSION_PATTERN.test(meta.version) ? meta.version : '1.0.0';
  const license = input.licence?.licence ?? UNKNOWN_LICENCE;
  if (input.licence === undefined) todo.push(`loadout.yaml: license is "${UNKNOWN_LICENCE}": no LICENSE file or license field named an accepted licence; set its SPDX id (MIT, Apache-2.0, BSD-2-Clause, BSD-3-Clause, ISC, MPL-2.0, CC-BY-4.0, CC0-1.0 or Unlicense) after checking you may publish the content`);
  const author = meta.author ?? (input.git?.githubOwner === undefined ? undefined : { name: input.git.githubOwner, url: `https://github.com/${input.git.githubOwner}` }) ?? (input.author === undefined ? undefined : { name: input.author });
  if (author === undefined) todo.push(`loadout.yaml: author is "${UNKNOWN_AUTHOR}": name the author of the content`);
  const repo = input.git?.repo ?? (meta.repository !== undefined && /^https:\/\//u.test(meta.repository) ? meta.repository : undefined);
  const source = repo === undefined ? undefined : { repo, ...(input.git?.repo === undefined || input.git.path === undefined ? {} : { path: input.git.path }), ...(input.git?.repo === undefined || input.git.commit === undefined ? {} : { commit: input.git.commit }) };
  todo.push('loadout.yaml: categories ["workflow"] and stacks ["general"] are placeholders: pick the categories and the stacks (languages, frameworks) it is for');

  const texts = files.map((f) => ({ path: f.entry.path, content: Buffer.from(f.bytes).toString('utf8') }));
  const declared = declareSecurity(texts, new Set(files.filter((f) => f.entry.role === 'mcp').map((f) => f.entry.path)));
  const manifest: Manifest = {
    id: input.id,
    type: 'loadout',
    title,
    summary,
    description,
    highlights,
    version,
    license,
    author: author ?? { name: UNKNOWN_AUTHOR },
    ...(source === undefined ? {} : { source }),
    categories: ['workflow'],
    stacks: ['general'],
    files: files.map((f) => f.entry),
    requires: { tools: [], env: [], mcp: declared.mcpServers },
    tested: { status: 'untested', last_run: null, fixture: null },
    security: { scanned: false, network: declared.network, scripts: declared.scripts },
    last_checked: input.today,
  };
  const manifestText = `# Imported with \`loadout import\`; authoring schema: schema/loadout.schema.json\n${stringify(manifest)}`;
  const source_: LoadoutSource = { id: input.id, displayDir: `loadouts/${input.id}`, manifestText, files: new Map(files.map((f) => [f.entry.path, f.bytes])), irregular: [] };
  return { manifest, manifestText, files, source: source_, todo };
}

const plural = (n: number, word: string): string => (n === 0 ? '' : `${n} ${word}${n === 1 ? '' : 's'}`);

/** Renames later files that collide on a path: `rules/x.md` → `rules/x-2.md`. */
function uniquePaths(files: readonly ImportedFile[]): ImportedFile[] {
  const taken = new Set<string>([MANIFEST_FILE, ...ADAPTER_AGENTS.map(adapterFileName)]);
  return files.map((file) => {
    if (!taken.has(file.entry.path)) {
      taken.add(file.entry.path);
      return file;
    }
    const dot = file.entry.path.lastIndexOf('.');
    const [stem, ext] = dot > file.entry.path.lastIndexOf('/') ? [file.entry.path.slice(0, dot), file.entry.path.slice(dot)] : [file.entry.path, ''];
    let n = 2;
    while (taken.has(`${stem}-${n}${ext}`)) n++;
    taken.add(`${stem}-${n}${ext}`);
    return { ...file, entry: { ...file.entry, path: `${stem}-${n}${ext}` } };
  });
}

/** A short AGENTS.md for content that had none: what the loadout holds, and where to write. */
function generatedAgentsMd(title: string, files: readonly ImportedFile[]): string {
  const lines = [`# ${title}`, '', 'These instructions apply to every coding agent working in this project.', ''];
  const skills = files.filter((f) => f.entry.role === 'skill');
  if (skills.length > 0) {
    lines.push('Skills of this loadout:', '');
    for (const s of skills) lines.push(`- ${s.entry.skill ?? ''}: ${s.entry.description}`);
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
