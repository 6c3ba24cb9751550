/**
 * Update, uninstall and status apply the install's hardening (SECURITY.md, "loadout install
 * …"): a lock is untrusted input, so one that names targets outside the project, in `.git`,
 * through a symbolic link leading out, or outside the agent's own locations is never acted on
 * (the last one only with --force); a new version's targets pass the same rules as an
 * install's; and changelog text from the catalogue reaches the terminal with its control
 * characters made visible.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { copyDereferenced } from '../helpers/tree.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { VersionsDocument } from '../../src/tree/render/loadout-output.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { installLoadout } from '../../src/install/install.js';
import { LOCK_FILE, type LockFile } from '../../src/install/project/lock.js';
import { projectScope } from '../../src/install/project/scope.js';
import { readStatus } from '../../src/install/status.js';
import { uninstallLoadout } from '../../src/install/uninstall.js';
import { updateLoadouts } from '../../src/install/update.js';
import { printable, printableJson } from '../../src/cli/terminal-text.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { makeProject, sha } from './hostile-fixture.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from './lifecycle-fixture.js';

let catalogue: LifecycleCatalogue;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-lifecycle-hostile-'));
  catalogue = await buildLifecycleCatalogue(folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoadoutError);
  expect((error as LoadoutError).code).toBe('invalid_content');
  return (error as LoadoutError).message;
}

/** A project with kit 1.0.0 installed for claude-code, whose lock's first file entry is then replaced by `file`. */
async function projectWithLockedFile(file: Record<string, unknown>): Promise<{ project: string; lockText: string }> {
  const project = makeProject();
  await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
  const lock = JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;
  (lock.installs[0] as { files: unknown[] }).files[0] = file;
  const lockText = JSON.stringify(lock);
  writeFileSync(join(project, LOCK_FILE), lockText);
  return { project, lockText };
}

/** Every command that acts on a lock, against `project`. */
const commands = (project: string): [string, () => Promise<unknown>][] => {
  const scope = projectScope(project);
  return [
    ['update', () => updateLoadouts({ scope, ids: [], force: true })],
    ['uninstall', () => uninstallLoadout({ scope, id: 'kit', force: true })],
    ['status', () => readStatus(scope)],
  ];
};

describe('a lock that points outside the project or into .git is never acted on', () => {
  it.each([
    ['../outside.md', 'contains a ".." segment'],
    ['/etc/passwd', 'is absolute'],
    ['.git/hooks/pre-commit', 'is in a .git folder'],
    ['sub/.GIT/config', 'is in a .git folder'],
    ['.claude\\..\\..\\x', 'contains a backslash'],
  ])('target %j (%s): update, uninstall and status refuse, and nothing changes', async (target, problem) => {
    const outside = join(makeTempDir(), 'outside.md');
    writeFileSync(outside, 'keep me\n');
    const { project, lockText } = await projectWithLockedFile({ target, path: 'AGENTS.md', sha256: sha('keep me\n') });
    for (const [name, run] of commands(project)) {
      const message = await refusal(run());
      expect(message, name).toContain(`installs[0].files[0].target ${JSON.stringify(target)} ${problem}`);
      expect(message, name).toContain('nothing was changed');
    }
    expect(readFileSync(join(project, LOCK_FILE), 'utf8')).toBe(lockText);
    expect(readFileSync(join(project, 'CLAUDE.md'), 'utf8')).toContain('@AGENTS.md');
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
  });

  it('a locked target that lands outside the project through a symbolic link is refused by every command, even with --force', async () => {
    const outside = makeTempDir('loadout-outside-');
    mkdirSync(join(outside, 'x'));
    writeFileSync(join(outside, 'x/SKILL.md'), 'victim\n');
    const { project } = await projectWithLockedFile({ target: '.claude/skills/evil/x/SKILL.md', path: 'skills/review/SKILL.md', sha256: sha('victim\n') });
    symlinkSync(outside, join(project, '.claude/skills/evil'));
    for (const [name, run] of commands(project)) {
      const message = await refusal(run());
      expect(message, name).toContain('through the symbolic link .claude/skills/evil, outside the project');
    }
    expect(readFileSync(join(outside, 'x/SKILL.md'), 'utf8')).toBe('victim\n');
  });

  it('a locked target outside the agent\'s own locations is removed only with --force', async () => {
    const { project } = await projectWithLockedFile({ target: 'src/index.ts', path: 'AGENTS.md', sha256: sha('export {};\n') });
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src/index.ts'), 'export {};\n');
    const message = await refusal(uninstallLoadout({ scope: projectScope(project), id: 'kit' }));
    expect(message).toContain('the lock\'s kit install for claude-code: its target "src/index.ts" is outside claude-code\'s own locations');
    expect(existsSync(join(project, 'src/index.ts'))).toBe(true);
    await refusal(updateLoadouts({ scope: projectScope(project), ids: [] }));
    expect(existsSync(join(project, 'src/index.ts'))).toBe(true);
  });
});

