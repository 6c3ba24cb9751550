/**
 * `loadout build`: checks every loadout and writes the static API tree (DESIGN.md sections
 * 1, 3 and 5): records, raw files for every version and `latest`, six per-agent zips and a
 * source zip per loadout, the list, tag and agent documents, the description document, the
 * authoring schema and the pages. A loadout that fails a check refuses the whole build, and
 * `out` is then left untouched.
 */
import { MANIFEST_FILE, type Manifest } from '../catalogue/manifest.js';
import { readAuthoringSchema } from '../catalogue/schema.js';
import { decodeUtf8, listLoadoutIds, readLoadoutSource, type LoadoutSource } from '../catalogue/source.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { resolveInstallPlan } from '../install/plan.js';
import { SKILL_DIRS, ADAPTER_TARGETS } from '../install/layout.js';
import { loadoutsDirOf, passed } from '../verify/catalogue.js';
import { runChecks, type CheckRun } from '../verify/run.js';
import { summariseVerification } from '../verify/verification.js';
import { normaliseBaseUrl, rawUrl, schemaUrl } from './addresses.js';
import { describeApi } from './description.js';
import { openHistory, type HistoricVersion } from './history.js';
import { writeTreeAtomically, type OutputTree } from './output.js';
import { renderDocsPage, renderIndexPage, renderLoadoutPage } from './pages.js';
import { buildRecord, sha256, type PublishedRecord } from './record.js';
import { writeZip } from './zip.js';
import { writeSearchIndex } from '../search/index-file.js';
import { join } from 'node:path';

/** Options of {@link buildCatalogue}. */
export interface BuildOptions {
  /** Catalogue root (holds `loadouts/`). */
  root: string;
  /** Output folder, e.g. `dist`. */
  out: string;
  /** `{base_url}` of the published addresses, e.g. `http://localhost:8787`. */
  baseUrl: string;
  /** Time stamped into `verification.checked_at`; default now. */
  now?: Date;
  /** Called after each loadout is written (for progress on a TTY). */
  onProgress?: (done: number, total: number, id: string) => void;
}

/** What a build did. */
export interface BuildResult {
  /** True when the tree was written. */
  written: boolean;
  /** The check runs of every loadout (refused ones have a failing check). */
  runs: CheckRun[];
  /** Ids of the loadouts that failed a check; non-empty means nothing was written. */
  refused: string[];
  /** Loadouts built, with the versions published for each. */
  loadouts: { id: string; version: string; versions: string[] }[];
  /** Non-fatal notes (e.g. not a git repository). */
  warnings: string[];
  /** Bytes written. */
  bytes: number;
}

/** One entry of `api/loadouts/<id>/versions.json`. */
export interface VersionEntry {
  version: string;
  /** `YYYY-MM-DD` the version was first committed; null for a version not committed yet. */
  date: string | null;
  commit: string | null;
  latest: boolean;
  files: { path: string; sha256: string; bytes: number; raw_url: string }[];
  checks: { pass: number; fail: number; skip: number; not_applicable: number };
}

