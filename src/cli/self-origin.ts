/**
 * Where the running consumer CLI came from, so that a signature check never reads as more than
 * it is (SECURITY.md, "The CLI's own route"; DESIGN.md "Trust route of the CLI"). A catalogue's
 * own tarball (`cli/loadout-<version>.tgz`, tree/cli-package/pack.ts) carries the mark
 * `CLI_SERVED_MARK` (tree-format/addresses.ts) in its `package.json`; the package on the npm registry does not. A CLI
 * that a catalogue served cannot vouch for that catalogue: whoever serves the tree chose its code.
 */
import { readFileSync } from 'node:fs';
import type { SigningPolicy } from '../install/catalogue/signed-catalogue.js';
import { readLock } from '../install/project/lock.js';
import type { InstallScope } from '../install/project/scope.js';
import { CLI_SERVED_MARK } from '../tree-format/index.js';


/** The package as installed: `<root>/dist/loadout.mjs` is the bundle; its `package.json` one folder up. */
const PACKAGE_JSON = new URL('../package.json', import.meta.url);
/** npx's lock of the folder it installed the package into: `<cache>/_npx/<hash>/package-lock.json`. */
const NPX_LOCK = new URL('../../../package-lock.json', import.meta.url);

const readJson = (url: URL): unknown => {
  try {
    return JSON.parse(readFileSync(url, 'utf8'));
  } catch {
    return undefined;
  }
};

/** A CLI that a catalogue served: where npx fetched it from, and its version. */
export interface ServedCli {
  /** npx's recorded address of the tarball, or `a catalogue` when npx recorded none. */
  from: string;
  version: string;
}

/**
 * This CLI's origin when a catalogue served it (npx's lock gives the address:
 * `packages["node_modules/loadout-cli"].resolved`); undefined for the npm registry's package,
 * a project's devDependency, or the repository's own CLI. Reads two small files; never throws.
 */
export function catalogueServedCli(): ServedCli | undefined {
  const pkg = readJson(PACKAGE_JSON) as Record<string, unknown> | undefined;
  if (pkg?.[CLI_SERVED_MARK] !== 'catalogue') return undefined;
  const lock = readJson(NPX_LOCK) as { packages?: Record<string, { resolved?: unknown }> } | undefined;
  const resolved = lock?.packages?.[`node_modules/${String(pkg['name'])}`]?.resolved;
  return { from: typeof resolved === 'string' && /^https?:\/\//iu.test(resolved) ? resolved : 'a catalogue', version: String(pkg['version']) };
}

/**
 * The notice for a command that checked a catalogue's signature, or was asked to require one,
 * when `served` (default: this CLI's origin) says a catalogue served this CLI; else undefined.
 */
export function selfOriginNotice(served: ServedCli | undefined = catalogueServedCli()): string | undefined {
  if (served === undefined) return undefined;
  return `this loadout CLI was itself fetched from ${served.from}, which the catalogue's signature does not cover: whoever serves that address chose the code that checked it. For a check that does not trust that host, run the CLI from the npm registry (npx -y loadout-cli@${served.version} …) or from your project's devDependencies (docs/installing.md).`;
}

/**
 * True when a command on `scope` checks signatures: asked to (`--require-signed`, `--trust-key`)
 * or because the scope's lock pins keys for some catalogue. A lock that cannot be read counts
 * as pinning none (the command itself then reports it).
 */
export async function checksSignatures(scope: InstallScope, signing: SigningPolicy | undefined): Promise<boolean> {
  if (signing?.requireSigned === true || (signing?.trustKeys?.length ?? 0) > 0) return true;
  const lock = await readLock(scope.root, scope.lockPath, scope.backupRoot).catch(() => undefined);
  return Object.keys(lock?.trust ?? {}).length > 0;
}
