/**
 * Synthetic loadouts for the search benchmark: `n` valid loadouts with realistic titles,
 * summaries, stacks, categories and skills drawn from a seeded generator, so every run
 * indexes the same catalogue.
 */
import { random } from './synthetic.js';
import { writeTree } from '../src/tree/write/output.js';
import { buildRecord } from '../src/tree/render/record.js';
import { deriveCapabilities } from '../src/layout/capabilities.js';
import type { PublishedRecord } from '../src/tree-format/index.js';
import type { Manifest } from '../src/catalogue/manifest.js';
import { CATEGORIES, PUBLISHED_AGENTS } from '../src/catalogue/vocabulary.js';
import { SKILL_DIRS, ADAPTER_TARGETS } from '../src/layout/layout.js';
import { searchIndexSourceOf, skillEntriesOf, skillsDocument, SKILLS_PATH, writeSearchIndex } from '../src/search/index-file.js';
import { compileSettings, queryTerms, SEARCH_SETTINGS } from '../src/search/settings.js';
import { summariseVerification } from '../src/verify/verification.js';
import { baseFiles, testManifest, writeLoadout, type TestFile, type TestLoadout } from '../test/helpers/loadouts.js';

const STACKS = [
  'nextjs', 'react', 'vue', 'svelte', 'angular', 'astro', 'remix', 'nuxt', 'solid', 'qwik', 'tailwindcss', 'css', 'typescript', 'javascript', 'nodejs', 'deno', 'bun',
  'python', 'fastapi', 'django', 'flask', 'pydantic', 'pytest', 'rust', 'axum', 'tokio', 'go', 'gin', 'java', 'spring', 'kotlin', 'android', 'swift', 'swiftui',
  'ios', 'flutter', 'dart', 'csharp', 'dotnet', 'unity', 'godot', 'gdscript', 'unreal', 'cpp', 'postgresql', 'mysql', 'sqlite', 'mongodb', 'redis', 'dbt', 'sql',
  'spark', 'airflow', 'kafka', 'docker', 'kubernetes', 'terraform', 'aws', 'gcp', 'azure', 'github-actions', 'gitlab-ci', 'graphql', 'grpc', 'prisma', 'drizzle',
  'langchain', 'llamaindex', 'openai', 'mcp', 'discordjs', 'telegram', 'slack', 'chrome', 'firefox', 'electron', 'tauri', 'owasp', 'semgrep', 'playwright', 'vitest',
];
const NOUNS = ['Service', 'API', 'Starter', 'Toolkit', 'Workflow', 'Guide', 'Playbook', 'Kit', 'Template', 'Conventions', 'Pipeline', 'Bot', 'Extension', 'Game', 'Dashboard', 'Agent'];
const TOPICS = [
  'testing', 'migrations', 'authentication', 'caching', 'observability', 'accessibility', 'performance', 'security review', 'code review', 'deployment', 'refactoring',
  'error handling', 'logging', 'monorepo', 'state management', 'routing', 'forms', 'internationalisation', 'background jobs', 'rate limiting', 'data modelling',
  'documentation', 'release process', 'dependency updates', 'feature flags', 'load testing', 'schema design', 'streaming', 'websockets', 'payments',
];
const DETAILS: ((topic: string, stack: string) => string)[] = [
  (t, _s) => `It covers ${t} end to end: conventions, commands, pitfalls and the checks an agent runs before it says it is done.`,
  (t, s) => `Written by a team that ships ${s} daily, it explains how ${t} fits the project layout.`,
  (t, s) => `The rules keep ${t} consistent across a ${s} codebase and say what to do when a check fails.`,
  (t, s) => `Includes worked examples of ${t} with ${s}, and the commands to verify them locally.`,
  (t, s) => `A short checklist for ${t} reviews in ${s} repositories, with links to the upstream documentation.`,
  (t, s) => `Migrating an older ${s} project? The guide walks through ${t} step by step.`,
];
const SKILLS = ['add-route', 'add-endpoint', 'add-model', 'add-test', 'add-migration', 'add-component', 'add-scene', 'add-tool', 'write-adr', 'triage-bug', 'review-pr', 'add-job'];