describe('a hostile catalogue on update', () => {
  /** A copy of the built tree whose versions.json `edit` changes. */
  function tamperedCopy(edit: (doc: VersionsDocument) => void): string {
    const site = makeTempDir('loadout-site-');
    const dist = join(site, 'dist');
    copyDereferenced(catalogue.dist, dist);
    const path = join(dist, 'api/loadouts/kit/versions.json');
    const doc = JSON.parse(readFileSync(path, 'utf8')) as VersionsDocument;
    edit(doc);
    writeFileSync(path, JSON.stringify(doc));
    return dist;
  }

  it('a new version whose targets lead into .git or out of the project is refused, and nothing is written', async () => {
    for (const target of ['.git/hooks/post-checkout', '../escape.md']) {
      const dist = tamperedCopy((doc) => {
        const file = doc.versions.find((v) => v.version === '1.1.0')?.files.find((f) => f.path === 'AGENTS.md');
        if (file !== undefined) file.install_to = { 'claude-code': target };
      });
      const project = makeProject();
      await installLoadout({ from: dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
      const before = readFileSync(join(project, LOCK_FILE), 'utf8');
      const message = await refusal(updateLoadouts({ scope: projectScope(project), ids: ['kit'], force: true }));
      expect(message).toContain(`file entry "AGENTS.md" of kit 1.1.0: its claude-code target ${JSON.stringify(target)} (install_to.claude-code)`);
      expect(readFileSync(join(project, LOCK_FILE), 'utf8')).toBe(before);
      expect(existsSync(join(project, '.git/hooks/post-checkout'))).toBe(false);
    }
  });

  it('changes that are not strings are refused; escape sequences in changes are printed as visible text', async () => {
    const wrong = tamperedCopy((doc) => Object.assign(doc.versions[1] ?? {}, { changes: [{ evil: true }] }));
    const project = makeProject();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'codex', dir: project, version: '1.0.0' });
    expect(await refusal(updateLoadouts({ scope: projectScope(project), ids: [], from: wrong }))).toContain('versions[1].changes is [{"evil":true}] (expected an array of strings)');

    const title = '\u001b]0;owned\u0007';
    const clear = '\u001b[2J\u001b[H';
    const bidi = 'safe \u202eexe.txt';
    const dist = tamperedCopy((doc) => Object.assign(doc.versions[1] ?? {}, { changes: [`Fix ${title}${clear}done`, bidi, 'line\rover'] }));
    const update = await runCli(['update', '--from', dist, '--dir', project, '--dry-run'], project);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).not.toMatch(/[\u001b\u0007\u202e\r]/u);
    expect(update.stdout).toContain('    - Fix \\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{1b}[Hdone');
    expect(update.stdout).toContain('    - safe \\u{202e}exe.txt');
    expect(update.stdout).toContain('    - line\\u{d}over');
    // JSON keeps the text exact, escaped by JSON itself.
    const json = await runCli(['update', '--from', dist, '--dir', project, '--dry-run', '--json'], project);
    expect(json.stdout).not.toMatch(/[\u001b\u0007\u202e]/u);
    expect((JSON.parse(json.stdout) as { updates: { changelog: { entries: { changes: string[] }[] } }[] }).updates[0]?.changelog.entries[0]?.changes[1]).toBe(bidi);
  });

  it('printable keeps newlines and tabs and shows every other control character', () => {
    expect(printable('a\tb\nc\u0000d\u007fe\u009bf\u2066g')).toBe('a\tb\nc\\u{0}d\\u{7f}e\\u{9b}f\\u{2066}g');
    const value = { text: 'x\u202ey\u009b\u2028z\u001b' };
    expect(printableJson(value)).not.toMatch(/[\u001b\u009b\u2028\u202e]/u);
    expect(JSON.parse(printableJson(value))).toEqual(value);
  });
});

