/**
 * Reads from a hostile catalogue stay inside it: a `../`, absolute, backslashed or encoded
 * path, a bad version or id in `versions.json`, a symbolic link in a built tree, or a
 * redirect of a catalogue server never makes `loadout install` read outside the catalogue,
 * for `--from DIR` and for a catalogue URL served by a real HTTP server. The secret beside
 * the catalogue would match its sha256, so a read of it would install it.
 */
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { installLoadout } from '../../src/install/install.js';
import { runCli } from '../helpers/cli.js';
import { buildCleanDist, listProject, makeProject, makeSite, replaceRaw, SECRET, serveSite, sha, type Site } from './hostile-fixture.js';

let clean: Awaited<ReturnType<typeof buildCleanDist>>;
beforeAll(async () => {
  clean = await buildCleanDist();
});
afterAll(() => clean?.remove());

async function failure(promise: Promise<unknown>): Promise<LoadoutError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoadoutError);
  return error as LoadoutError;
}

/** A site whose AGENTS.md entry is renamed `path` and carries the secret's hash, so a read of the secret would pass. */
function pointingAt(path: string): Site {
  const s = makeSite(clean.dist);
  Object.assign(s.file('AGENTS.md'), { path, sha256: sha(SECRET), bytes: Buffer.byteLength(SECRET) });
  s.save();
  return s;
}

/** File paths in versions.json that must not be read: each would leave raw/kit/1.0.0/, or is not a path of the loadout layout. */
const HOSTILE_PATHS: [string, string][] = [
  ['../../../../secret.txt', 'contains a ".." segment (expected a path inside the loadout folder)'],
  ['a/../../../../../secret.txt', 'contains a ".." segment'],
  ['/etc/passwd', 'is absolute (expected a path relative to the loadout folder)'],
  ['C:/secret.txt', 'is absolute'],
  ['..\\..\\..\\..\\secret.txt', 'contains a backslash (expected forward slashes)'],
  ['secret.txt\u0000.md', 'contains a NUL or control character'],
  ['./AGENTS.md', 'contains a "." segment'],
  ['', 'is empty'],
];