const titleCase = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `n` synthetic loadouts (authoring form and file texts). */
export function syntheticLoadouts(n: number, seed = 42): TestLoadout[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const loadouts: TestLoadout[] = [];
  for (let i = 0; i < n; i++) {
    const stacks = [...new Set([pick(STACKS), pick(STACKS), pick(STACKS)])].slice(0, 1 + Math.floor(next() * 3));
    const topic = pick(TOPICS);
    const noun = pick(NOUNS);
    const id = `${stacks[0]}-${topic.replace(/\s+/gu, '-')}-${i}`;
    const title = `${titleCase(stacks[0] ?? 'x')} ${titleCase(topic)} ${noun}`.slice(0, 60);
    const summary = `Instructions, rules and checks for ${topic} in ${stacks.join(', ')} projects, with a definition of done.`.slice(0, 200);
    const files: TestFile[] = baseFiles(title, `# ${title}\n\n${summary}\n\nRun the tests before you commit.\n`);
    if (next() < 0.4) {
      const skill = pick(SKILLS);
      files.push({ path: `skills/${skill}/SKILL.md`, role: 'skill', skill, description: `Procedure to ${skill.replace('-', ' ')} in a ${stacks[0]} project.`, content: `---\nname: ${skill}\ndescription: Procedure to ${skill.replace('-', ' ')}.\n---\n\n# ${skill}\n\nSteps.\n` });
    }
    loadouts.push({
      id,
      title,
      files,
      manifest: {
        summary,
        description: `${summary} ${pick(DETAILS)(topic, stacks[0] ?? '')} ${pick(DETAILS)(pick(TOPICS), pick(STACKS))}`,
        highlights: [`${titleCase(topic)} done the ${stacks[0]} way`, `Works with ${stacks.join(' and ')}`],
        stacks,
        categories: [pick(CATEGORIES)],
        featured: next() < 0.02,
        deprecated: next() < 0.03,
        updated: `2026-${String(1 + Math.floor(next() * 11)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`,
      },
    });
  }
  return loadouts;
}

/** Writes the loadouts under `<root>/loadouts/`, for a full `loadout build`. */
export function writeSyntheticCatalogue(root: string, loadouts: readonly TestLoadout[]): void {
  for (const spec of loadouts) writeLoadout(root, spec);
}

/** The published record of one synthetic loadout, as `loadout build` makes it (without the ten checks, which all pass). */
export function syntheticRecord(spec: TestLoadout, baseUrl: string): PublishedRecord {
  const files = spec.files ?? [];
  const manifest = testManifest({ ...spec, files }) as unknown as Manifest;
  const texts = new Map(files.map((f) => [f.path, f.content]));
  return buildRecord({ baseUrl, manifest, texts, verification: SYNTHETIC_VERIFICATION, published: '2026-01-01', updated: undefined, capabilities: deriveCapabilities({ files: manifest.files, text: (p) => texts.get(p) }) });
}

const SYNTHETIC_VERIFICATION = summariseVerification([], { checkedAt: new Date('2026-11-22T00:00:00Z'), commit: 'synthetic', contentCurrent: true });

/**
 * Writes what `loadout serve` reads for search, MCP and static records (records, versions,
 * agents, tags, the search index and its binary form), through the build's own `buildRecord`
 * and `writeSearchIndex` but without the ten checks, zips and pages, which take about 90 ms a
 * loadout here and are measured by the build benchmark instead. Returns the ids.
 */
