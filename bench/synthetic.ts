/**
 * Synthetic catalogues for benchmarks: `count` loadouts with realistic sizes (8 files, about
 * 12 KB each: AGENTS.md, two adapters, two rules, a skill with a reference, and an MCP file
 * or a subagent), deterministic for a given seed. Every loadout passes the checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { generateAdapter } from '../src/adapters/generate.js';
import { listFolderEntries } from '../src/catalogue/folder-entries.js';

const WORDS = ('react next vue svelte angular django flask fastapi rails laravel spring express nest ' +
  'postgres mysql sqlite redis kafka docker kubernetes terraform ansible aws gcp azure rust go python ' +
  'typescript java kotlin swift godot unity unreal bevy pandas spark dbt airflow graphql grpc ' +
  'testing linting security review refactor migrate deploy monitor cache queue worker api cli ' +
  'component hook route schema model service controller handler middleware plugin extension bot').split(' ');

/** A small deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(next() * WORDS.length)] ?? 'code');
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraphs(next: () => number, count: number): string {
  return Array.from({ length: count }, () => `- ${sentence(next, 12 + Math.floor(next() * 10))}`).join('\n');
}

/**
 * Writes `<root>/loadouts/<prefix>-<n>/` for n in [0, count). Returns the ids.
 * Bytes per loadout: about 12 KB in 8 files.
 */
export function writeSyntheticCatalogue(root: string, count: number, seed = 1, prefix = 'synthetic'): string[] {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const next = random(seed * 100_003 + n);
    const id = `${prefix}-${n}`;
    const stack = [WORDS[n % WORDS.length] ?? 'react', WORDS[(n * 7 + 3) % WORDS.length] ?? 'node'];
    const title = `${stack[0]} ${stack[1]} kit ${n}`.slice(0, 60);
    const skill = `use-${stack[0]}`;
    const files: { path: string; role: string; agent?: string; skill?: string; content: string }[] = [
      { path: 'AGENTS.md', role: 'instructions', content: `# ${title}\n\n## Commands\n\n${paragraphs(next, 20)}\n\n## Conventions\n\n${paragraphs(next, 20)}\n` },
      { path: 'CLAUDE.md', role: 'adapter', agent: 'claude-code', content: generateAdapter('claude-code', title) },
      { path: 'GEMINI.md', role: 'adapter', agent: 'gemini-cli', content: generateAdapter('gemini-cli', title) },
      { path: 'rules/style.md', role: 'rules', content: `---\ndescription: Style for ${stack[0]}\nglobs: ["src/**/*.ts"]\napplyTo: "src/**/*.ts"\n---\n\n# Style\n\n${paragraphs(next, 12)}\n` },
      { path: 'rules/testing.md', role: 'rules', content: `---\ndescription: Tests for ${stack[1]}\nglobs: ["test/**/*.ts"]\napplyTo: "test/**/*.ts"\n---\n\n# Testing\n\n${paragraphs(next, 12)}\n` },
      { path: `skills/${skill}/SKILL.md`, role: 'skill', skill, content: `---\nname: ${skill}\ndescription: ${sentence(next, 10)}\n---\n\n# ${skill}\n\nRead [the reference](references/guide.md) first.\n\n${paragraphs(next, 12)}\n` },
      { path: `skills/${skill}/references/guide.md`, role: 'reference', skill, content: `# Guide\n\n${paragraphs(next, 15)}\n` },
      n % 2 === 0
        ? { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['server.js'], env: { DOCS_TOKEN: '${DOCS_TOKEN}' } } } }, null, 2)}\n` }
        : { path: 'agents/reviewer.md', role: 'subagent', content: `---\nname: reviewer\ndescription: Reviews ${stack[0]} changes.\n---\n\n${paragraphs(next, 10)}\n` },
    ];
    const manifest = {
      id,
      type: 'loadout',
      title,
      summary: `${sentence(next, 8)} For ${stack.join(' and ')} projects.`.slice(0, 200),
      description: paragraphs(next, 2),
      highlights: [sentence(next, 6), sentence(next, 6)],
      version: '1.0.0',
      license: 'MIT',
      author: { name: 'Bench Author', url: 'https://example.com/bench' },
      categories: [['web-app', 'data', 'workflow', 'gamedev', 'security', 'bots', 'browser-extension', 'ai-agents'][n % 8]],
      stacks: stack,
      files: files.map(({ content: _c, ...f }) => ({ ...f, description: `The ${f.path} file` })),
      requires: { tools: [], env: n % 2 === 0 ? ['DOCS_TOKEN'] : [], mcp: n % 2 === 0 ? ['docs'] : [] },
      tested: { status: 'untested', last_run: null, fixture: null },
      security: { scanned: true, network: false, scripts: [] },
      featured: n % 50 === 0,
      deprecated: n % 97 === 0,
      last_checked: '2026-11-22',
    };
    const dir = join(root, 'loadouts', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'loadout.yaml'), stringify(manifest));
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    ids.push(id);
  }
  return ids;
}

/** The identity the benchmarks commit with. */
export const BENCH_GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com' };

/**
 * Makes `root` (a catalogue written by {@link writeSyntheticCatalogue}) a git repository with
 * one commit of everything, packed as a clone has it, and with git's automatic housekeeping off
 * (`gc.auto 0`). Without that, the commit of 90,000 files at 10,000 loadouts starts `git gc
 * --auto` in the background, whose repack took the machine's two cores for minutes while the
 * benchmark measured its first builds (2026-11-27, seventh session: a cold build of 67 s, where
 * the same code built a packed catalogue in 47 to 50 s).
 *
 * The files go into a pack at once (`git fast-import`), not as a loose object each that `git gc`
 * then packs and deletes: deleting 90,000 files just before the cold build made every file the
 * build created cost more system time on this machine's ext4, which skips recently freed inodes
 * when it picks one (docs/performance.md, tenth session), and a clone holds no loose objects.
 * `git gc` then only repacks that one pack with deltas, as a clone's would be.
 * Returns the seconds the packing took (not measured against a target).
 */
export function commitSyntheticCatalogue(root: string): number {
  const git = (args: string[], input?: Buffer): void => void execFileSync('git', args, { cwd: root, env: BENCH_GIT_ENV, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'inherit'], ...(input === undefined ? {} : { input }) });
  git(['init', '-q', '-b', 'main']);
  git(['config', 'gc.auto', '0']);
  const started = performance.now();
  // git fast-import's stream (git-fast-import(1)): each file a blob with a mark, then one commit naming them all.
  const paths = listFolderEntries(root)
    .filter((entry) => entry.dirent.isFile())
    .map((entry) => entry.path)
    .filter((path) => !path.startsWith('.git/'))
    .sort();
  const stream: Buffer[] = [];
  paths.forEach((path, i) => {
    const data = readFileSync(join(root, path));
    stream.push(Buffer.from(`blob\nmark :${i + 1}\ndata ${data.byteLength}\n`), data, Buffer.from('\n'));
  });
  const message = 'synthetic catalogue\n';
  stream.push(Buffer.from(`commit refs/heads/main\ncommitter b <b@example.com> ${Math.floor(Date.now() / 1000)} +0000\ndata ${Buffer.byteLength(message)}\n${message}`));
  paths.forEach((path, i) => stream.push(Buffer.from(`M 100644 :${i + 1} ${path}\n`)));
  stream.push(Buffer.from('\n'));
  git(['fast-import', '--quiet'], Buffer.concat(stream));
  // The index from the commit; the working tree already holds the same files.
  git(['reset', '-q']);
  git(['gc', '--quiet']);
  return (performance.now() - started) / 1000;
}
