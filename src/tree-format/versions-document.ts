/**
 * Reading `api/loadouts/<id>/versions.json` (DESIGN.md section 8) as the installer receives
 * it: from a catalogue it does not trust. Every field the installer uses becomes part of a
 * path it reads or writes, so each is checked here, at the boundary, before it is used
 * (SECURITY.md: install writes only what the catalogue published, and only inside the
 * project): versions match MAJOR.MINOR.PATCH, file paths follow the `files[].path` rule
 * (DESIGN.md section 3), roles are known, skill and agent names are
 * slugs, hashes are sha256, sizes are whole numbers, `install_to` maps agents to a path or null, and `changes` (the
 * changelog, optional in catalogues built before it existed) is an array of strings. Install
 * targets are checked again, as targets, in `target-rules.ts`; changes are printed only after
 * their control characters are made visible (`cli/terminal-text.ts`).
 */
import type { VersionsDocument } from './versions.js';
import { LoadoutError } from '../catalogue/errors.js';
import { describePathProblem } from '../catalogue/file-path.js';
import { ROLES, SLUG_PATTERN, VERSION_PATTERN } from '../catalogue/vocabulary.js';
import { showValue as show } from '../catalogue/show-value.js';
import { describeCapabilitiesProblem } from './capabilities.js';

const SHA256 = /^[0-9a-f]{64}$/u;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The problems of one file entry, each `<field> is <value> (expected …)`. */
function fileProblems(file: unknown): string[] {
  if (!isObject(file)) return [`is ${show(file)} (expected an object)`];
  const problems: string[] = [];
  const { path, role, agent, skill, sha256, bytes, install_to: installTo } = file;
  const pathProblem = typeof path === 'string' ? describePathProblem(path) : 'is not a string (expected a path relative to the loadout folder)';
  if (pathProblem !== undefined) problems.push(`path ${pathProblem}`);
  if (role !== null && !(ROLES as readonly unknown[]).includes(role)) problems.push(`role is ${show(role)} (expected one of ${ROLES.join(', ')}, or null)`);
  if (agent !== null && !(typeof agent === 'string' && SLUG_PATTERN.test(agent))) problems.push(`agent is ${show(agent)} (expected an agent id or null)`);
  if (skill !== null && !(typeof skill === 'string' && SLUG_PATTERN.test(skill))) problems.push(`skill is ${show(skill)} (expected a skill name, a lowercase slug, or null)`);
  if (!(typeof sha256 === 'string' && SHA256.test(sha256))) problems.push(`sha256 is ${show(sha256)} (expected 64 lowercase hex digits)`);
  // The size the installer caps the file's download at; absent in no catalogue the build writes, tolerated for hand-made ones.
  if (bytes !== undefined && !(typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes >= 0)) problems.push(`bytes is ${show(bytes)} (expected the file's size, a whole number of bytes)`);
  if (installTo !== undefined) {
    if (!isObject(installTo)) problems.push(`install_to is ${show(installTo)} (expected an object of agent: path or null)`);
    else for (const [to, target] of Object.entries(installTo)) if (target !== null && typeof target !== 'string') problems.push(`install_to.${to} is ${show(target)} (expected a path or null)`);
  }
  return problems;
}

/** The most entries a `requires` list may have, and the longest entry: far above any real loadout's (a tool entry is a name and a range). */
const REQUIRES_MAX_ENTRIES = 100;
const REQUIRES_MAX_CHARS = 320;

/** The problem of a version's `requires` (`.tools is …`), or undefined when it is three arrays of short strings. */
function describeRequiresProblem(requires: unknown): string | undefined {
  if (!isObject(requires)) return ` is ${show(requires)} (expected an object of tools, env and mcp)`;
  for (const key of ['tools', 'env', 'mcp']) {
    const list = requires[key];
    if (!Array.isArray(list) || list.length > REQUIRES_MAX_ENTRIES || !list.every((e) => typeof e === 'string' && e.length > 0 && e.length <= REQUIRES_MAX_CHARS)) {
      return `.${key} is ${show(list)} (expected an array of at most ${REQUIRES_MAX_ENTRIES} strings of 1 to ${REQUIRES_MAX_CHARS} characters)`;
    }
  }
  return undefined;
}

/** Every problem of the document, each naming where it is: `versions[1].files[2] ("rules/x.md"): path …`. */
function documentProblems(doc: unknown, id: string): string[] {
  if (!isObject(doc)) return [`the document is ${show(doc)} (expected an object)`];
  const problems: string[] = [];
  if (doc['id'] !== id) problems.push(`id is ${show(doc['id'])} (expected ${show(id)})`);
  if (!(typeof doc['latest'] === 'string' && VERSION_PATTERN.test(doc['latest']))) problems.push(`latest is ${show(doc['latest'])} (expected a version such as "1.2.0")`);
  if (!Array.isArray(doc['versions'])) return [...problems, `versions is ${show(doc['versions'])} (expected an array)`];
  doc['versions'].forEach((version: unknown, i) => {
    if (!isObject(version)) return problems.push(`versions[${i}] is ${show(version)} (expected an object)`);
    if (!(typeof version['version'] === 'string' && VERSION_PATTERN.test(version['version']))) problems.push(`versions[${i}].version is ${show(version['version'])} (expected a version such as "1.2.0")`);
    const changes = version['changes'];
    // Catalogues built before changelogs have none; when present they are printed, so only strings.
    if (changes !== undefined && !(Array.isArray(changes) && changes.every((c) => typeof c === 'string'))) problems.push(`versions[${i}].changes is ${show(changes)} (expected an array of strings)`);
    // Catalogues built before capability lists have none; when present it is shown and compared, so its shape is checked.
    const capabilities = version['capabilities'] === undefined ? undefined : describeCapabilitiesProblem(version['capabilities']);
    if (capabilities !== undefined) problems.push(`versions[${i}].capabilities ${capabilities}`);
    // Catalogues built before requirements were published per version have none; when present they are checked on the user's machine and printed.
    const requires = version['requires'] === undefined ? undefined : describeRequiresProblem(version['requires']);
    if (requires !== undefined) problems.push(`versions[${i}].requires${requires}`);
    if (!Array.isArray(version['files'])) return problems.push(`versions[${i}].files is ${show(version['files'])} (expected an array)`);
    version['files'].forEach((file: unknown, j) => {
      const entry = `versions[${i}].files[${j}]${isObject(file) && typeof file['path'] === 'string' ? ` (${show(file['path'])})` : ''}`;
      for (const problem of fileProblems(file)) problems.push(`${entry}: ${problem}`);
    });
    return undefined;
  });
  return problems;
}

/**
 * Parses and checks the versions document of loadout `id`; `where` names it in messages (a
 * file or a URL).
 * @throws LoadoutError `invalid_content` naming the first problem (the file entry and what
 *   was expected) and counting the others
 */
export function parseVersionsDocument(id: string, text: string, where: string): VersionsDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (cause) {
    throw new LoadoutError('invalid_content', `${where} is not JSON (${(cause as Error).message}; expected the versions document of ${id})`, { cause });
  }
  const problems = documentProblems(doc, id);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new LoadoutError('invalid_content', `${where}: ${problems[0] ?? ''}${more}`, { hint: 'The catalogue is broken or was tampered with; nothing was written.' });
  }
  return doc as VersionsDocument;
}
