/**
 * Everything the static tree holds for one loadout: its record, raw files for every version
 * and `latest`, the six per-agent zips and the source zip, its page and `versions.json`.
 * All of it lives below paths named by the loadout id (store.ts `loadoutOutputPaths`), which
 * is what lets the build write it once as an entry of the store and link trees to it.
 */
import { describePathProblem } from '../../catalogue/file-path.js';
import { MANIFEST_FILE, type FileEntry, type Manifest } from '../../catalogue/manifest.js';
import { decodeUtf8, type LoadoutSource } from '../../catalogue/source.js';
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { measureContextForAgents } from '../../layout/context-cost.js';
import { runChecks, type CheckRun } from '../../verify/run.js';
import { summariseVerification } from '../../verify/verification.js';
import { installedTreeFolder, installedTreePath, rawTreeFolder, rawTreePath, rawUrl } from '../../tree-format/addresses.js';
import type { HistoricVersionData, LoadoutHistoryData } from '../history/history.js';
import type { OutputTree } from '../write/tree-files.js';
import { renderLoadoutPage } from '../../pages/loadout.js';
import { buildRecord, layoutForAgents, sha256 } from './record.js';
import type { InstalledFiles } from '../../layout/installed-files.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import type { CliRoute, PublishedRecord } from '../../tree-format/index.js';
import type { BundleMention } from '../../tree-format/bundle.js';
import type { VersionEntry, VersionFile } from '../../tree-format/versions.js';
import { writeZip, ZipContents } from './zip.js';
import type { Capabilities } from '../../tree-format/capabilities.js';
import { deriveCapabilities } from '../../layout/capabilities.js';
import { writePlugin, type PluginListing, type PluginVersion } from './plugins.js';
import { pluginPageView } from './plugin-page.js';

export type { VersionEntry, VersionFile, VersionsDocument } from '../../tree-format/versions.js';

/** The manifest part of a {@link VersionFile}. */
function entryFields(entry: FileEntry | undefined): Pick<VersionFile, 'role' | 'agent' | 'skill' | 'install_to'> {
  if (entry === undefined) return { role: null, agent: null, skill: null };
  const fields = { role: entry.role, agent: entry.agent ?? null, skill: entry.skill ?? null };
  return entry.install_to === undefined ? fields : { ...fields, install_to: entry.install_to };
}

/** What {@link writeLoadoutOutputs} needs besides the tree. */
export interface LoadoutOutputInput {
  base: string;
  /** A check run whose checks all passed (so `manifest` is set). */
  run: CheckRun;
  /**
   * The layouts `run`'s checks made with this build's raw addresses under `base`
   * (verify/run.ts `RunChecksOptions.installs`), which the record takes instead of making them again.
   */
  installs?: ReadonlyMap<Agent, InstalledFiles> | undefined;
  /** Its history, with the files of every earlier version read (history.ts). */
  history: LoadoutHistoryData;
  /** `verification.commit`. */
  commit: string;
  checkedAt: Date;
  /** How the page's install commands run the consumer CLI (pages/loadout-install.ts). */
  route?: CliRoute | undefined;
  /** Write the loadout's native plugin too (plugins.ts): its folder and a zip per version. */
  plugins: boolean;
  /** The bundles that name the loadout, which its page lists (bundles.ts `bundleMentionsOf`). */
  bundles?: readonly BundleMention[];
}

/**
 * Writes every output of one loadout. Returns its record, the versions published, and the
 * contents its zips compressed (zip.ts `ZipContents`: its skills' discovery zips hold the same files).
 * Writes run concurrently; the order of files in the tree does not matter.
 */
export async function writeLoadoutOutputs(tree: OutputTree, input: LoadoutOutputInput): Promise<{ record: PublishedRecord; versions: VersionEntry[]; warnings: string[]; plugin: PluginListing | undefined; contents: ZipContents }> {
  const { base, run, history } = input;
  const manifest = run.manifest as Manifest;
  const verification = summariseVerification(run.results, { checkedAt: input.checkedAt, commit: input.commit, contentCurrent: true });
  const texts = decodeAll(run.source);
  const installs = layoutForAgents(base, manifest, texts, input.installs);
  const record = buildRecord({ baseUrl: base, manifest, texts, verification, published: history.published, updated: history.updated, capabilities: capabilitiesOf(run) }, installs);
  const warnings: string[] = [];
  const versions = await Promise.all(history.versions.map((old) => writeHistoricVersion(tree, base, manifest.id, old, warnings, input.plugins)));
  const contents = new ZipContents();
  const { entry: current, plugin } = await writeCurrentVersion(tree, base, run, record, history, installs, input.plugins, contents);
  const published = [...versions.filter((v): v is VersionEntry => v !== undefined), current];
  const versionsDocument = { id: manifest.id, latest: manifest.version, versions: published };
  await tree.writeJson(`api/loadouts/${manifest.id}/versions.json`, versionsDocument);
  // The page shows the version history, so it is written once versions.json is known.
  const plugins = input.plugins ? pluginPageView(base, manifest, publishedFiles(manifest, new Map(record.files.map((f) => [f.path, f.content]))), input.route) : undefined;
  await tree.write(`loadouts/${manifest.id}/index.html`, renderLoadoutPage(base, record, versionsDocument, input.route, plugins, input.bundles));
  return { record, versions: published, warnings, plugin, contents };
}

