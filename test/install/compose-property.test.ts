/**
 * The install invariants, by property (fast-check): random sequences of install, update and
 * uninstall (with and without --force) of three loadouts and of two bundles of them (issue 56:
 * `install <bundle>`, `uninstall <bundle>`, a plain `update`) for the six agents, interleaved with
 * the user's edits inside and outside the blocks of shared files, of owned whole files, of the
 * shared MCP configuration files (`.mcp.json`, Codex's `.codex/config.toml`, VS Code's
 * `.vscode/mcp.json` with its inputs, Antigravity's `.agents/mcp_config.json`), and with files
 * the user creates at install targets. After every step:
 * 1. no byte of the user's is lost: every edit (a unique `user-edit-<n>` token) is in the
 *    project, or in a backup folder a command named;
 * 2. `status` reports exactly the user's edits: a part is `changed` if and only if it holds a
 *    token, and nothing is `missing`;
 * 3. uninstalling everything (on a copy) gives back the starting project: its files with the
 *    user's own edits only, byte for byte once those edits are taken out again (the tables the
 *    user added to `.codex/config.toml`, the servers and settings the user added to a JSON file
 *    as an editor adds them), no folder the installs made, no lock, and no backup copy unless a
 *    command overwrote bytes of the user's (`--force`);
 * 4. the lock's bundles hold: an install a bundle asked for is one of its members, every install
 *    is within the range of each installed bundle that lists it, and a step the bundles' rules
 *    refuse (ranges that do not meet, a member removed alone) leaves every byte as it was.
 *
 * The agents' JSON files start as drawn (issue 53, point 14; issue 57, point 1): absent, or an
 * object with or without the servers key (the user's own server in it), with or without other
 * settings (numbers spelt `1.10` and `12345678901234567890`), compact or indented by two or four
 * spaces or a tab, with LF or CRLF, with or without a trailing newline, a comment and a byte
 * order mark. `.codex/config.toml` may hold a multi-line string with a line that reads like the
 * header of a table an install adds, and an integer beyond JavaScript's precision (issue 53,
 * point 13).
 *
 * Each sequence starts from a project whose AGENTS.md has LF or CRLF line endings, with or
 * without a UTF-8 byte order mark, and whose CLAUDE.md may be a symbolic link to AGENTS.md (a
 * common setup); a step may convert a shared Markdown file to CRLF (Git's `core.autocrlf`).
 * The user's edits follow each file's line ending. After uninstalling everything, AGENTS.md
 * keeps its byte order mark and has one line ending throughout (issue 35, point 7), and the
 * link is still the same link.
 *
 * Runs 300 sequences by default (so `.ci/run`, which runs `npm test`, runs 300); `LOADOUT_PROPERTY_RUNS=N` runs N. A failure prints fast-check's
 * seed and path (`LOADOUT_PROPERTY_SEED` and `LOADOUT_PROPERTY_PATH` replay it) and the
 * sequence as commands.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { applyEdits, modify, parse as parseJsonc, type JSONPath } from 'jsonc-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Agent } from '../../src/catalogue/vocabulary.js';
import { installLoadouts } from '../../src/install/install.js';
import { readLock } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { findBlock, parseBlocks } from '../../src/install/compose/markdown-blocks.js';
import { runPlan } from '../../src/install/run-plan.js';
import { buildComposeCatalogue, BUNDLES, IDS, VERSIONS } from './compose-fixture.js';
import { ConsumerError } from '../../src/install/errors.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { satisfiesRange } from '../../src/catalogue/version-ranges.js';
import { requestersOf } from '../../src/install/project/lock.js';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';

const AGENTS: readonly Agent[] = ['claude-code', 'cursor', 'gemini-cli', 'codex', 'copilot', 'antigravity-cli'];
const SHARED = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] as const;
const TARGETS = ['.claude/rules/alpha-style.md', '.cursor/rules/beta-style.mdc', '.agents/skills/shared-tool/SKILL.md', '.claude/skills/gamma-review/SKILL.md'];
/** The files every project starts with (Codex's and the agents' JSON files are drawn: {@link start}). */
const FIXED_START: Record<string, string> = {
  'AGENTS.md': '# My project\n\nOur own rules.\n',
  'src/index.ts': 'export {};\n',
};
/** Codex's file as the user wrote it, with LF or CRLF; the third with a multi-line string whose line reads like the header of alpha's table. */
const CODEX_STARTS = [
  '# Mine\nmodel = "o4-mini"  # fast\n\n[mcp_servers.mine]\ncommand = "mine"\nargs = [\n  "--a",\n]\n',
  '# Mine\r\nmodel = "o4-mini"  # fast\r\n\r\n[mcp_servers.mine]\r\ncommand = "mine"\r\n',
  '# Mine\nnotes = """\n[mcp_servers.alpha-docs]\ncommand = "old"\n"""\nseed = 9007199254740993\n\n[mcp_servers.mine]\ncommand = "mine"\n',
];
/** The agents' JSON MCP files and the key of their servers. */
const MCP_FILES: Record<string, string> = { '.mcp.json': 'mcpServers', '.cursor/mcp.json': 'mcpServers', '.gemini/settings.json': 'mcpServers', '.vscode/mcp.json': 'servers', '.agents/mcp_config.json': 'mcpServers' };