describe('--from DIR: versions.json cannot make install read outside DIR', () => {
  it.each(HOSTILE_PATHS)('file path %j is refused: %s', async (path, problem) => {
    const s = pointingAt(path);
    const project = makeProject();
    const error = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: project, force: true }));
    expect(error.code).toBe('invalid_content');
    expect(error.message).toContain(`versions.json: versions[0].files[0] (${JSON.stringify(path)}): path ${problem}`);
    expect(listProject(project)).toEqual([]);
  });

  it.each([
    ['latest', (s: Site) => (s.doc.latest = '../../../..'), 'latest is "../../../.." (expected a version such as "1.2.0")'],
    ['a version', (s: Site) => Object.assign(s.doc.versions[0] ?? {}, { version: '../../../x' }), 'versions[0].version is "../../../x" (expected a version such as "1.2.0")'],
    ['the id', (s: Site) => (s.doc.id = '../kit'), 'id is "../kit" (expected "kit")'],
    ['a role', (s: Site) => Object.assign(s.file('AGENTS.md'), { role: 'constructor' }), 'versions[0].files[0] ("AGENTS.md"): role is "constructor" (expected one of'],
    ['a hash', (s: Site) => Object.assign(s.file('AGENTS.md'), { sha256: 'x' }), 'versions[0].files[0] ("AGENTS.md"): sha256 is "x" (expected 64 lowercase hex digits)'],
    ['the files', (s: Site) => Object.assign(s.doc.versions[0] ?? {}, { files: {} }), 'versions[0].files is {} (expected an array)'],
  ] as [string, (s: Site) => void, string][])('%s of the wrong form is refused before any read', async (_label, spoil, message) => {
    const s = makeSite(clean.dist);
    spoil(s);
    s.save();
    const error = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: makeProject() }));
    expect(error.message).toContain(message);
  });

  it('a symbolic link in the tree to a file outside it is not followed', async () => {
    const s = pointingAt('AGENTS.md');
    const raw = join(s.dist, 'raw/kit/1.0.0/AGENTS.md');
    rmSync(raw);
    symlinkSync(join(s.site, 'secret.txt'), raw);
    const project = makeProject();
    const error = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: project }));
    expect(error.message).toContain(`kit 1.0.0 AGENTS.md: raw/kit/1.0.0/AGENTS.md resolves to ${join(s.site, 'secret.txt')}, outside the catalogue at ${s.dist} (expected a file inside it`);
    expect(listProject(project)).toEqual([]);
  });

  it('a symbolic link in the tree to a folder outside it is not followed', async () => {
    const s = pointingAt('AGENTS.md');
    const outside = join(s.site, 'elsewhere');
    renameSync(join(s.dist, 'raw/kit/1.0.0'), outside);
    writeFileSync(join(outside, 'AGENTS.md'), SECRET);
    symlinkSync(outside, join(s.dist, 'raw/kit/1.0.0'));
    const error = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: makeProject() }));
    expect(error.message).toContain('resolves to');
    expect(error.message).toContain('outside the catalogue');
  });

  it('versions.json itself may not be a link out of the tree', async () => {
    const s = makeSite(clean.dist);
    const doc = join(s.dist, 'api/loadouts/kit/versions.json');
    renameSync(doc, join(s.site, 'versions.json'));
    symlinkSync(join(s.site, 'versions.json'), doc);
    const error = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: makeProject() }));
    expect(error.message).toContain('loadout kit: api/loadouts/kit/versions.json resolves to');
  });

  it('a catalogue folder that is itself a link (as `loadout build` makes --out) is read', async () => {
    const s = makeSite(clean.dist);
    const linked = join(s.site, 'linked');
    symlinkSync(s.dist, linked);
    const outcome = await installLoadout({ from: linked, id: 'kit', agent: 'codex', dir: makeProject() });
    expect(outcome.installed).toBe(true);
  });

  it('an id or version of the wrong form is a usage error, and a locked version of the wrong form is refused', async () => {
    const s = makeSite(clean.dist);
    const project = makeProject();
    const id = await runCli(['install', '../kit', '--agent', 'codex', '--from', s.dist, '--dir', project], project);
    expect(id.code).toBe(2);
    expect(id.stderr).toContain('<id> is "../kit" (expected a loadout id, a lowercase slug such as nextjs-app-router)');
    const version = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: project, version: '../../..' }));
    expect(version.message).toBe('--version is "../../.." (expected MAJOR.MINOR.PATCH, such as 1.2.0)');
    writeFileSync(join(project, 'loadout.lock.json'), JSON.stringify({ lockfileVersion: 1, installs: [{ id: 'kit', agent: 'codex', version: '../../../../secret', source: s.dist, files: [] }] }));
    const frozen = await failure(installLoadout({ from: s.dist, id: 'kit', agent: 'codex', dir: project, frozen: true }));
    expect(frozen.message).toContain('loadout.lock.json is not a loadout lock file: installs[0].version is "../../../../secret" (expected MAJOR.MINOR.PATCH)');
  });
});

