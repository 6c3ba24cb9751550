/**
 * The consumer CLI's npm package as every built tree serves it, `cli/loadout-<version>.tgz`
 * and `cli/loadout-latest.tgz` (DESIGN.md section 2, distribution): the `npm pack` format (a
 * gzipped tar whose entries are below `package/`), made deterministic (fixed time, owner and
 * modes, sorted entries, gzip without a name or time) so the same source gives the same
 * bytes and `publish` uploads it once.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { bundleConsumerCli, CLI_BUNDLE_PATH, readCliPackageJson } from './bundle.js';
import { keepPackage, readKeptPackage, removeKeepLeftovers } from './pack-cache.js';
import { writeTar, type TarFile } from './ustar.js';
import { CLI_SERVED_MARK } from '../../tree-format/index.js';

/** The packed consumer package. */
export interface CliPackage {
  name: string;
  version: string;
  /** The `.tgz` bytes. */
  tarball: Buffer;
  /** `sha512-<base64>` of the tarball, as npm's lock files write it (W3C Subresource Integrity). */
  integrity: string;
}

/**
 * The `package.json` packed: the package's own, without its build script (the tarball holds
 * the built file), marked as served by a catalogue (cli/self-origin.ts), so that
 * the CLI can say that a signature it checks does not cover itself.
 */
function packedPackageJson(pkg: Record<string, unknown>): string {
  const { scripts: _scripts, devDependencies: _dev, ...rest } = pkg;
  return `${JSON.stringify({ ...rest, [CLI_SERVED_MARK]: 'catalogue' }, null, 2)}\n`;
}

/** The deterministic `.tgz` of `files` (paths relative to the package). Pure. */
export function packTarball(files: readonly TarFile[]): Buffer {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => ({ ...f, path: `package/${f.path}` }));
  return gzipSync(writeTar(sorted), { level: 9 });
}

/**
 * Packs the consumer package: bundles the CLI from source when esbuild is there (so the
 * bundle is never stale), else takes `packages/cli/dist/loadout.mjs` as `npm run build` left it;
 * once per process. With `keepIn` (a build's trees folder), a package bundled before and kept
 * there is taken while everything it was made from is unchanged; otherwise this process's package
 * (bundled once) is kept there (pack-cache.ts). Each folder is read or written once per process.
 * @returns undefined when neither is available
 * @throws esbuild's error when the source does not bundle; the file system's error
 */
export function packConsumerCli(keepIn?: string): Promise<CliPackage | undefined> {
  if (keepIn === undefined) return packOnce().then((packed) => packed?.cli);
  let packing = packedInto.get(keepIn);
  if (packing === undefined) packedInto.set(keepIn, (packing = packInto(keepIn)));
  return packing;
}

/** A package packed in this process, with its bundle's inputs when it was bundled (none when taken from `npm run build`'s file). */
interface Packed {
  cli: CliPackage;
  inputs: readonly string[] | undefined;
}

// Once per process: the source does not change while it runs, and repeated builds (tests, benchmarks) pack the same bytes.
let packed: Promise<Packed | undefined> | undefined;
/** What {@link packConsumerCli} gave for each trees folder in this process. */
const packedInto = new Map<string, Promise<CliPackage | undefined>>();

/** The package kept in `keepIn` when it still holds, else this process's, which is then kept there. */
async function packInto(keepIn: string): Promise<CliPackage | undefined> {
  removeKeepLeftovers(keepIn);
  const kept = readKeptPackage(keepIn);
  if (kept !== undefined) {
    const cli = { name: kept.name, version: kept.version, tarball: kept.tarball, integrity: kept.integrity };
    packed ??= Promise.resolve({ cli, inputs: kept.inputs });
    return cli;
  }
  const made = await packOnce();
  if (made === undefined) return undefined;
  if (made.inputs !== undefined) keepPackage(keepIn, { ...made.cli, inputs: made.inputs });
  return made.cli;
}

/** This process's package (see {@link packConsumerCli}). */
function packOnce(): Promise<Packed | undefined> {
  packed ??= (async () => {
    const pkg = await readCliPackageJson();
    const bundled = await bundleConsumerCli(pkg.version);
    const text = bundled?.text ?? (await readFile(CLI_BUNDLE_PATH, 'utf8').catch(() => undefined));
    if (text === undefined) return undefined;
    const tarball = packTarball([
      { path: 'package.json', data: Buffer.from(packedPackageJson(pkg)), mode: 0o644 },
      { path: 'dist/loadout.mjs', data: Buffer.from(text), mode: 0o755 },
    ]);
    const cli: CliPackage = { name: pkg.name, version: pkg.version, tarball, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}` };
    return { cli, inputs: bundled?.inputs };
  })();
  return packed;
}