/** How one of the agents' JSON files starts: absent, or what it holds and how it is written. */
interface JsonStart {
  present: boolean;
  servers: boolean;
  settings: boolean;
  indent: 2 | 4 | '\t' | undefined;
  eol: '\n' | '\r\n';
  newline: boolean;
  comment: boolean;
  bom: boolean;
}
const jsonStart: fc.Arbitrary<JsonStart> = fc.record({ present: fc.boolean(), servers: fc.boolean(), settings: fc.boolean(), indent: fc.constantFrom(2 as const, 4 as const, '\t' as const, undefined), eol: fc.constantFrom('\n' as const, '\r\n' as const), newline: fc.boolean(), comment: fc.boolean(), bom: fc.boolean() });

/** The text of a JSON file started as `s` (undefined: absent), its servers under `key`. */
function jsonText(s: JsonStart, key: string): string | undefined {
  if (!s.present) return undefined;
  const doc = { ...(s.settings ? { theme: 'dark', limit: '<big>', ratio: '<dec>' } : {}), ...(s.servers ? { [key]: { mine: { command: 'mine' } } } : {}) };
  let text = JSON.stringify(doc, null, s.indent).replace('"<big>"', '12345678901234567890').replace('"<dec>"', '1.10').replaceAll('\n', s.eol);
  if (s.comment && text.includes(s.eol)) text = text.replace(`{${s.eol}`, `{ // my settings${s.eol}`);
  return `${s.bom ? BOM : ''}${text}${s.newline ? s.eol : ''}`;
}

/** A project's starting files: the fixed ones, Codex's, and each JSON file as drawn. */
const start: fc.Arbitrary<Record<string, string>> = fc.record({ codex: fc.constantFrom(...CODEX_STARTS), json: fc.array(jsonStart, { minLength: 5, maxLength: 5 }) }).map(({ codex, json }) => {
  const files: Record<string, string> = { ...FIXED_START, '.codex/config.toml': codex };
  Object.entries(MCP_FILES).forEach(([file, key], i) => {
    const text = json[i] === undefined ? undefined : jsonText(json[i], key);
    if (text !== undefined) files[file] = text;
  });
  return files;
});

/** `text` (JSON with comments) as parsed, a byte order mark aside. */
const parseJsonText = (text: string): unknown => parseJsonc(text.replace(/^\uFEFF/u, ''), [], { allowTrailingComma: true });
/** `text` with `value` set at `path` (undefined: taken out) as an editor sets it, formatting nothing else. */
const editJson = (text: string, path: JSONPath, value: unknown): string => applyEdits(text, modify(text.replace(/^\uFEFF/u, ' '), path, value, {}));

