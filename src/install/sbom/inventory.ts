/**
 * What `loadout sbom` describes (issue 55, point 3), in neither format: every loadout the lock
 * records, with its version, the catalogue it came from, its licence and the hashes of the files
 * it holds, and every package its MCP servers start, pinned or not. `cyclonedx.ts` and `spdx.ts`
 * write it. Reads the lock and the project through the scope's one handle (as `status`), and each
 * catalogue only for the licences (`record-licence.ts`); writes nothing.
 *
 * One loadout entry per loadout, version and catalogue: the lock's installs of it for several
 * agents are one piece of software installed for each (its `agents`); a file two of them hold
 * alike (a block of AGENTS.md) is listed once. One package entry per registry, name and version
 * as written, whichever loadouts start it.
 */
import type { Agent } from '../../catalogue/vocabulary.js';
import type { Licence } from '../../catalogue/vocabulary.js';
import type { McpPackage, PackageRegistry } from '../../tree-format/capabilities.js';
import { readLock, type LockEntry } from '../project/lock.js';
import { openScope, type InstallScope } from '../project/scope.js';
import { lockSource } from '../install.js';
import { catalogueOpener } from '../run-catalogues.js';
import { readInstalledParts, type InstalledPart } from './installed-parts.js';
import { readRecordLicence, recordAddress, type LicenceLookup } from './record-licence.js';

/** A file a loadout holds, and the agents whose installs hold it. */
export interface SbomFile extends InstalledPart {
  agents: Agent[];
}

/** One installed loadout at one version from one catalogue. */
export interface SbomLoadout {
  id: string;
  version: string;
  /** The catalogue, as the lock records it: a base URL or an absolute folder. */
  source: string;
  /** The address of its record in that catalogue (`file:` for a built tree on disk). */
  record: string;
  /** Its SPDX licence id, or null when it could not be read (NOASSERTION). */
  licence: Licence | null;
  /** The agents it is installed for, sorted. */
  agents: Agent[];
  /** The files it holds, sorted by target. */
  files: SbomFile[];
  /** The keys of the packages its MCP servers start ({@link SbomPackage.key}), sorted. */
  packages: string[];
  /** Its remote MCP servers' addresses, sorted. */
  remote: string[];
}

/** Who starts a package: a loadout's MCP server, for an agent. */
export interface PackageUse {
  id: string;
  version: string;
  agent: Agent;
  server: string;
}

/** One package an MCP server starts. */
export interface SbomPackage {
  /** `<registry>:<name>@<version as written>` (`@` and nothing after it when none is written): unique in the inventory. */
  key: string;
  registry: PackageRegistry;
  /** The package name (npm, PyPI), the image without tag or digest (OCI), the program (local). */
  name: string;
  /** The version, range, tag or digest as written; null when none is written. */
  written: string | null;
  /** True when `written` names one release exactly (`capabilities/launchers.ts`). */
  pinned: boolean;
  /** The exact version when pinned (`1.2.3`; an OCI digest `sha256:…`), else null. */
  version: string | null;
  /** What starts it (`npx`, `uvx`, `docker run`, …); null for a program run directly. */
  launcher: string | null;
  /** Its Package URL: with the exact version when pinned, without a version when not (a range is not a purl version, purl-spec); absent for a local program. */
  purl?: string;
  /** The servers that start it, sorted. */
  used_by: PackageUse[];
}

/** What {@link readInventory} found. */
export interface SbomInventory {
  scope: InstallScope['kind'];
  /** The project folder (or home folder), absolute. */
  root: string;
  loadouts: SbomLoadout[];
  /** Sorted by key. */
  packages: SbomPackage[];
  /** What the SBOM leaves unknown and why, one line each (printed on stderr). */
  notices: string[];
}

/** Options of {@link readInventory}. */
export interface InventoryOptions {
  scope: InstallScope;
  /** Read every catalogue here instead of each install's source (`--from`). */
  from?: string | undefined;
  /** Read no catalogue: every licence is NOASSERTION (`--offline`). */
  offline?: boolean | undefined;
}

/** The exact version a pinned package names: `1.2.3` of npm's `=1.2.3` or PyPI's `==1.2.3`, an OCI digest as it is. */
export function exactVersionOf(pkg: McpPackage): string | null {
  if (!pkg.pinned || pkg.version === null) return null;
  if (pkg.registry === 'npm') return pkg.version.replace(/^[=v]/u, '');
  if (pkg.registry === 'pypi') return pkg.version.replace(/^(?:==|@)/u, '').trim();
  return pkg.version;
}

/**
 * `purl` without its version (purl-spec: `pkg:type/namespace/name@version?qualifiers#subpath`;
 * the name's segments are percent-encoded, so the first `@` after the last `/` before the
 * qualifiers starts the version). Pure.
 */