/**
 * Builds the catalogue at `options.root` into `options.out`.
 * @throws LoadoutError `not_found` when there is no `loadouts/` folder, `git` when git fails.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const base = normaliseBaseUrl(options.baseUrl);
  const loadoutsDir = loadoutsDirOf(options.root);
  const now = options.now ?? new Date();
  const ids = await listLoadoutIds(loadoutsDir);
  const fixturesDir = join(options.root, 'fixtures');
  const runs: CheckRun[] = [];
  for (const id of ids) {
    const source = await readLoadoutSource(loadoutsDir, id);
    runs.push(await runChecks(source, { fixturesDir }));
  }
  const refused = runs.filter((r) => !passed(r)).map((r) => r.source.id);
  const result: BuildResult = { written: false, runs, refused, loadouts: [], warnings: [], bytes: 0 };
  if (refused.length > 0) return result;

  const history = await openHistory(loadoutsDir);
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');
  try {
    result.bytes = await writeTreeAtomically(options.out, async (tree) => {
      // Kept for the catalogue documents, without file contents, so memory stays flat in the catalogue's size.
      const records: PublishedRecord[] = [];
      for (const [index, run] of runs.entries()) {
        const manifest = run.manifest as Manifest;
        const id = manifest.id;
        const loadoutHistory = await history.historyOf(id, manifest.version);
        const commit = history.head === undefined ? 'working-tree' : `${history.head}${history.dirty.has(id) ? '+dirty' : ''}`;
        const verification = summariseVerification(run.results, { checkedAt: now, commit, contentCurrent: true });
        const texts = decodeAll(run.source);
        const record = buildRecord({ baseUrl: base, manifest, texts, verification, published: loadoutHistory.published, updated: loadoutHistory.updated });
        records.push({ ...record, files: record.files.map((f) => ({ ...f, content: '' })) });
        const versions: VersionEntry[] = [];
        for (const old of loadoutHistory.versions) versions.push(await writeHistoricVersion(tree, base, id, old));
        versions.push(await writeCurrentVersion(tree, base, run, record, loadoutHistory.currentSince));
        await tree.writeJson(`api/loadouts/${id}/versions.json`, { id, latest: manifest.version, versions });
        result.loadouts.push({ id, version: manifest.version, versions: versions.map((v) => v.version) });
        options.onProgress?.(index + 1, runs.length, id);
      }
      await writeCatalogueDocuments(tree, base, records);
      return tree.bytes;
    });
  } finally {
    history.close();
  }
  result.written = true;
  return result;
}

function decodeAll(source: LoadoutSource): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [path, bytes] of source.files) {
    const text = decodeUtf8(bytes);
    if (text !== undefined) texts.set(path, text);
  }
  return texts;
}

async function writeCurrentVersion(tree: OutputTree, base: string, run: CheckRun, record: PublishedRecord, since: string | undefined): Promise<VersionEntry> {
  const { id, version } = record;
  await tree.writeJson(`api/loadouts/${id}.json`, record);
  for (const file of record.files) {
    await tree.write(`raw/${id}/${version}/${file.path}`, file.content);
    await tree.write(`raw/${id}/latest/${file.path}`, file.content);
  }
  const manifest = run.manifest as Manifest;
  const texts = new Map(record.files.map((f) => [f.path, f.content]));
  for (const agent of PUBLISHED_AGENTS) {
    const plan = resolveInstallPlan(manifest.files, agent, (p) => texts.get(p));
    await tree.write(`download/${id}/${agent}.zip`, await writeZip(plan.files.map(({ entry, target }) => ({ path: target, data: texts.get(entry.path) ?? '' }))));
  }
  const sourceEntries = [{ path: `${id}/${MANIFEST_FILE}`, data: run.source.manifestText ?? '' }, ...record.files.map((f) => ({ path: `${id}/${f.path}`, data: f.content }))];
  await tree.write(`download/${id}/source.zip`, await writeZip(sourceEntries));
  await tree.write(`loadouts/${id}/index.html`, renderLoadoutPage(base, record));
  return {
    version,
    date: since ?? null,
    commit: record.verification.commit,
    latest: true,
    files: record.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes, raw_url: f.raw_url })),
    checks: record.verification.counts,
  };
}

/** An older version: its raw files (declared ones that exist) and its entry in versions.json. */
async function writeHistoricVersion(tree: OutputTree, base: string, id: string, old: HistoricVersion): Promise<VersionEntry> {
  const source: LoadoutSource = { id, displayDir: `loadouts/${id}@${old.version}`, manifestText: old.manifestText, files: old.files, irregular: [] };
  const run = await runChecks(source);
  const declared = run.manifest?.files.map((f) => f.path) ?? [...old.files.keys()];
  const files: VersionEntry['files'] = [];
  for (const path of declared) {
    const bytes = old.files.get(path);
    if (bytes === undefined) continue;
    await tree.write(`raw/${id}/${old.version}/${path}`, bytes);
    files.push({ path, sha256: sha256(bytes), bytes: bytes.byteLength, raw_url: rawUrl(base, id, old.version, path) });
  }
  const counts = summariseVerification(run.results, { checkedAt: new Date(0), commit: old.commit, contentCurrent: true }).counts;
  return { version: old.version, date: old.date, commit: old.commit, latest: false, files, checks: counts };
}

/** The list, tags, agents, description and schema documents, and the home and docs pages. */
async function writeCatalogueDocuments(tree: OutputTree, base: string, records: PublishedRecord[]): Promise<void> {
  const summaries = records.map((r) => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    version: r.version,
    categories: r.categories,
    stacks: r.stacks,
    compatibility: r.compatibility,
    counts: r.counts,
    verified: r.verification.verified,
    featured: r.featured,
    deprecated: r.deprecated,
    updated: r.updated ?? null,
    url: r.url,
    api_url: r.api_url,
  }));
  await tree.writeJson('api/loadouts.json', { total: summaries.length, loadouts: summaries });
  await tree.writeJson('api/tags.json', { stacks: countTags(records.flatMap((r) => r.stacks)), categories: countTags(records.flatMap((r) => r.categories)) });
  await tree.writeJson('api/agents.json', {
    agents: PUBLISHED_AGENTS.map((agent) => ({
      id: agent,
      authoring: agent !== 'antigravity-cli',
      adapter: ADAPTER_TARGETS[agent] ?? null,
      skills_dir: SKILL_DIRS[agent],
      loadouts: records.filter((r) => r.compatibility[agent] !== 'unsupported').length,
    })),
  });
  await tree.writeJson('api/v1/index.json', describeApi(base, false, { database: false, challenge_secret: false, challenge_site_key: false }));
  await tree.writeJson('api/schema.json', { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: schemaUrl(base), ...readAuthoringSchema() });
  await writeSearchIndex(tree, records);
  await tree.write('index.html', renderIndexPage(base, records));
  await tree.write('docs/index.html', renderDocsPage(base));
}

function countTags(values: string[]): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
}