/** How a start reads in a failure: each drawn file's text. */
const describeStart = (files: Record<string, string>): string => Object.entries(files).filter(([f]) => !Object.hasOwn(FIXED_START, f)).map(([f, t]) => `${f} = ${JSON.stringify(t)}`).join('; ');
/** A table the user adds to Codex's file, as text (taken out again when the start is compared). */
const userTable = (token: string): string => `\n[mcp_servers.${token}]\ncommand = "mine"\n`;
const TOKEN = 'user-edit-';
const BOM = '\uFEFF';

/** How the project's files were written before any install: AGENTS.md's line ending and byte order mark, and CLAUDE.md as a link to AGENTS.md. */
interface Style {
  eol: '\n' | '\r\n';
  bom: boolean;
  link: boolean;
}
const style: fc.Arbitrary<Style> = fc.record({ eol: fc.constantFrom('\n' as const, '\r\n' as const), bom: fc.boolean(), link: fc.boolean() });
/** The line ending a text uses (CRLF when any line ends so). */
const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

type Step =
  | { op: 'install'; id: string; agents: Agent[]; version: string; force: boolean }
  | { op: 'install-bundle'; id: string; agents: Agent[]; force: boolean }
  | { op: 'uninstall-bundle'; id: string; force: boolean }
  | { op: 'update-all'; force: boolean; accept: boolean }
  | { op: 'update'; id: string; version: string; force: boolean; accept: boolean }
  | { op: 'uninstall'; id: string; force: boolean }
  | { op: 'edit-block'; file: string; pick: number }
  | { op: 'edit-outside'; file: string }
  | { op: 'edit-owned'; pick: number }
  | { op: 'create'; target: string }
  | { op: 'crlf'; file: string };

/** A step as the command or edit it stands for, to replay by hand. */
function describeStep(s: Step): string {
  switch (s.op) {
    case 'install':
      return `loadout install ${s.id} --agent ${s.agents.join(',')} --version ${s.version}${s.force ? ' --force' : ''}`;
    case 'install-bundle':
      return `loadout install ${s.id} --agent ${s.agents.join(',')}${s.force ? ' --force' : ''} (a bundle)`;
    case 'uninstall-bundle':
      return `loadout uninstall ${s.id}${s.force ? ' --force' : ''} (a bundle)`;
    case 'update-all':
      return `loadout update${s.force ? ' --force' : ''}${s.accept ? ' --accept-capabilities' : ''}`;
    case 'update':
      return `loadout update ${s.id} --to ${s.version}${s.force ? ' --force' : ''}${s.accept ? ' --accept-capabilities' : ''}`;
    case 'uninstall':
      return `loadout uninstall ${s.id}${s.force ? ' --force' : ''}`;
    case 'edit-block':
      return `(user) add a line inside block #${s.pick} of ${s.file}`;
    case 'edit-outside':
      return `(user) add a line at the end of ${s.file} (in a JSON file: a server, or a setting where it had no servers)`;
    case 'edit-owned':
      return `(user) add a line to installed file #${s.pick}`;
    case 'create':
      return `(user) create ${s.target}`;
    case 'crlf':
      return `(user) convert ${s.file} to CRLF line endings`;
  }
}

const id = fc.constantFrom(...IDS);
const bundle = fc.constantFrom(...Object.keys(BUNDLES));
const version = fc.constantFrom(...VERSIONS);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('install' as const), id, agents: fc.subarray([...AGENTS], { minLength: 1 }), version, force: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('update' as const), id, version, force: fc.boolean(), accept: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('uninstall' as const), id, force: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('install-bundle' as const), id: bundle, agents: fc.subarray([...AGENTS], { minLength: 1 }), force: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('uninstall-bundle' as const), id: bundle, force: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('update-all' as const), force: fc.boolean(), accept: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('edit-block' as const), file: fc.constantFrom(...SHARED), pick: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('edit-outside' as const), file: fc.constantFrom(...SHARED, ...Object.keys(MCP_FILES), '.codex/config.toml') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('edit-owned' as const), pick: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('create' as const), target: fc.constantFrom(...TARGETS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('crlf' as const), file: fc.constantFrom(...SHARED) }) },
);

