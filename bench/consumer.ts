/**
 * `tsx bench/consumer.ts [--id nextjs-app-router]`: what a consumer waits for (DESIGN.md
 * section 7, consumers): the repository's loadouts built into a temporary tree and served on
 * 127.0.0.1, then, with an empty npm cache and HOME in a temporary folder:
 * - the consumer CLI's tarball size (target < 1 MB);
 * - `npx -y <tarball URL> install <id> --agent cursor`, wall time until the files are
 *   written, first run (empty cache; target < 5 s) and warm run (cache filled);
 * - the warm install itself: the package's bundle run by node (target < 300 ms), beside a
 *   bare `node -e 0` started the same way, the floor no CLI can go below;
 * - the anchor: the same loadout's skills by `npx -y skills add <base>/loadouts/<id>` (the
 *   `skills` CLI from the npm registry; 1.5.18 on Node 20, whose engines 1.7 does not meet),
 *   first run from an empty cache, and the ratio.
 * One run; the figures measure this machine as much as the code.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createApp } from '../src/server/app.js';
import { listen } from '../src/server/listen.js';
import { buildCatalogue } from '../src/tree/build.js';
import { packConsumerCli } from '../src/tree/cli-package/pack.js';

const id = process.argv.includes('--id') ? (process.argv[process.argv.indexOf('--id') + 1] ?? 'nextjs-app-router') : 'nextjs-app-router';
const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loadout-bench-consumer-'));
const config = { database: false, challenge_secret: false, challenge_site_key: false };

/** Runs `command args` in `cwd` with `env`; resolves with the wall time in ms, or rejects with its output. */
function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

const fresh = (name: string): string => mkdtempSync(join(work, `${name}-`));
const npmEnv = (home: string, registry?: string): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  npm_config_cache: join(home, '.npm'),
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  ...(registry === undefined ? {} : { npm_config_registry: registry }),
});

try {
  // A free port first, so the tree is built for the address it is served at.
  const probe = await listen(createApp({ distDir: work, baseUrl: 'http://127.0.0.1', submissionsOpen: false, config }), { port: 0, host: '127.0.0.1' });
  const base = probe.url;
  await probe.close();
  const dist = join(work, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: base });
  if (!built.written) throw new Error(`the build was refused: ${built.refused.join(', ')}`);
  const cli = await packConsumerCli();
  if (cli === undefined) throw new Error('no consumer CLI to pack (esbuild missing)');
  const server = await listen(createApp({ distDir: dist, baseUrl: base, submissionsOpen: false, config }), { port: Number(new URL(base).port), host: '127.0.0.1' });
  try {
    const url = `${base}/cli/loadout-${cli.version}.tgz`;
    const home = fresh('home');
    const install = ['-y', url, 'install', id, '--agent', 'cursor', '--from', base];
    // No registry: the package has no dependencies, so npx needs none.
    const closed = 'http://127.0.0.1:9/';
    const first = await timed('npx', install, fresh('first'), npmEnv(home, closed));
    const warm = await timed('npx', install, fresh('warm'), npmEnv(home, closed));
    const bundle = join(work, 'loadout.mjs');
    // The bundle out of the tarball: its first entry (entries are sorted), package/dist/loadout.mjs, the file npx runs.
    const tar = gunzipSync(cli.tarball);
    const size = parseInt(tar.subarray(124, 136).toString('ascii'), 8);
    if (tar.subarray(0, 100).toString('utf8').replace(/\0+$/u, '') !== 'package/dist/loadout.mjs') throw new Error('unexpected first entry of the tarball');
    writeFileSync(bundle, tar.subarray(512, 512 + size));
    const direct = fresh('direct');
    await timed(process.execPath, [bundle, 'install', id, '--agent', 'cursor', '--from', base], fresh('prime'), npmEnv(home));
    const bareNode = await timed(process.execPath, ['-e', '0'], direct, npmEnv(home));
    const warmInstall = await timed(process.execPath, [bundle, 'install', id, '--agent', 'cursor', '--from', base], direct, npmEnv(home));
    if (!existsSync(join(direct, 'AGENTS.md'))) throw new Error('the warm install wrote no AGENTS.md');
    let skills: number | undefined;
    const skillsPackage = Number(process.versions.node.split('.')[0]) >= 22 ? 'skills' : 'skills@1.5.18';
    try {
      skills = await timed('npx', ['-y', skillsPackage, 'add', `${base}/loadouts/${id}`, '--yes', '--agent', 'cursor'], fresh('skills'), npmEnv(fresh('skills-home')));
    } catch (error) {
      console.log(`skills add failed: ${(error as Error).message.slice(0, 600)}`);
    }
    const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    console.log(`loadout: ${id}, catalogue ${base}, node ${process.versions.node}`);
    console.log(`tarball: ${cli.tarball.length} bytes (${(cli.tarball.length / 1024).toFixed(1)} KB; target < 1 MB) ${cli.tarball.length < 1024 * 1024 ? 'ok' : 'OVER'}`);
    console.log(`npx install, first run (empty cache): ${s(first)} (target < 5 s) ${first < 5000 ? 'ok' : 'OVER'}`);
    console.log(`npx install, warm run: ${s(warm)}`);
    console.log(`warm install (the bundle, node): ${Math.round(warmInstall)} ms (target < 300 ms) ${warmInstall < 300 ? 'ok' : 'OVER'}; baseline \`node -e 0\` ${Math.round(bareNode)} ms, ratio ${(warmInstall / bareNode).toFixed(2)}`);
    if (skills !== undefined) console.log(`anchor: npx -y ${skillsPackage} add (empty cache): ${s(skills)}; loadout first run / skills add = ${(first / skills).toFixed(2)}`);
  } finally {
    await server.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