/** The run's capability list (`verify/capabilities.ts`); for a run whose manifest did not validate, the list of a loadout of no files. */
function capabilitiesOf(run: CheckRun): Capabilities {
  return run.capabilities ?? deriveCapabilities({ files: [], text: () => undefined });
}

const decodeText = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : decodeUtf8(bytes));

function decodeAll(source: LoadoutSource): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [path, bytes] of source.files) {
    const text = decodeUtf8(bytes);
    if (text !== undefined) texts.set(path, text);
  }
  return texts;
}

async function writeCurrentVersion(tree: OutputTree, base: string, run: CheckRun, record: PublishedRecord, history: LoadoutHistoryData, installs: Record<Agent, InstalledFiles>, plugins: boolean, contents: ZipContents): Promise<{ entry: VersionEntry; plugin: PluginListing | undefined }> {
  const { id, version } = record;
  const manifest = run.manifest as Manifest;
  const texts = new Map(record.files.map((f) => [f.path, f.content]));
  const writes: Promise<void>[] = [tree.writeJson(`api/loadouts/${id}.json`, record)];
  for (const file of record.files) writes.push(tree.write(rawTreePath(id, version, file.path), file.content));
  // `latest` holds the same files as the version it follows.
  writes.push(tree.linkFolder(rawTreeFolder(id, 'latest'), rawTreeFolder(id, version)));
  // The zips hold the same files under other names: each is compressed once (`contents`).
  // The record's install entries are the install plans (record.ts), resolved once.
  // Each file as the agent reads it (layout/installed-files.ts), as the record hashes it and `loadout install` writes it.
  const installedText = (agent: Agent, path: string, target: string): string => installs[agent].text(path, target) ?? texts.get(path) ?? '';
  for (const agent of PUBLISHED_AGENTS) {
    writes.push(tree.write(`download/${id}/${agent}.zip`, writeZip(record.install[agent].files.map(({ path, target }) => ({ path: target, data: installedText(agent, path, target) })), contents)));
  }
  const sourceEntries = [{ path: `${id}/${MANIFEST_FILE}`, data: run.source.manifestText ?? '' }, ...record.files.map((f) => ({ path: `${id}/${f.path}`, data: f.content }))];
  writes.push(tree.write(`download/${id}/source.zip`, writeZip(sourceEntries, contents)));
  await Promise.all(writes);
  // After the raw files, which the installed files the install leaves as they are link to.
  await writeInstalledFiles(tree, record, installedText);
  // After the raw files: the plugin folder links to them.
  const plugin = plugins ? await writePlugin(tree, { base, manifest, files: publishedFiles(manifest, texts), capabilities: record.capabilities }, { folder: true, contents }) : undefined;
  const entry: VersionEntry = {
    version,
    date: history.currentSince ?? null,
    commit: record.verification.commit,
    latest: true,
    files: record.files.map((f) => ({ path: f.path, ...entryFields(manifest.files.find((e) => e.path === f.path)), sha256: f.sha256, bytes: f.bytes, raw_url: f.raw_url })),
    checks: record.verification.counts,
    changes: history.currentChanges,
    context: record.context,
    capabilities: record.capabilities,
    requires: record.requires,
  };
  return { entry, plugin };
}

/**
 * Writes the version's files as installed for each agent at their addresses
 * (`raw/<id>/installed/<version>/<agent>/<target>`, tree-format `installedTreePath`; issue 57
 * point 11), and `installed/latest` as a link to the version's folder, as the raw `latest` is.
 * A text equal to the author's file or to one written for another agent is a hard link to it:
 * most files are installed as they are, and five agents share `.agents/skills/`.
 */