let root: string;
let dist: string;
beforeAll(async () => {
  // Memory-backed where the machine has it: each step copies and walks a project, and the
  // sequences are about the plans, not the disk.
  root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'loadout-compose-'));
  dist = await buildComposeCatalogue(join(root, 'catalogue'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted; and every folder. */
function walk(dir: string): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  for (const { path, dirent } of listFolderEntries(dir)) (dirent.isDirectory() ? folders : files).push(path);
  return { files: files.sort(), folders: folders.sort() };
}

/** Every path and its bytes under `dir`, as one string. */
function snapshot(dir: string): string {
  const { files, folders } = walk(dir);
  return [...folders, ...files.map((f) => `${f}\u0000${readFileSync(join(dir, f), 'latin1')}`)].join('\u0001');
}

/** A project and what the user did to it. */
interface World {
  dir: string;
  style: Style;
  /** The project's files before any step. */
  start: Record<string, string>;
  /** The user's edits of the JSON files, in order: the file and the path set. */
  jsonEdits: { file: string; path: JSONPath }[];
  /** AGENTS.md's line ending now (the style's, or CRLF once converted). */
  agentsEol: string;
  tokens: string[];
  backups: Set<string>;
  next: number;
}

/**
 * True for what is refused before any write: the bundles' rules (issue 56: ranges that do not
 * meet, a member removed alone), and two loadouts of one run (a plain `update` of everything, a
 * bundle's members) that put different files at one target, which `--force` cannot settle.
 */
const refusedBeforeWriting = (error: unknown): boolean =>
  (error instanceof ConsumerError && (error.name === 'BundleConflict' || error.name === 'BundleMember')) ||
  (error instanceof LoadoutError && error.code === 'invalid_content' && / put different files at /u.test(error.message));

/** Runs a step; a refusal before writing must leave every byte of the project as it was. */
async function runStep(world: World, s: Step): Promise<void> {
  const before = snapshot(world.dir);
  try {
    await runStepUnchecked(world, s);
  } catch (error) {
    if (!refusedBeforeWriting(error)) throw error;
    expect(snapshot(world.dir), `${describeStep(s)} was refused (${(error as Error).message}) but wrote`).toBe(before);
  }
}

async function runStepUnchecked(world: World, s: Step): Promise<void> {
  const { dir } = world;
  const scope = projectScope(dir);
  const token = (): string => `${TOKEN}${world.next++}`;
  const installed = (await readLock(dir)).installs;
  switch (s.op) {
    case 'install': {
      const outcomes = await installLoadouts({ from: dist, id: s.id, agents: s.agents, dir, version: s.version, force: s.force });
      if (outcomes[0]?.backup !== undefined) world.backups.add(outcomes[0].backup);
      return;
    }
    case 'install-bundle': {
      const outcomes = await installLoadouts({ from: dist, id: s.id, agents: s.agents, dir, force: s.force });
      if (outcomes[0]?.backup !== undefined) world.backups.add(outcomes[0].backup);
      return;
    }
    case 'uninstall-bundle': {
      if (!((await readLock(dir)).bundles ?? []).some((b) => b.id === s.id)) return;
      const outcome = await uninstallLoadout({ scope, id: s.id, force: s.force });
      if (outcome.backup !== undefined) world.backups.add(outcome.backup);
      return;
    }
    case 'update-all': {
      if (installed.length === 0) return;
      const outcome = await updateLoadouts({ scope, ids: [], force: s.force, acceptCapabilities: s.accept });
      if (outcome.backup !== undefined) world.backups.add(outcome.backup);
      if (outcome.needs_consent && outcome.written) throw new Error('update wrote without the yes its capability change needs');
      return;
    }
    case 'update': {
      if (!installed.some((e) => e.id === s.id)) return;
      const outcome = await updateLoadouts({ scope, ids: [s.id], to: s.version, force: s.force, acceptCapabilities: s.accept });
      if (outcome.backup !== undefined) world.backups.add(outcome.backup);
      // An update that adds to what a loadout can run waits for a yes: without one it writes nothing (issue 54, point 3).
      if (outcome.needs_consent && outcome.written) throw new Error(`update ${s.id} to ${s.version} wrote without the yes its capability change needs`);
      return;
    }
    case 'uninstall': {
      if (!installed.some((e) => e.id === s.id)) return;
      const outcome = await uninstallLoadout({ scope, id: s.id, force: s.force });
      if (outcome.backup !== undefined) world.backups.add(outcome.backup);
      return;
    }
    case 'edit-block': {
      const path = join(dir, s.file);
      if (!existsSync(path)) return;
      const text = readFileSync(path, 'utf8');
      const ends = [...text.matchAll(/^<!-- loadout:end [a-z-]+ -->\r?$/gmu)];
      const end = ends[s.pick % Math.max(1, ends.length)];
      if (end?.index === undefined) return;
      const t = token();
      world.tokens.push(t);
      writeFileSync(path, `${text.slice(0, end.index)}${t}${eolOf(text)}${text.slice(end.index)}`);
      return;
    }
    case 'edit-outside': {
      const path = join(dir, s.file);
      const t = `${TOKEN}${world.next}`;
      const key = MCP_FILES[s.file];
      if (key !== undefined) {
        // As an editor adds them: a server where the user's file had some (or the file is the installs'), else a setting.
        const first = world.start[s.file];
        const doc = first === undefined ? undefined : (parseJsonText(first) as Record<string, unknown> | undefined);
        const where: JSONPath | undefined = first === undefined || Object.keys((doc?.[key] ?? {}) as object).length > 0 ? [key, t] : Object.keys(doc ?? {}).length > 0 ? [t] : undefined;
        if (where === undefined) return;
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, editJson(existsSync(path) ? readFileSync(path, 'utf8') : '', where, { command: 'mine' }));
        world.jsonEdits.push({ file: s.file, path: where });
        world.tokens.push(t);
        world.next++;
        return;
      }
      world.tokens.push(t);
      world.next++;
      if (s.file === '.codex/config.toml') writeFileSync(path, `${existsSync(path) ? readFileSync(path, 'utf8') : ''}${userTable(t)}`);
      else {
        const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
        writeFileSync(path, `${text}${t}${eolOf(text)}`);
      }
      return;
    }
    case 'edit-owned': {
      const owned = [...new Set(installed.flatMap((e) => e.files.filter((f) => f.kind === 'file').map((f) => f.target)))].filter((t) => existsSync(join(dir, t)));
      const target = owned[s.pick % Math.max(1, owned.length)];
      if (target === undefined) return;
      const t = token();
      world.tokens.push(t);
      writeFileSync(join(dir, target), `${readFileSync(join(dir, target), 'utf8')}${t}\n`);
      return;
    }
    case 'create': {
      const path = join(dir, s.target);
      if (existsSync(path)) return;
      const t = token();
      world.tokens.push(t);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${t}\n`);
      return;
    }
    case 'crlf': {
      const path = join(dir, s.file);
      if (!existsSync(path)) return;
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll('\r\n', '\n').replaceAll('\n', '\r\n'));
      if (s.file === 'AGENTS.md' || (s.file === 'CLAUDE.md' && world.style.link)) world.agentsEol = '\r\n';
    }
  }
}

/** The four invariants (see the module comment). */
async function checkInvariants(world: World): Promise<void> {
  const { dir } = world;
  const textOf = (base: string, files: string[]): string => files.map((f) => readFileSync(join(base, f), 'utf8')).join('\n');
  const { files } = walk(dir);
  const kept = textOf(dir, files.filter((f) => !f.startsWith('.loadout/')));
  const backedUp = textOf(dir, files.filter((f) => [...world.backups].some((b) => f.startsWith(`${b}/`))));
  for (const t of world.tokens) expect(kept.includes(t) || backedUp.includes(t), `${t} is lost`).toBe(true);

  // The lock's bundles (issue 56): who asked for an install is an installed bundle that lists it, and every install is within the ranges of the bundles that list it.
  const locked = await readLock(dir);
  for (const entry of locked.installs) {
    for (const r of requestersOf(entry).filter((x) => x.startsWith('bundle:'))) {
      const b = (locked.bundles ?? []).find((x) => `bundle:${x.id}` === r);
      expect(b?.members.some((m) => m.id === entry.id && m.agents.includes(entry.agent)), `${entry.id} for ${entry.agent} says ${r} asked for it`).toBe(true);
    }
    for (const b of locked.bundles ?? []) for (const m of b.members.filter((x) => x.id === entry.id && x.agents.includes(entry.agent))) expect(satisfiesRange(entry.version, m.range), `${entry.id} ${entry.version} for ${entry.agent} is outside ${b.id}'s ${m.range}`).toBe(true);
  }

  const status = await readStatus(projectScope(dir));
  for (const f of status.files) {
    const text = existsSync(join(dir, f.target)) ? readFileSync(join(dir, f.target), 'utf8') : undefined;
    const part = f.kind === 'block' ? findBlock(parseBlocks(text ?? '', f.target !== 'AGENTS.md'), f.id)?.body : f.kind === 'file' ? text : '';
    expect(f.state, `status of ${f.target} for ${f.id} ${f.agent}`).toBe(part === undefined ? 'missing' : part.includes(TOKEN) ? 'changed' : 'ok');
    expect(f.state, `${f.target} for ${f.id} ${f.agent} is missing`).not.toBe('missing');
  }

  // Uninstalling everything, on a copy.
  const copy = `${dir}-all`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  // Every install at once, through the plan `uninstall` runs (one plan instead of one per loadout keeps the test fast).
  const lock = await readLock(copy);
  if (lock.installs.length > 0) {
    const all = await runPlan({ scope: projectScope(copy), operation: 'uninstall', before: lock, wanted: [], removed: lock.installs, force: true, dryRun: false });
    expect(all.plan.conflicts, 'uninstall everything --force').toEqual([]);
  }
  const after = walk(copy);
  const startFolders = new Set(Object.keys(world.start).filter((f) => f.includes('/')).map((f) => dirname(f)));
  if (world.style.link) expect(lstatSync(join(copy, 'CLAUDE.md')).isSymbolicLink() && readlinkSync(join(copy, 'CLAUDE.md')), 'CLAUDE.md is the link it was').toBe('AGENTS.md');
  for (const file of after.files.filter((f) => !f.startsWith('.loadout/') && !(world.style.link && f === 'CLAUDE.md'))) {
    const text = readFileSync(join(copy, file), 'utf8');
    expect(text, `${file} after uninstalling everything`).not.toContain('<!-- loadout:');
    const start = world.start[file];
    if (start === undefined) expect(text, `${file} is not the user's`).toContain(TOKEN);
    else if (file.endsWith('.json')) {
      // Byte for byte: the user's file with only the servers and settings they added since, taken out as an editor takes them out.
      const edits = world.jsonEdits.filter((e) => e.file === file).reverse();
      expect(edits.reduce((t, e) => editJson(t, e.path, undefined), text), file).toBe(start);
    } else if (file === 'AGENTS.md') {
      // The byte order mark stays, and one line ending throughout: the file's own.
      expect(text.startsWith(BOM), 'AGENTS.md keeps its byte order mark').toBe(world.style.bom);
      const mixed = world.agentsEol === '\r\n' ? /(?<!\r)\n/u : /\r\n/u;
      expect(mixed.test(text), `AGENTS.md has ${world.agentsEol === '\n' ? 'LF' : 'CRLF'} line endings throughout`).toBe(false);
      const lines = (world.style.bom ? text.slice(1) : text).split(world.agentsEol);
      expect(lines.filter((l) => !l.includes(TOKEN)).join('\n'), file).toBe(start);
    } else if (file === '.codex/config.toml') {
      // Byte for byte: the user's file with only the tables they added since.
      expect(text.replace(new RegExp(userTable(`${TOKEN}\\d+`).replace(/[[\]]/gu, '\\$&'), 'gu'), ''), file).toBe(start);
    } else expect(text.split('\n').filter((l) => !l.includes(TOKEN)).join('\n'), file).toBe(start);
  }
  for (const file of Object.keys(world.start)) expect(existsSync(join(copy, file)), `${file} is gone`).toBe(true);
  for (const folder of after.folders.filter((f) => f !== '.loadout' && !f.startsWith('.loadout/'))) {
    if (startFolders.has(folder)) continue;
    expect(after.files.some((f) => f.startsWith(`${folder}/`)), `${folder}/ is left empty`).toBe(true);
  }
  rmSync(copy, { recursive: true, force: true });
}

const runs = Number(process.env['LOADOUT_PROPERTY_RUNS'] ?? '300');
const seed = process.env['LOADOUT_PROPERTY_SEED'];
const path = process.env['LOADOUT_PROPERTY_PATH'];
let sequences = 0;
let steps = 0;

it(`keeps every byte of the user's through ${runs} random sequences of install, update, uninstall of loadouts and bundles, and edits`, async () => {
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(style, start, fc.array(step, { minLength: 1, maxLength: 8 }), async (look, files, sequence) => {
      sequences++;
      const dir = mkdtempSync(join(root, 'project-'));
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), file === 'AGENTS.md' ? `${look.bom ? BOM : ''}${text.replaceAll('\n', look.eol)}` : text);
      }
      if (look.link) symlinkSync('AGENTS.md', join(dir, 'CLAUDE.md'));
      const world: World = { dir, style: look, start: files, jsonEdits: [], agentsEol: look.eol, tokens: [], backups: new Set(), next: 0 };
      let last = '';
      try {
        for (const [i, s] of sequence.entries()) {
          steps++;
          try {
            await runStep(world, s);
            // Merging in place overwrites nothing of the user's: only --force makes a backup copy.
            if (!sequence.slice(0, i + 1).some((x) => 'force' in x && x.force)) expect(existsSync(join(dir, '.loadout')), 'a backup without --force').toBe(false);
            // A step that changed nothing (a conflict, nothing to edit) leaves the invariants as they were checked.
            const now = snapshot(dir);
            if (now === last) continue;
            last = now;
            await checkInvariants(world);
          } catch (error) {
            const first = `  0. (user) AGENTS.md with ${look.eol === '\n' ? 'LF' : 'CRLF'} line endings${look.bom ? ', a byte order mark' : ''}${look.link ? '; CLAUDE.md a link to AGENTS.md' : ''}; ${describeStart(files)}`;
            const replay = [first, ...sequence.slice(0, i + 1).map((x, j) => `  ${j + 1}. ${describeStep(x)}`)].join('\n');
            throw new Error(`after step ${i + 1} of:\n${replay}\n${(error as Error).message}`, { cause: error });
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed: Number(seed) }), ...(path === undefined ? {} : { path }), endOnFailure: true },
  );
  console.log(`compose property: ${sequences} sequences, ${steps} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 600_000);
