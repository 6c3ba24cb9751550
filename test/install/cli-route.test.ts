/**
 * The CLI's own route under the signature (SECURITY.md, "The CLI's own route"; DESIGN.md
 * "Trust route of the CLI"): a signed snapshot covers the description document and the CLI's
 * tarballs, `verify-cli` checks a catalogue's tarball against it before anyone runs it, the
 * catalogue's own CLI says that it came from the host it checks, and a signed catalogue's pages
 * lead with the npm registry's CLI. Real Ed25519 keys, real builds served on 127.0.0.1, the
 * real bundle unpacked from the tarball the build packed.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { readCliPackageJson } from '../../src/tree/cli-package/bundle.js';
import { readSigningKey, type SigningKey } from '../../src/tree-format/signing/keys.js';
import { SNAPSHOT_PATH } from '../../src/tree-format/signing/snapshot.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { runCli, runProcess } from '../helpers/cli.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'http://catalogue.test';
const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A catalogue with one loadout, built (signed with `key` when given) and served on 127.0.0.1. */
async function servedCatalogue(key?: SigningKey, cliPublished?: string): Promise<{ dist: string; url: string; root: string }> {
  const root = makeTempDir();
  initRepo(root);
  writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0', files: baseFiles('Kit', '# Kit\n\nOne.\n') });
  commitAll(root, 'kit 1.0.0');
  const dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: BASE, ...(key === undefined ? {} : { signing: { key, expiresInDays: 30 } }), ...(cliPublished === undefined ? {} : { cliPublished }) });
  expect(built.refused).toEqual([]);
  const server = await listen(createApp({ distDir: dist, baseUrl: BASE, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  servers.push(server);
  return { dist, url: server.url.replace(/\/+$/u, ''), root };
}

const snapshotOf = (dist: string): { documents: Record<string, { sha256: string; bytes: number }> } =>
  JSON.parse(Buffer.from((JSON.parse(readFileSync(join(dist, SNAPSHOT_PATH), 'utf8')) as { payload: string }).payload, 'base64').toString()) as { documents: Record<string, { sha256: string; bytes: number }> };
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('the signed snapshot covers the CLI and the description document', () => {
  it('lists api/v1/index.json and both CLI tarballs with their sha256 and size', async () => {
    const { version } = await readCliPackageJson();
    const { dist } = await servedCatalogue(newKey());
    const { documents } = snapshotOf(dist);
    for (const path of ['api/v1/index.json', `cli/loadout-${version}.tgz`, 'cli/loadout-latest.tgz']) {
      const bytes = readFileSync(join(dist, path));
      expect(documents[path], path).toEqual({ sha256: sha256(bytes), bytes: bytes.byteLength });
    }
  });

  it('refuses an install when the description document was changed after signing (its cli.integrity, say)', async () => {
    const { dist, url } = await servedCatalogue(newKey());
    const path = join(dist, 'api/v1/index.json');
    const description = JSON.parse(readFileSync(path, 'utf8')) as { cli: { integrity: string } };
    description.cli.integrity = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
    writeFileSync(path, `${JSON.stringify(description, null, 2)}\n`);
    const project = makeTempDir();
    const run = await runCli(['install', 'kit', '--agent', 'codex', '--from', url, '--dir', project], project);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${url}/api/v1/index.json has sha256`);
    expect(run.stderr).toContain('it was changed after signing');
  });
});

describe('loadout verify-cli', () => {
  it('checks the tarball against the signed snapshot and writes the checked bytes', async () => {
    const key = newKey();
    const { version } = await readCliPackageJson();
    const { dist, url } = await servedCatalogue(key);
    const project = makeTempDir();
    const out = join(project, 'loadout.tgz');
    const run = await runCli(['verify-cli', '--from', url, '--out', out, '--json'], project);
    expect(run.code, run.stderr).toBe(0);
    const verified = JSON.parse(run.stdout) as { source: string; version: string; sha256: string; signed: { keyids: string[] }; written: string };
    const served = readFileSync(join(dist, 'cli/loadout-latest.tgz'));
    expect(verified).toMatchObject({ source: `${url}/cli/loadout-latest.tgz`, version, sha256: sha256(served), signed: { keyids: [key.published.keyid] }, written: out });
    expect(readFileSync(out).equals(served)).toBe(true);
    const pinned = await runCli(['verify-cli', '--from', url, '--version', version], project);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toContain(`ok: ${url}/cli/loadout-${version}.tgz is the CLI the catalogue's signed snapshot lists`);
  });

  it('refuses a tarball a mirror changed, and writes nothing', async () => {
    const { dist, url } = await servedCatalogue(newKey());
    const tarball = join(dist, 'cli/loadout-latest.tgz');
    const bytes = readFileSync(tarball);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    writeFileSync(tarball, bytes);
    const project = makeTempDir();
    const run = await runCli(['verify-cli', '--from', url, '--out', join(project, 'x.tgz')], project);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${url}/cli/loadout-latest.tgz has sha256 ${sha256(bytes)}`);
    expect(() => readFileSync(join(project, 'x.tgz'))).toThrow();
  });

  it('refuses an unsigned catalogue (nothing vouches for its CLI) and a version of the wrong form', async () => {
    const { url } = await servedCatalogue();
    const project = makeTempDir();
    const run = await runCli(['verify-cli', '--from', url], project);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not signed');
    const bad = await runCli(['verify-cli', '--from', url, '--version', 'latest; rm -rf'], project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--version is "latest; rm -rf"');
  });
});

describe('the catalogue-served CLI says where it came from', () => {
  /** Unpacks the catalogue's tarball as npx lays it out: `<cache>/node_modules/loadout-cli/` beside npx's lock. */
  function unpackAsNpx(dist: string, resolved: string): string {
    const cache = makeTempDir();
    const packageDir = join(cache, 'node_modules', 'loadout-cli');
    mkdirSync(packageDir, { recursive: true });
    execFileSync('tar', ['-xzf', join(dist, 'cli/loadout-latest.tgz'), '-C', packageDir, '--strip-components=1']);
    writeFileSync(join(cache, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/loadout-cli': { resolved } } }));
    return join(packageDir, 'dist', 'loadout.mjs');
  }

  it('with --require-signed against a signed catalogue the bundle names the host it came from; the repository CLI does not', async () => {
    const { dist, url } = await servedCatalogue(newKey());
    const bundle = unpackAsNpx(dist, `${url}/cli/loadout-latest.tgz`);
    const project = makeTempDir();
    const served = await runProcess(process.execPath, [bundle, 'install', 'kit', '--agent', 'codex', '--from', url, '--dir', project, '--require-signed'], project, { ...process.env, CI: 'true' });
    expect(served.code, served.stderr).toBe(0);
    expect(served.stdout).toContain('signed: key');
    expect(served.stderr).toContain(`this loadout CLI was itself fetched from ${url}/cli/loadout-latest.tgz, which the catalogue's signature does not cover`);
    // The lock now pins the key: a later command without --require-signed says it too.
    const later = await runProcess(process.execPath, [bundle, 'outdated', '--dir', project], project, { ...process.env, CI: 'true' });
    expect(later.stderr).toContain('this loadout CLI was itself fetched from');
    const repository = await runCli(['install', 'kit', '--agent', 'cursor', '--from', url, '--dir', project, '--require-signed'], project);
    expect(repository.code, repository.stderr).toBe(0);
    expect(repository.stderr).not.toContain('was itself fetched');
  });

  it('says nothing of the kind for an unsigned catalogue without --require-signed', async () => {
    const { dist, url } = await servedCatalogue();
    const bundle = unpackAsNpx(dist, `${url}/cli/loadout-latest.tgz`);
    const project = makeTempDir();
    const run = await runProcess(process.execPath, [bundle, 'install', 'kit', '--agent', 'codex', '--from', url, '--dir', project], project, { ...process.env, CI: 'true' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('was itself fetched');
  });
});

describe('the pages lead with a CLI whose integrity does not come from the catalogue', () => {
  const firstCommand = (html: string): string => /<pre id="cmd-[a-z-]+"[^>]*><code>([^<]+)<\/code>/u.exec(html)?.[1] ?? '';

  it('a signed catalogue whose CLI is published shows npx loadout-cli@<version> first, and labels its own tarball as trusting its host', async () => {
    const { version } = await readCliPackageJson();
    const { dist } = await servedCatalogue(newKey(), version);
    const html = readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8');
    expect(firstCommand(html)).toBe(`npx -y loadout-cli@${version} install kit --agent claude-code --from ${BASE}`);
    expect(html).toContain(`npx -y ${BASE}/cli/loadout-latest.tgz install kit --agent claude-code --from ${BASE}`);
    expect(html).toContain('it trusts whoever serves this address, even when the catalogue is signed');
    expect((JSON.parse(readFileSync(join(dist, 'api/v1/index.json'), 'utf8')) as { cli: { registry?: unknown } }).cli.registry).toEqual({ package: 'loadout-cli', version });
  });

  it('shows no registry command while the build is not told the package is published (issue 57, point 2), and a rebuild told so rewrites every page', async () => {
    const { version } = await readCliPackageJson();
    const { dist, root } = await servedCatalogue(newKey());
    const before = readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8');
    // npx -y loadout-cli@<version> answers 404 while the package is not on the registry.
    expect(before).not.toContain('loadout-cli@');
    expect(firstCommand(before)).toBe(`npx -y ${BASE}/cli/loadout-latest.tgz install kit --agent claude-code --from ${BASE}`);
    expect(before).toContain('it trusts whoever serves this address');
    expect((JSON.parse(readFileSync(join(dist, 'api/v1/index.json'), 'utf8')) as { cli: { registry?: unknown } }).cli.registry).toBeUndefined();
    // The route is part of the build's fingerprint: the same tree built again with the option is not reused.
    const again = await buildCatalogue({ root, out: dist, baseUrl: BASE, cliPublished: version });
    expect(again.reused).toEqual([]);
    expect(firstCommand(readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8'))).toBe(`npx -y ${BASE}/cli/loadout-latest.tgz install kit --agent claude-code --from ${BASE}`);
    expect(readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8')).toContain(`npx -y loadout-cli@${version} install kit --agent claude-code --from ${BASE}`);
  });

  it('refuses a published version that is not the one the build packs, naming the option', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'kit', title: 'Kit', version: '1.0.0', files: baseFiles('Kit', '# Kit\n\nOne.\n') });
    commitAll(root, 'kit 1.0.0');
    await expect(buildCatalogue({ root, out: join(root, 'dist'), baseUrl: BASE, cliPublished: '0.0.0-not-this' })).rejects.toThrow(/--cli-published is "0\.0\.0-not-this", but this build serves loadout-cli /u);
    const run = await runCli(['build', '--out', join(root, 'dist'), '--base-url', BASE, '--cli-published', '0.0.0-not-this'], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('loadout: --cli-published is "0.0.0-not-this"');
  });

  it('an unsigned catalogue shows its own tarball first', async () => {
    const { dist } = await servedCatalogue();
    const html = readFileSync(join(dist, 'loadouts/kit/index.html'), 'utf8');
    expect(firstCommand(html)).toBe(`npx -y ${BASE}/cli/loadout-latest.tgz install kit --agent claude-code --from ${BASE}`);
  });
});
