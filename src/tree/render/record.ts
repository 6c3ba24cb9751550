/**
 * The published record (spec "Loadout record (published form)"): the authoring fields with
 * their defaults filled, plus credits, counts, addresses, verification, install instructions
 * for the six agents, and per file its addresses, size, language, sha256 and content. The
 * shapes are the tree format's (`tree-format/record.ts`); this module fills them.
 */
import { resolveCompatibility } from '../../layout/compatibility.js';
import type { Manifest } from '../../catalogue/manifest.js';
import { PUBLISHED_AGENTS, type Agent } from '../../catalogue/vocabulary.js';
import { measureContextForAgents } from '../../layout/context-cost.js';
import { readMcpServers } from '../../layout/mcp-formats.js';
import { layoutInstall, type InstalledFiles } from '../../layout/installed-files.js';
import type { Verification } from '../../tree-format/verification.js';
import type { Capabilities } from '../../tree-format/capabilities.js';
import { securityVerdict } from '../../verify/verification.js';
import { agentZipUrl, installedUrl, languageOf, pageUrl, rawUrl, recordUrl, sha256, sourceZipUrl, type InstallEntry, type PublishedFileEntry, type PublishedRecord } from '../../tree-format/index.js';

/** Everything {@link buildRecord} needs. Texts are the decoded files of this version. */
export interface RecordInput {
  baseUrl: string;
  manifest: Manifest;
  texts: ReadonlyMap<string, string>;
  verification: Verification;
  /** First and last change dates (`YYYY-MM-DD`) from git, used when the manifest has none. */
  published: string | undefined;
  updated: string | undefined;
  /** What the version lets the agent run and reach: the check run's (`verify/capabilities.ts`). */
  capabilities: Capabilities;
}

/** Hex sha256 of a string's UTF-8 bytes or of raw bytes (the tree format's digest). */
export { sha256 };

/**
 * Each agent's install of the version (`layout/installed-files.ts`): the plan and every
 * planned file's text as written, links pointing at the version's pinned raw addresses under
 * `base`. The record's `install` hashes and the per-agent zips are made from it. `known`: the
 * layouts already made of the same texts with the same addresses (the build's checks,
 * verify/run.ts `RunChecksOptions.installs`), taken as they are.
 */
export function layoutForAgents(base: string, manifest: Manifest, texts: ReadonlyMap<string, string>, known?: ReadonlyMap<Agent, InstalledFiles>): Record<Agent, InstalledFiles> {
  const loadout = { id: manifest.id, version: manifest.version, files: manifest.files, text: (p: string) => texts.get(p), rawUrl: (p: string) => rawUrl(base, manifest.id, manifest.version, p) };
  return Object.fromEntries(PUBLISHED_AGENTS.map((agent) => [agent, known?.get(agent) ?? layoutInstall(loadout, agent)])) as Record<Agent, InstalledFiles>;
}

/**
 * Builds the published record. Pure: no I/O.
 * @throws Error when a declared file has no text in `texts` (the caller builds only loadouts
 *   whose `listing` and `parse` checks pass).
 */
