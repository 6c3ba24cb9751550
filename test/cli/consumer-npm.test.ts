/**
 * The consumer package through real npm (DESIGN.md section 3, "Distribution"): a built tree
 * serves `cli/loadout-<version>.tgz` on 127.0.0.1, and `npm exec --yes --package=<url> --
 * loadout install …` installs a loadout for each of the five authoring agents, each run with an
 * empty npm cache and HOME and `npm_config_registry` at a closed port (so the package has no
 * dependency to fetch). What it writes equals what the repository's own CLI writes. The tarball
 * is byte-identical across builds of the same source, and its integrity is the one the
 * description document names.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORING_AGENTS } from '../../src/catalogue/vocabulary.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { packConsumerCli } from '../../src/tree/cli-package/pack.js';
import { buildPagesFixture, type PagesFixture } from '../pages/fixture.js';
import { runCli } from '../helpers/cli.js';

let fixture: PagesFixture;
let server: RunningServer;
let base = '';
const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

beforeAll(async () => {
  // Built for the address it is served at: listen first on a free port, then build for it.
  server = await listen(createApp({ distDir: join(tmpdir(), 'loadout-none'), baseUrl: 'http://127.0.0.1', submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  base = server.url;
  await server.close();
  const port = Number(new URL(base).port);
  fixture = await buildPagesFixture(base);
  server = await listen(createApp({ distDir: fixture.dist, baseUrl: base, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  fixture?.remove();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Every file below `dir` with its bytes, by relative path. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    if (statSync(join(dir, path)).isFile()) out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

describe('the consumer package through real npm', () => {
  it('is served by the tree, named with its integrity in the description document, and the same bytes on every pack', async () => {
    const description = (await (await fetch(`${base}/api/v1/index.json`)).json()) as { cli?: { url: string; version: string; integrity: string } };
    expect(description.cli?.url).toBe(`${base}/cli/loadout-${description.cli?.version}.tgz`);
    const response = await fetch(description.cli?.url ?? '');
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const tarball = Buffer.from(await response.arrayBuffer());
    expect(`sha512-${createHash('sha512').update(tarball).digest('base64')}`).toBe(description.cli?.integrity);
    expect(tarball.length).toBeLessThan(1024 * 1024);
    expect(Buffer.from(await (await fetch(`${base}/cli/loadout-latest.tgz`)).arrayBuffer()).equals(tarball)).toBe(true);
    expect((await packConsumerCli())?.tarball.equals(tarball)).toBe(true);
  });

  it.each(AUTHORING_AGENTS)('npm exec installs for %s with no registry, writing what the repository CLI writes', async (agent) => {
    const home = temp('loadout-npm-home-');
    const viaNpm = temp('loadout-npm-project-');
    const env = { PATH: process.env['PATH'] ?? '', HOME: home, npm_config_cache: join(home, '.npm'), npm_config_registry: 'http://127.0.0.1:9/', npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    const { stdout } = await promisify(execFile)('npm', ['exec', '--yes', `--package=${base}/cli/loadout-latest.tgz`, '--', 'loadout', 'install', 'nextjs-app-router', '--agent', agent, '--from', base], { cwd: viaNpm, env, timeout: 90_000 });
    expect(stdout).toContain(`installed nextjs-app-router`);
    const viaRepository = temp('loadout-repo-project-');
    const repo = await runCli(['install', 'nextjs-app-router', '--agent', agent, '--from', base], viaRepository);
    expect(repo.code).toBe(0);
    const written = filesOf(viaNpm);
    expect(Object.keys(written)).toContain('AGENTS.md');
    expect(written).toEqual(filesOf(viaRepository));
  }, 120_000);
});
