/**
 * Whether an MCP server's package or host is one a policy allows (`mcp.packages.allow`,
 * `mcp.hosts.allow`; issue 55, point 1). Names and hosts are globs, read by picomatch (the glob
 * library of the JavaScript tool chain: micromatch, fast-glob, chokidar): `*` within a segment,
 * `**` across `/`, braces and classes. A PyPI name is compared as PEP 503 normalises it (case and
 * runs of `-`, `_`, `.` do not count), a host without case. A version rule of an npm or PyPI
 * entry is a semver range as npm reads it (`catalogue/version-ranges.ts`), which only a pinned
 * package meets (a range or no version may fetch anything at the next start); an OCI entry's is a
 * glob of the tag or digest. Pure.
 */
import picomatch from 'picomatch';
import semver from 'semver';
import type { McpPackage } from '../tree-format/capabilities.js';
import type { PackageRule } from './policy.js';

/** The registries as a sentence names them. */
export const REGISTRY_NAMES: Readonly<Record<McpPackage['registry'], string>> = { npm: 'npm', pypi: 'PyPI', oci: 'an OCI registry', local: 'the local machine' };

/** True when `value` matches the glob `pattern`. */
export function matchesGlob(pattern: string, value: string, options: { nocase?: boolean } = {}): boolean {
  return picomatch.isMatch(value, pattern, { dot: true, nocase: options.nocase === true });
}

/** A PyPI name or glob as PEP 503 normalises names. */
const pep503 = (name: string): string => name.toLowerCase().replace(/[-_.]+/gu, '-');

/** The exact release a pinned npm or PyPI version names, as semver, or undefined. */
function exactVersion(pkg: McpPackage): string | undefined {
  if (!pkg.pinned || pkg.version === null) return undefined;
  const bare = pkg.version.replace(/^(?:==|@|=|v)/u, '').trim();
  if (semver.valid(bare) !== null) return bare;
  // PyPI releases of one or two numbers (`0.3`) compare as their semver (`0.3.0`).
  return /^\d+(?:\.\d+){0,2}$/u.test(bare) ? (semver.coerce(bare)?.version ?? undefined) : undefined;
}

/** True when `rule` names `pkg` (registry and name), whatever the version. */
export function namesPackage(rule: PackageRule, pkg: McpPackage): boolean {
  if (rule.registry !== pkg.registry) return false;
  return pkg.registry === 'pypi' ? matchesGlob(pep503(rule.name), pep503(pkg.name)) : matchesGlob(rule.name, pkg.name);
}

/** True when `rule` allows `pkg`: it names it, and its version (if it gives one) is met (see the module comment). */
export function allowsPackage(rule: PackageRule, pkg: McpPackage): boolean {
  if (!namesPackage(rule, pkg)) return false;
  if (rule.version === undefined) return true;
  if (pkg.registry === 'npm' || pkg.registry === 'pypi') {
    const exact = exactVersion(pkg);
    return exact !== undefined && semver.satisfies(exact, rule.version, { loose: false, includePrerelease: false });
  }
  return pkg.version !== null && matchesGlob(rule.version, pkg.version);
}

/** True when some glob of `allowed` matches `host` (without case). */
export function allowsHost(allowed: readonly string[], host: string): boolean {
  return allowed.some((pattern) => matchesGlob(pattern, host, { nocase: true }));
}