export function buildRecord(input: RecordInput, installs: Record<Agent, InstalledFiles> = layoutForAgents(input.baseUrl, input.manifest, input.texts)): PublishedRecord {
  const { baseUrl: base, manifest: m, texts, verification } = input;
  const textOf = (path: string): string => {
    const text = texts.get(path);
    if (text === undefined) throw new Error(`internal error: ${m.id}/${path} has no text`);
    return text;
  };
  const files: PublishedFileEntry[] = m.files.map((f) => {
    const content = textOf(f.path);
    const entry: PublishedFileEntry = {
      path: f.path,
      role: f.role,
      description: f.description,
      agent: f.agent ?? null,
      skill: f.skill ?? null,
      raw_url: rawUrl(base, m.id, m.version, f.path),
      raw_latest_url: rawUrl(base, m.id, 'latest', f.path),
      bytes: Buffer.byteLength(content, 'utf8'),
      lang: languageOf(f.path),
      sha256: sha256(content),
      content,
    };
    return f.install_to === undefined ? entry : { ...entry, install_to: f.install_to };
  });

  // Each agent's install files are hashed as installed; most are the file's own bytes, and a
  // translated rule is often the same for several agents: each distinct text is hashed once.
  const digests = new Map(files.map((f) => [f.content, f.sha256]));
  const digestOf = (text: string): string => {
    let digest = digests.get(text);
    if (digest === undefined) {
      digest = sha256(text);
      digests.set(text, digest);
    }
    return digest;
  };
  const install = Object.fromEntries(
    PUBLISHED_AGENTS.map((agent) => {
      const installed = installs[agent];
      const plan = installed.plan;
      const value: InstallEntry = {
        // Each file as the agent reads it (rules translated and composed, links rewritten): the bytes the zip and `loadout install` write.
        // Each at its own address (issue 57 point 11), so that `raw_url` serves what `sha256` names.
        files: plan.files.map(({ entry, target }) => ({
          path: entry.path,
          target,
          raw_url: installedUrl(base, m.id, m.version, agent, target),
          raw_latest_url: installedUrl(base, m.id, 'latest', agent, target),
          role: entry.role,
          sha256: digestOf(installed.text(entry.path, target) ?? textOf(entry.path)),
        })),
        manual_steps: plan.manual_steps,
        zip_url: agentZipUrl(base, m.id, agent),
      };
      return [agent, value];
    }),
  ) as Record<Agent, InstallEntry>;

  // flagged when the safety check fails or has notices, clean when it has neither (spec "Security":
  // `verdict`).
  const verdict = securityVerdict(verification.checks);
  const security = {
    ...m.security,
    ...(verdict === undefined ? {} : { scanned: true, scanner: 'loadout verify (safety check)', verdict }),
    scripts: m.security.scripts ?? [],
  };

  const { files: _files, compatibility: _c, tested: _t, requires: _r, security: _s, ...rest } = m;
  const published = m.published ?? input.published;
  const updated = m.updated ?? input.updated;
  return {
    ...rest,
    ...(published === undefined ? {} : { published }),
    ...(updated === undefined ? {} : { updated }),
    files,
    compatibility: resolveCompatibility(m),
    requires: { tools: m.requires?.tools ?? [], env: m.requires?.env ?? [], mcp: m.requires?.mcp ?? [] },
    tested: { ...m.tested, per_agent: Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, (m.tested.per_agent as Partial<Record<Agent, 'pass' | 'fail' | 'untested'>> | undefined)?.[a] ?? 'untested'])) as Record<Agent, 'pass' | 'fail' | 'untested'> },
    security,
    featured: m.featured ?? false,
    deprecated: m.deprecated ?? false,
    credits: credits(m),
    counts: countContents(m, texts),
    url: pageUrl(base, m.id),
    api_url: recordUrl(base, m.id),
    source_zip_url: sourceZipUrl(base, m.id),
    verification,
    install,
    context: measureContextForAgents(m.files, (p) => texts.get(p)),
    capabilities: input.capabilities,
  };
}

/** `counts`: rule files, distinct skills, MCP servers declared (DESIGN.md section 3). */
export function countContents(m: Manifest, texts: ReadonlyMap<string, string>): { rules: number; skills: number; mcp: number } {
  let mcp = 0;
  for (const f of m.files) {
    if (f.role !== 'mcp') continue;
    try {
      mcp += Object.keys(readMcpServers(JSON.parse(texts.get(f.path) ?? '')) ?? {}).length;
    } catch {
      // A file that does not parse declares no servers; the parse check reports it.
    }
  }
  return {
    rules: m.files.filter((f) => f.role === 'rules').length,
    skills: new Set(m.files.filter((f) => f.role === 'skill' || f.role === 'reference').map((f) => f.skill)).size,
    mcp,
  };
}

/** `credits`: the author (when they have an address) and the source repository. */
function credits(m: Manifest): { title: string; url: string }[] {
  const list: { title: string; url: string }[] = [];
  const authorUrl = m.author.url ?? (m.author.github === undefined ? undefined : `https://github.com/${m.author.github}`);
  if (authorUrl !== undefined) list.push({ title: m.author.name, url: authorUrl });
  if (m.source !== undefined) list.push({ title: m.source.path === undefined ? 'Source' : `Source: ${m.source.path}`, url: m.source.repo });
  return list;
}
