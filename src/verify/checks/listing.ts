/**
 * `listing`: the record validates against the authoring schema, its id equals the folder
 * name, and the declared files match the files present (spec "Verification"; DESIGN.md
 * sections 3 and 4). Paths must be normalised, relative and unique, and fit one file system
 * together (`describePathClashes`: no path both a file and a folder, none differing only in case).
 * Each `requires.tools` entry reads as a command name with an optional version range
 * (`requirements/tool-requirement.ts`).
 */
import { describePathClashes, describePathProblem } from '../../catalogue/file-path.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { findPlaceholders, findTextPlaceholders } from '../../scaffold/scaffold.js';
import { readToolRequirement } from '../../requirements/tool-requirement.js';
import { judge, plural, type Check, type Finding } from '../check.js';

export const listing: Check = {
  id: 'listing',
  name: 'Record and file listing',
  run(context) {
    const { source, manifestYaml } = context;
    if (manifestYaml === undefined) {
      return judge([{ file: MANIFEST_FILE, message: 'missing (expected a loadout.yaml manifest in the loadout folder)', hint: `Run \`loadout new ${source.id}\` to scaffold one.` }], '', () => 'no loadout.yaml');
    }
    if (manifestYaml.errors.length > 0) {
      const findings = manifestYaml.errors.map((e): Finding => ({ file: MANIFEST_FILE, line: e.line, message: `invalid YAML: ${e.message}` }));
      return judge(findings, '', (n) => `loadout.yaml does not parse (${plural(n, 'error')})`);
    }
    const findings: Finding[] = context.schemaViolations.map((v) => ({
      file: MANIFEST_FILE,
      line: manifestYaml.lineOf(v.pointer),
      pointer: v.pointer,
      message: `${v.pointer === '' ? 'record' : v.pointer} ${v.message}`,
    }));
    const data = manifestYaml.data as { id?: unknown; files?: unknown; requires?: { tools?: unknown } } | null;
    if (data !== null && typeof data === 'object' && typeof data.id === 'string' && data.id !== source.id) {
      findings.push({ file: MANIFEST_FILE, line: manifestYaml.lineOf('/id'), pointer: '/id', message: `/id is "${data.id}" but the folder is "${source.id}" (expected the id to equal the folder name)` });
    }
    // A tool entry may carry a version range in its string (requirements/tool-requirement.ts, issue 56 point 4).
    const tools = data?.requires?.tools;
    if (Array.isArray(tools)) {
      tools.forEach((entry: unknown, index) => {
        if (typeof entry !== 'string') return; // the schema reports it
        const read = readToolRequirement(entry);
        const pointer = `/requires/tools/${index}`;
        if (!read.ok) findings.push({ file: MANIFEST_FILE, line: manifestYaml.lineOf(pointer), pointer, message: `${pointer} ${JSON.stringify(entry)} ${read.problem}` });
      });
    }
    // The unedited scaffold of `loadout new` validates: its placeholders must not be published.
    for (const p of findPlaceholders(data)) {
      findings.push({ file: MANIFEST_FILE, line: manifestYaml.lineOf(p.pointer), pointer: p.pointer, message: `${p.pointer} is still a placeholder that \`loadout new\` or \`loadout import\` wrote (expected ${p.expected})`, hint: `Fill in ${p.pointer.slice(1).replaceAll('/', '.')} in loadouts/${source.id}/loadout.yaml.` });
    }
    // And the AGENTS.md it wrote, in whichever file it is left (issue 57, point 9).
    for (const path of source.files.keys()) {
      const text = context.text(path);
      if (text === undefined) continue;
      for (const p of findTextPlaceholders(text)) {
        findings.push({ file: path, line: p.line, message: `still holds the placeholder that \`loadout new\` wrote, "Write the instructions every agent should follow here…" (expected ${p.expected})`, hint: `Replace it in loadouts/${source.id}/${path}.` });
      }
    }
    findings.push(...compareFiles(context.source.files, data?.files, manifestYaml.lineOf, source.irregular));
    return judge(findings, `schema valid; ${plural(source.files.size, 'file')} declared and present`, (n) => plural(n, 'listing problem'));
  },
};

function compareFiles(present: ReadonlyMap<string, Uint8Array>, files: unknown, lineOf: (pointer: string) => number | undefined, irregular: string[]): Finding[] {
  const findings: Finding[] = [];
  const declared = new Set<string>();
  const wellFormed = new Map<string, number>();
  if (Array.isArray(files)) {
    files.forEach((entry: unknown, index) => {
      const path = (entry as { path?: unknown } | null)?.path;
      if (typeof path !== 'string') return; // the schema reports it
      const pointer = `/files/${index}/path`;
      const problem = describePathProblem(path);
      if (problem !== undefined) {
        findings.push({ file: MANIFEST_FILE, line: lineOf(pointer), pointer, message: `${pointer} "${path}" ${problem}` });
      } else if (declared.has(path)) {
        findings.push({ file: MANIFEST_FILE, line: lineOf(pointer), pointer, message: `${pointer} "${path}" is declared twice (expected each path once)` });
      } else if (path === MANIFEST_FILE) {
        findings.push({ file: MANIFEST_FILE, line: lineOf(pointer), pointer, message: `${pointer} declares the manifest itself (expected only the loadout's content files)` });
      } else if (!present.has(path)) {
        findings.push({ file: MANIFEST_FILE, line: lineOf(pointer), pointer, message: `${pointer} "${path}" is declared but not present in the folder` });
      }
      if (problem === undefined && !wellFormed.has(path)) wellFormed.set(path, index);
      declared.add(path);
    });
  }
  for (const clash of describePathClashes(wellFormed.keys())) {
    const pointer = `/files/${wellFormed.get(clash.path) ?? 0}/path`;
    findings.push({ file: MANIFEST_FILE, line: lineOf(pointer), pointer, message: `${pointer} ${clash.message}` });
  }
  // The whole file is the problem: point at its first line (a link or special file has none).
  for (const path of present.keys()) {
    if (!declared.has(path)) {
      findings.push({ file: path, line: 1, message: `present but not declared in loadout.yaml files (expected every file to have a files[] entry)`, hint: 'Declare it, or delete it.' });
    }
  }
  for (const path of irregular) {
    findings.push({ file: path, message: 'is a symbolic link or special file (expected regular files only)' });
  }
  return findings;
}