export function purlWithoutVersion(purl: string): string {
  const end = purl.search(/[?#]/u);
  const head = end < 0 ? purl : purl.slice(0, end);
  const at = head.indexOf('@', head.lastIndexOf('/'));
  return at < 0 ? purl : `${head.slice(0, at)}${end < 0 ? '' : purl.slice(end)}`;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The package entry of `pkg`, without its users. */
function packageOf(pkg: McpPackage): Omit<SbomPackage, 'used_by'> {
  const key = `${pkg.registry}:${pkg.name}@${pkg.version ?? ''}`;
  const purl = pkg.purl === undefined ? undefined : pkg.pinned ? pkg.purl : purlWithoutVersion(pkg.purl);
  return { key, registry: pkg.registry, name: pkg.name, written: pkg.version, pinned: pkg.pinned, version: exactVersionOf(pkg), launcher: pkg.launcher, ...(purl === undefined ? {} : { purl }) };
}

/**
 * Reads the lock of `options.scope`, the files and MCP configuration its installs hold, and the
 * licence of each loadout from its catalogue (unless `offline`).
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable, or a target of it that
 *   breaks the target rules), `io`; ConsumerError `BadSource` for a `from` that names no catalogue
 */
export async function readInventory(options: InventoryOptions): Promise<SbomInventory> {
  const { scope } = options;
  const project = await openScope(scope);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const notices: string[] = [];
  const loadouts = new Map<string, SbomLoadout>();
  const packages = new Map<string, SbomPackage>();
  const catalogueOf = catalogueOpener(lock);
  const licences = new Map<string, Promise<LicenceLookup>>();
  const licenceOf = (entry: LockEntry): Promise<LicenceLookup> => {
    const source = options.from === undefined ? entry.source : lockSource(options.from);
    const key = `${source}\n${entry.id}`;
    let found = licences.get(key);
    if (found === undefined) {
      found = options.offline === true ? Promise.resolve({ licence: null, why: 'no catalogue was read (--offline)' }) : readRecordLicence(catalogueOf(source), entry.id);
      licences.set(key, found);
    }
    return found;
  };
  for (const entry of lock.installs) {
    const key = `${entry.id}\n${entry.version}\n${entry.source}`;
    let loadout = loadouts.get(key);
    if (loadout === undefined) {
      const lookup = await licenceOf(entry);
      if (lookup.licence === null) notices.push(`the licence of ${entry.id} ${entry.version} is NOASSERTION: ${lookup.why}`);
      loadout = { id: entry.id, version: entry.version, source: entry.source, record: recordAddress(entry.source, entry.id), licence: lookup.licence, agents: [], files: [], packages: [], remote: [] };
      loadouts.set(key, loadout);
    }
    loadout.agents.push(entry.agent);
    const content = await readInstalledParts(project, entry);
    for (const part of content.parts) {
      const same = loadout.files.find((f) => f.target === part.target && f.sha256 === part.sha256 && f.kind === part.kind);
      if (same !== undefined) same.agents.push(entry.agent);
      else loadout.files.push({ ...part, agents: [entry.agent] });
      if (part.unhashed === 'changed' || part.unhashed === 'missing') notices.push(`${part.target} of ${entry.id} for ${entry.agent} is ${part.unhashed} since it was installed: listed by the hash the lock records, without its SHA-1 (\`loadout status\` shows the drift)`);
    }
    for (const { server, package: pkg } of content.servers) {
      const described = packageOf(pkg);
      const known = packages.get(described.key) ?? { ...described, used_by: [] };
      known.used_by.push({ id: entry.id, version: entry.version, agent: entry.agent, server });
      packages.set(described.key, known);
      if (!loadout.packages.includes(described.key)) loadout.packages.push(described.key);
    }
    for (const { url } of content.remote) if (!loadout.remote.includes(url)) loadout.remote.push(url);
    for (const absent of content.absent) notices.push(`the MCP server ${absent} that ${entry.id} installed for ${entry.agent} is no longer in the configuration: not listed`);
  }
  for (const loadout of loadouts.values()) {
    loadout.agents.sort(compare);
    loadout.files.sort((a, b) => compare(a.target, b.target) || compare(a.sha256, b.sha256));
    for (const file of loadout.files) file.agents.sort(compare);
    loadout.packages.sort(compare);
    loadout.remote.sort(compare);
  }
  const useKey = (u: PackageUse): string => `${u.id}\n${u.version}\n${u.agent}\n${u.server}`;
  for (const pkg of packages.values()) pkg.used_by.sort((a, b) => compare(useKey(a), useKey(b)));
  return {
    scope: scope.kind,
    root: scope.root,
    loadouts: [...loadouts.values()].sort((a, b) => compare(a.id, b.id) || compare(a.version, b.version) || compare(a.source, b.source)),
    packages: [...packages.values()].sort((a, b) => compare(a.key, b.key)),
    notices,
  };
}
