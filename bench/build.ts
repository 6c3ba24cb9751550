/**
 * Build benchmark (DESIGN.md section 7): builds 1,000 synthetic loadouts and compares
 *  1. the cold build with a shell baseline that writes the same raw files and zips
 *     (`cp` + `zip -X`), measured in the same run: target within 1.5x;
 *  2. a rebuild after one loadout changes with the cold build: target under 10%.
 * Run: `npx tsx bench/build.ts [count]`. Needs git and zip (Debian package `zip`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue } from '../src/build/build.js';
import type { PublishedRecord } from '../src/build/record.js';
import { PUBLISHED_AGENTS } from '../src/catalogue/vocabulary.js';
import { writeSyntheticCatalogue } from './synthetic.js';

const count = Number(process.argv[2] ?? 1000);
const root = mkdtempSync(join(tmpdir(), 'loadout-bench-build-'));
const git = (args: string[]): void => void execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com' } });

function seconds(started: number): number {
  return (performance.now() - started) / 1000;
}

if (spawnSync('zip', ['-v']).status !== 0) {
  console.error('bench/build: the `zip` command is missing (apt-get install zip)');
  process.exit(1);
}

try {
  const ids = writeSyntheticCatalogue(root, count);
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'synthetic catalogue']);
  const out = join(root, 'dist');

  let started = performance.now();
  const cold = await buildCatalogue({ root, out, baseUrl: 'https://bench.example' });
  const coldSeconds = seconds(started);
  if (!cold.written) throw new Error(`build refused: ${cold.refused.slice(0, 5).join(', ')}`);
  const files = cold.loadouts.length * 8;
  console.log(`cold build: ${count} loadouts, ${files} files, ${(cold.bytes / 1e6).toFixed(1)} MB written in ${coldSeconds.toFixed(2)} s (${(files / coldSeconds).toFixed(0)} files/s)`);

  // Rebuild after one loadout changes.
  const changed = join(root, 'loadouts', ids[Math.floor(ids.length / 2)] ?? '', 'AGENTS.md');
  appendFileSync(changed, '\n- One more line.\n');
  started = performance.now();
  const again = await buildCatalogue({ root, out, baseUrl: 'https://bench.example' });
  const rebuildSeconds = seconds(started);
  if (!again.written) throw new Error('rebuild refused');
  console.log(`rebuild after one change: ${rebuildSeconds.toFixed(2)} s`);

  // The shell baseline writes the same raw files and zips from the same plans.
  const script = join(root, 'baseline.sh');
  writeFileSync(script, 'set -e\n');
  const base = join(root, 'baseline');
  for (const id of ids) {
    const record = JSON.parse(readFileSync(join(out, 'api/loadouts', `${id}.json`), 'utf8')) as PublishedRecord;
    const src = join(root, 'loadouts', id);
    const lines = [`mkdir -p ${base}/raw/${id}/1.0.0 ${base}/raw/${id}/latest ${base}/download/${id}`];
    lines.push(`(cd ${src} && cp --parents ${record.files.map((f) => f.path).join(' ')} ${base}/raw/${id}/1.0.0/ && cp --parents ${record.files.map((f) => f.path).join(' ')} ${base}/raw/${id}/latest/)`);
    for (const agent of PUBLISHED_AGENTS) {
      const stage = `${base}/stage/${id}/${agent}`;
      const copies = record.install[agent].files.map((f) => `mkdir -p ${stage}/$(dirname ${f.target}) && cp ${src}/${f.path} ${stage}/${f.target}`);
      lines.push(...copies, `(cd ${stage} && zip -X -q -r ${base}/download/${id}/${agent}.zip .)`);
    }
    lines.push(`(cd ${root}/loadouts && zip -X -q -r ${base}/download/${id}/source.zip ${id})`);
    appendFileSync(script, `${lines.join('\n')}\n`);
  }
  started = performance.now();
  const result = spawnSync('bash', [script], { stdio: 'inherit' });
  const baselineSeconds = seconds(started);
  if (result.status !== 0) throw new Error('baseline script failed');
  console.log(`shell baseline (cp + zip -X): ${baselineSeconds.toFixed(2)} s`);

  const coldRatio = coldSeconds / baselineSeconds;
  const rebuildRatio = rebuildSeconds / coldSeconds;
  console.log(`cold build: ${coldRatio.toFixed(2)}x the shell baseline (target <= 1.5x): ${coldRatio <= 1.5 ? 'pass' : 'fail'}`);
  console.log(`rebuild: ${(rebuildRatio * 100).toFixed(1)}% of the cold build (target < 10%): ${rebuildRatio < 0.1 ? 'pass' : 'fail'}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