async function writeInstalledFiles(tree: OutputTree, record: PublishedRecord, installedText: (agent: Agent, path: string, target: string) => string): Promise<void> {
  const { id, version } = record;
  const written = new Map<string, string>(record.files.map((f) => [f.content, rawTreePath(id, version, f.path)]));
  const writes: Promise<void>[] = [];
  const links: [string, string][] = [];
  for (const agent of PUBLISHED_AGENTS) {
    for (const { path, target } of record.install[agent].files) {
      const at = installedTreePath(id, version, agent, target);
      const text = installedText(agent, path, target);
      const existing = written.get(text);
      if (existing !== undefined) links.push([at, existing]);
      else {
        written.set(text, at);
        writes.push(tree.write(at, text));
      }
    }
  }
  await Promise.all(writes);
  await Promise.all(links.map(([at, existing]) => tree.link(at, existing)));
  await tree.linkFolder(installedTreeFolder(id, 'latest'), installedTreeFolder(id, version));
}

/** The manifest's files that `texts` holds (those published), with their text, in manifest order. */
function publishedFiles(manifest: Manifest, texts: ReadonlyMap<string, string | undefined>): PluginVersion['files'] {
  const files: { entry: FileEntry; content: string }[] = [];
  for (const entry of manifest.files) {
    const content = texts.get(entry.path);
    if (content !== undefined) files.push({ entry, content });
  }
  return files;
}

/**
 * An older version: its raw files (declared ones that exist, with paths that pass the rule of
 * `files[].path`) and its entry in versions.json. A file whose path fails the rule is left
 * out with a warning naming the commit.
 */
async function writeHistoricVersion(tree: OutputTree, base: string, id: string, old: HistoricVersionData, warnings: string[], plugins: boolean): Promise<VersionEntry | undefined> {
  const snapshot = old.snapshot;
  if (snapshot === undefined) return undefined;
  const source: LoadoutSource = { id, displayDir: `loadouts/${id}@${old.version}`, manifestText: snapshot.manifestText, files: snapshot.files, irregular: [] };
  const run = await runChecks(source);
  const entries = new Map((run.manifest?.files ?? []).map((f) => [f.path, f]));
  const declared = run.manifest === undefined ? [...snapshot.files.keys()] : [...entries.keys()];
  const files: VersionFile[] = [];
  const writes: Promise<void>[] = [];
  for (const path of declared) {
    const bytes = snapshot.files.get(path);
    if (bytes === undefined) continue;
    const problem = describePathProblem(path);
    if (problem !== undefined) {
      warnings.push(`loadouts/${id}: file ${JSON.stringify(path)} of version ${old.version} (commit ${old.commit}) ${problem}: not published`);
      continue;
    }
    writes.push(tree.write(rawTreePath(id, old.version, path), bytes));
    files.push({ path, ...entryFields(entries.get(path)), sha256: sha256(bytes), bytes: bytes.byteLength, raw_url: rawUrl(base, id, old.version, path) });
  }
  await Promise.all(writes);
  // Its plugin's zip, when its manifest read (checks aside: the version is published as it was).
  if (plugins && run.manifest !== undefined && run.manifest.id === id && run.manifest.version === old.version) {
    const texts = new Map(files.map((f) => [f.path, decodeText(snapshot.files.get(f.path))]));
    // Published as it was: a plugin whose files clash (its checks failed, or ran before the plugin was checked) is left out, not the build.
    const onClash = (clashes: readonly { message: string }[]): void => void warnings.push(`loadouts/${id}: the plugin of version ${old.version} (commit ${old.commit}) is not published: ${clashes.map((c) => c.message).join('; ')}`);
    await writePlugin(tree, { base, manifest: run.manifest, files: publishedFiles(run.manifest, texts), capabilities: run.capabilities }, { folder: false, onClash });
  }
  const counts = summariseVerification(run.results, { checkedAt: new Date(0), commit: old.commit, contentCurrent: true }).counts;
  const published = new Set(files.map((f) => f.path));
  const context = measureContextForAgents(run.manifest?.files.filter((f) => published.has(f.path)) ?? [], (p) => decodeText(snapshot.files.get(p)));
  // A version whose manifest did not read has no file entries to derive from: it runs nothing that can be told.
  const requires = run.manifest?.requires;
  return { version: old.version, date: old.date, commit: old.commit, latest: false, files, checks: counts, changes: old.changes, context, capabilities: capabilitiesOf(run), requires: { tools: requires?.tools ?? [], env: requires?.env ?? [], mcp: requires?.mcp ?? [] } };
}
