/**
 * The consumer CLI's package kept between builds (pack.ts): bundling it takes esbuild's process
 * and a few hundred milliseconds of processor time, which a rebuild after one change on a machine
 * of two cores spent beside reading the previous build (DESIGN.md section 7; docs/performance.md).
 * The package is kept in the output's trees folder (dot files beside the trees, which no build
 * removes; `loadout publish` uploads the trees, not this folder) with its key: the sha256 of what the bundle is made from, every file esbuild read
 * (its metafile's inputs: the CLI's sources and the dependencies it bundles) and the package's
 * `package.json`, and of what makes it (esbuild's version and this folder's own modules). A
 * build whose files give the same key takes the kept package; any other change bundles again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_PACKAGE_DIR, REPOSITORY_ROOT } from './bundle.js';

/** The consumer package's `package.json`, relative to the repository's root. */
const PACKAGE_JSON = relative(REPOSITORY_ROOT, join(CLI_PACKAGE_DIR, 'package.json')).split(sep).join('/');

/** The kept package's files in a trees folder. */
const KEPT_JSON = '.cli-package.json';
const KEPT_TARBALL = '.cli-package.tgz';

/** What is kept beside the tarball. */
interface KeptPackage {
  key: string;
  /** The bundle's inputs, relative to the repository's root (esbuild's metafile). */
  inputs: string[];
  name: string;
  version: string;
  integrity: string;
}

/** The package as pack.ts makes it (its `CliPackage`), with the bundle's inputs. */
export interface PackedCli {
  name: string;
  version: string;
  tarball: Buffer;
  integrity: string;
  inputs: readonly string[];
}

/** This folder's modules and the packages that make the bundle: a new builder or esbuild bundles again. */
function toolDigest(): string {
  const hash = createHash('sha256');
  const here = dirname(fileURLToPath(import.meta.url));
  for (const name of ['bundle', 'pack', 'ustar', 'pack-cache']) {
    for (const ext of ['.ts', '.js']) {
      try {
        hash.update(`${name}${ext}\n`).update(readFileSync(join(here, `${name}${ext}`)));
      } catch {
        // compiled (lib/) or source (src/): one of the two is there
      }
    }
  }
  try {
    hash.update(readFileSync(join(REPOSITORY_ROOT, 'node_modules', 'esbuild', 'package.json')));
  } catch {
    hash.update('no esbuild');
  }
  return hash.digest('hex');
}

/**
 * The key of a package bundled from `inputs` (paths relative to `root`, the repository's), with
 * its `package.json`; undefined when one of them cannot be read (a file esbuild read is gone:
 * bundle again).
 */
export function packageKey(inputs: readonly string[], root = REPOSITORY_ROOT): string | undefined {
  const hash = createHash('sha256').update(`tool ${toolDigest()}\n`);
  for (const input of [PACKAGE_JSON, ...[...inputs].sort()]) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, input));
    } catch {
      return undefined;
    }
    hash.update(`${input}\n${bytes.byteLength}\n`).update(bytes);
  }
  return hash.digest('hex');
}

/** Removes what a build killed while it kept the package left in `treesDir` (its temporary names). */
export function removeKeepLeftovers(treesDir: string): void {
  let names: string[];
  try {
    names = readdirSync(treesDir);
  } catch {
    return;
  }
  for (const name of names) if (LEFTOVER.test(name)) rmSync(join(treesDir, name), { force: true });
}

/** A temporary name of {@link keepPackage}. */
const LEFTOVER = /^\.cli-package\.(?:json|tgz)\.\d+\.tmp$/u;

/** The package kept in `treesDir` when its inputs still give its key; undefined otherwise (none kept, unreadable, or stale). */
export function readKeptPackage(treesDir: string, root = REPOSITORY_ROOT): PackedCli | undefined {
  try {
    const kept = JSON.parse(readFileSync(join(treesDir, KEPT_JSON), 'utf8')) as KeptPackage;
    if (!Array.isArray(kept.inputs) || typeof kept.key !== 'string' || packageKey(kept.inputs, root) !== kept.key) return undefined;
    const tarball = readFileSync(join(treesDir, KEPT_TARBALL));
    // The tarball is the one the key was written with (written first, the key renamed in last).
    if (`sha512-${createHash('sha512').update(tarball).digest('base64')}` !== kept.integrity) return undefined;
    return { name: kept.name, version: kept.version, tarball, integrity: kept.integrity, inputs: kept.inputs };
  } catch {
    return undefined;
  }
}

/**
 * Keeps `packed` in `treesDir` for the next build: the tarball, then its key, each renamed into
 * place. Best effort: a package not kept is bundled again next time.
 */
export function keepPackage(treesDir: string, packed: PackedCli, root = REPOSITORY_ROOT): void {
  const key = packageKey(packed.inputs, root);
  if (key === undefined) return;
  const kept: KeptPackage = { key, inputs: [...packed.inputs], name: packed.name, version: packed.version, integrity: packed.integrity };
  const suffix = `.${process.pid}.tmp`;
  try {
    mkdirSync(treesDir, { recursive: true });
    writeFileSync(join(treesDir, KEPT_TARBALL + suffix), packed.tarball);
    renameSync(join(treesDir, KEPT_TARBALL + suffix), join(treesDir, KEPT_TARBALL));
    writeFileSync(join(treesDir, KEPT_JSON + suffix), `${JSON.stringify(kept)}\n`);
    renameSync(join(treesDir, KEPT_JSON + suffix), join(treesDir, KEPT_JSON));
  } catch {
    for (const name of [KEPT_TARBALL, KEPT_JSON]) rmSync(join(treesDir, name + suffix), { force: true });
  }
}