export async function writeSyntheticTree(out: string, loadouts: readonly TestLoadout[], baseUrl: string): Promise<string[]> {
  await writeTree(out, async (tree) => {
    const summaries: PublishedRecord[] = [];
    const counts = { stacks: new Map<string, number>(), categories: new Map<string, number>() };
    for (const spec of loadouts) {
      const record = syntheticRecord(spec, baseUrl);
      await tree.writeJson(`api/loadouts/${record.id}.json`, record);
      const versionFiles = record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes, raw_url: f.raw_url }));
      await tree.writeJson(`api/loadouts/${record.id}/versions.json`, { id: record.id, latest: record.version, versions: [{ version: record.version, date: null, commit: null, latest: true, files: versionFiles, checks: SYNTHETIC_VERIFICATION.counts }] });
      for (const f of record.files) await tree.write(`raw/${record.id}/latest/${f.path}`, f.content);
      for (const t of record.stacks) counts.stacks.set(t, (counts.stacks.get(t) ?? 0) + 1);
      for (const t of record.categories) counts.categories.set(t, (counts.categories.get(t) ?? 0) + 1);
      summaries.push({ ...record, files: record.files.map((f) => ({ ...f, content: '' })) });
    }
    const tags = (m: Map<string, number>): { tag: string; count: number }[] => [...m].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
    await tree.writeJson('api/tags.json', { stacks: tags(counts.stacks), categories: tags(counts.categories) });
    await tree.writeJson('api/agents.json', { agents: PUBLISHED_AGENTS.map((id) => ({ id, authoring: id !== 'antigravity-cli', adapter: ADAPTER_TARGETS[id] ?? null, skills_dir: SKILL_DIRS[id], loadouts: summaries.filter((r) => r.compatibility[id] !== 'unsupported').length })) });
    await tree.writeJson('api/loadouts.json', { total: summaries.length, loadouts: [] });
    await writeSearchIndex(tree, searchIndexSourceOf(summaries));
    await tree.write(SKILLS_PATH, skillsDocument(summaries.map((r) => JSON.stringify(skillEntriesOf(r)).slice(1, -1))));
  });
  return loadouts.map((l) => l.id);
}

/** Realistic queries against the synthetic catalogue: words, prefixes, typos, filters. */
export const BENCH_QUERIES: string[] = [
  'q=nextjs', 'q=nexjs', 'q=fastapi%20testing', 'q=fastap', 'q=tail', 'q=python%20migrations', 'q=react%20state%20management', 'q=godot%20game', 'q=kubernetes%20deployment',
  'q=rust%20axum%20api', 'q=securty%20review', 'q=postgres', 'q=authentication&agent=cursor', 'q=testing&tags=typescript', 'q=&category=gamedev', 'q=&limit=20',
  'q=caching&has=skills', 'q=terraform%20aws', 'q=discord%20bot', 'q=chrome%20extension', 'q=obsrvability', 'q=go%20gin&verified=true', 'q=vue%20forms', 'q=llm%20agent',
];

/**
 * `count` different searches, as people type them: a stack and a topic word, often a third
 * word (a noun, another topic word or stack), in a seeded random order. One in eight has a
 * letter dropped from one word (a typo: fuzzy matching), one in eight ends in a word still
 * being typed (a prefix). No two are the same after the engine's term processing (case,
 * stop words), so none can be answered from the server's cache. `seed` gives disjoint-enough
 * sequences for separate runs; callers that need disjoint sets slice one sequence.
 */
export function allDifferentQueries(count: number, seed = 7): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const topicWords = [...new Set(TOPICS.flatMap((t) => t.split(' ')))];
  const thirds = [...NOUNS.map((n) => n.toLowerCase()), ...topicWords, ...STACKS];
  const compiled = compileSettings(SEARCH_SETTINGS);
  const seen = new Set<string>();
  const queries: string[] = [];
  for (let tries = 0; queries.length < count && tries < count * 20; tries++) {
    const words = [pick(STACKS), pick(topicWords)];
    if (next() < 0.75) words.push(pick(thirds));
    const roll = next();
    const at = Math.floor(next() * words.length);
    const word = words[at] as string;
    if (roll < 0.125 && word.length >= 5) {
      const cut = 1 + Math.floor(next() * (word.length - 2));
      words[at] = word.slice(0, cut) + word.slice(cut + 1);
    } else if (roll < 0.25) {
      const last = words[words.length - 1] as string;
      if (last.length >= 4) words[words.length - 1] = last.slice(0, 2 + Math.floor(next() * (last.length - 2)));
    }
    const q = words.join(' ');
    const key = queryTerms(compiled, q).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    queries.push(q);
  }
  if (queries.length < count) throw new Error(`only ${queries.length} different searches could be made (asked for ${count})`);
  return queries;
}