describe('a lock cannot move project files (issue 35, point 2)', () => {
  it('an `originals` entry whose backup is not below .loadout/backup/ is refused as a whole by every command, naming the entry', async () => {
    const project = makeProject();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    writeFileSync(join(project, '.env'), 'TOKEN=secret\n');
    const lock = JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;
    const skill = lock.installs[0]?.files.find((f) => f.target.endsWith('SKILL.md'))?.target ?? '';
    for (const backup of ['.env', '.loadout/backup', '.loadout/backupx/.env', 'src/.loadout/backup/x']) {
      writeFileSync(join(project, LOCK_FILE), JSON.stringify({ ...lock, originals: { [skill]: backup } }));
      for (const [name, run] of [...commands(project), ['install', () => installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0', force: true })] as const]) {
        const message = await refusal(run());
        expect(message, `${name} ${backup}`).toContain(`originals[${JSON.stringify(skill)}] is ${JSON.stringify(backup)} (expected a backup below .loadout/backup/)`);
      }
      expect(readFileSync(join(project, '.env'), 'utf8')).toBe('TOKEN=secret\n');
      expect(readFileSync(join(project, skill), 'utf8')).not.toContain('secret');
    }
  });
});

describe('hostile values that would crash or hang a command (issue 35, point 9)', () => {
  it('a lock whose id is nested 100,000 levels deep is refused with a message, not a stack overflow', async () => {
    const project = makeProject();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    const text = readFileSync(join(project, LOCK_FILE), 'utf8').replace('"id": "kit"', `"id": ${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    writeFileSync(join(project, LOCK_FILE), text);
    for (const [name, run] of commands(project)) expect(await refusal(run()), name).toContain('installs[0].id is [[[[…]]]] (expected a loadout id)');
  });

  it('a FIFO as the project\'s AGENTS.md or as its lock is refused by name instead of hanging', async () => {
    const project = makeProject();
    execFileSync('mkfifo', [join(project, 'AGENTS.md')]);
    const message = await refusal(installLoadout({ from: catalogue.dist, id: 'kit', agent: 'codex', dir: project, version: '1.0.0' }));
    expect(message).toContain('AGENTS.md is a FIFO (named pipe), not a regular file');
    rmSync(join(project, 'AGENTS.md'));
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'codex', dir: project, version: '1.0.0' });
    const text = readFileSync(join(project, 'AGENTS.md'));
    rmSync(join(project, 'AGENTS.md'));
    execFileSync('mkfifo', [join(project, 'AGENTS.md')]);
    for (const [name, run] of commands(project)) expect(await refusal(run()), name).toContain('AGENTS.md is a FIFO (named pipe), not a regular file');
    rmSync(join(project, 'AGENTS.md'));
    writeFileSync(join(project, 'AGENTS.md'), text);
    rmSync(join(project, LOCK_FILE));
    execFileSync('mkfifo', [join(project, LOCK_FILE)]);
    expect(await refusal(readStatus(projectScope(project)))).toContain(`${LOCK_FILE} is a FIFO (named pipe), not a regular file`);
  });
});

describe('a journal is untrusted input too (issue 35, point 8)', () => {
  const journalOf = (files: object[]): string => JSON.stringify({ loadoutJournal: 1, files, folders: [] });

  it('status reports a journal; the next command acts only on files whose bytes are those the journal says it wrote, and never outside the project', async () => {
    const project = makeProject();
    await installLoadout({ from: catalogue.dist, id: 'kit', agent: 'claude-code', dir: project, version: '1.0.0' });
    writeFileSync(join(project, '.env'), 'TOKEN=secret\n');
    const victim = `victim-${process.pid}.txt`;
    const outside = join(project, '..', victim);
    onTestFinished(() => rmSync(outside, { force: true }));
    writeFileSync(outside, 'victim\n');
    // Bytes it did not write (.env), and a path outside the project: the first is kept, the second refuses the journal.
    writeFileSync(join(project, `${LOCK_FILE}.journal`), journalOf([{ target: '.env', before: Buffer.from('EVIL=1\n').toString('base64'), after: sha('something else\n') }, { target: LOCK_FILE, after: sha('x') }]));
    const status = await readStatus(projectScope(project));
    expect(status).toMatchObject({ ok: false, interrupted: expect.stringContaining('was interrupted') });
    const cli = await runCli(['status', '--dir', project], project);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`interrupted: ${LOCK_FILE}.journal is there`);
    await uninstallLoadout({ scope: projectScope(project), id: 'kit', dryRun: true });
    expect(existsSync(join(project, `${LOCK_FILE}.journal`)), 'a dry run changes nothing').toBe(true);
    await updateLoadouts({ scope: projectScope(project), ids: [] });
    expect(readFileSync(join(project, '.env'), 'utf8')).toBe('TOKEN=secret\n');
    expect(readFileSync(join(project, LOCK_FILE), 'utf8')).not.toBe('');
    expect(existsSync(join(project, `${LOCK_FILE}.journal`))).toBe(false);

    // A journal that names a path outside the project or in .git is refused as a whole (issue 53, point 6), not acted on in part.
    writeFileSync(join(project, `${LOCK_FILE}.journal`), journalOf([{ target: `../${victim}`, after: sha('victim\n') }, { target: '.git/config', after: sha('x') }]));
    const refused = await uninstallLoadout({ scope: projectScope(project), id: 'kit' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'UnusableJournal', message: `${LOCK_FILE}.journal cannot be used: files[0].target "../${victim}" contains a ".." segment (expected a normalised path relative to the project root, such as ".cursor/rules/style.mdc") (and 1 more); nothing was changed` });
    expect((refused as LoadoutError).hint).toContain('`loadout recover --set-aside`');
    expect(readFileSync(outside, 'utf8')).toBe('victim\n');
    expect(existsSync(join(project, `${LOCK_FILE}.journal`))).toBe(true);
  });
});