describe('a catalogue URL: versions.json and redirects cannot make install fetch outside the base', () => {
  const outsideBase = (served: { requests: string[] }): string[] => served.requests.filter((r) => !r.startsWith('/dist/'));
  // Besides the signing documents (the description and the signed snapshot, signed-catalogue.ts).
  const documentsRead = (served: { requests: string[] }): string[] => served.requests.filter((r) => !r.startsWith('/dist/api/v1/'));

  it.each(HOSTILE_PATHS)('file path %j is refused before any fetch of it', async (path, problem) => {
    const s = pointingAt(path);
    const served = await serveSite(s.site);
    const project = makeProject();
    const error = await failure(installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: project, force: true }));
    expect(error.message).toContain(`${served.base}/api/loadouts/kit/versions.json: versions[0].files[0] (${JSON.stringify(path)}): path ${problem}`);
    expect(outsideBase(served)).toEqual([]);
    expect(documentsRead(served)).toEqual(['/dist/api/loadouts/kit/versions.json']);
    expect(listProject(project)).toEqual([]);
  });

  it.each(['%2e%2e/%2e%2e/%2e%2e/%2e%2e/secret.txt', '..%2f..%2f..%2f..%2fsecret.txt', '.%2e/.%2e/.%2e/.%2e/secret.txt'])('the encoded path %j stays a name inside the base', async (path) => {
    const s = pointingAt(path);
    const served = await serveSite(s.site);
    const error = await failure(installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: makeProject() }));
    expect(error.code).toBe('not_found');
    expect(outsideBase(served)).toEqual([]);
  });

  it('a version of the wrong form is refused before any fetch with it', async () => {
    const s = makeSite(clean.dist);
    Object.assign(s.doc.versions[0] ?? {}, { version: '../../..' });
    s.doc.latest = '../../..';
    s.save();
    const served = await serveSite(s.site);
    const error = await failure(installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: makeProject() }));
    expect(error.message).toContain('latest is "../../.." (expected a version such as "1.2.0")');
    expect(documentsRead(served)).toEqual(['/dist/api/loadouts/kit/versions.json']);
  });

  it('a redirect out of the base is not followed, to the same host or another', async () => {
    const s = pointingAt('AGENTS.md');
    const served = await serveSite(s.site);
    served.redirect('/dist/raw/kit/1.0.0/AGENTS.md', '/secret.txt');
    const project = makeProject();
    const error = await failure(installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: project }));
    expect(error.message).toContain(`kit 1.0.0 AGENTS.md: ${served.base}/raw/kit/1.0.0/AGENTS.md redirects to ${served.origin}/secret.txt, outside the catalogue at ${served.base} (expected addresses below ${served.base}/)`);
    expect(outsideBase(served)).toEqual([]);

    const other = await serveSite(s.site);
    served.redirect('/dist/raw/kit/1.0.0/AGENTS.md', `${other.origin}/dist/raw/kit/1.0.0/AGENTS.md`);
    await failure(installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: project }));
    expect(other.requests).toEqual([]);
    expect(listProject(project)).toEqual([]);
  });

  it('a redirect inside the base is followed', async () => {
    const s = makeSite(clean.dist);
    mkdirSync(join(s.dist, 'moved'));
    cpSync(join(s.dist, 'raw/kit/1.0.0/AGENTS.md'), join(s.dist, 'moved/AGENTS.md'));
    const served = await serveSite(s.site);
    served.redirect('/dist/raw/kit/1.0.0/AGENTS.md', '/dist/moved/AGENTS.md');
    const project = makeProject();
    const outcome = await installLoadout({ from: served.base, id: 'kit', agent: 'codex', dir: project });
    expect(outcome.installed).toBe(true);
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toContain('One.');
    expect(served.requests).toContain('/dist/moved/AGENTS.md');
  });

  it('installs from a clean catalogue URL, reading only below the base', async () => {
    const s = makeSite(clean.dist);
    replaceRaw(s, 'AGENTS.md', '# Kit\n\nServed.\n');
    s.save();
    const served = await serveSite(s.site);
    const project = makeProject();
    await installLoadout({ from: `${served.base}/`, id: 'kit', agent: 'cursor', dir: project });
    // The served text, in the loadout's marked block of the shared AGENTS.md.
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toMatch(/^<!-- loadout:begin kit@1\.0\.0 -->\n# Kit\n\nServed\.\n(?:\n)?<!-- loadout:end kit -->\n$/u);
    expect(existsSync(join(project, '.cursor/rules/style.mdc'))).toBe(true);
    expect(outsideBase(served)).toEqual([]);
  });
});
