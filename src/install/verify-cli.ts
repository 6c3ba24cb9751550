/**
 * `verify-cli`: checks the consumer CLI a signed catalogue serves (`cli/loadout-<version>.tgz`,
 * or `cli/loadout-latest.tgz`) against the catalogue's signed snapshot, which lists each
 * tarball's sha256 and size (SECURITY.md, "The CLI's own route"; DESIGN.md "Trust route of
 * the CLI"). Run from a CLI whose integrity comes from elsewhere (the npm registry, a project's
 * devDependency), it lets a user take the catalogue's tarball only once the catalogue's key
 * vouches for it, and keep the verified bytes to run (`npx -y ./loadout-<version>.tgz`).
 * Writes nothing but the `out` file asked for, through a handle on its folder
 * (`project/project-root.ts`): whole or not at all (a temporary file and one rename).
 */
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { VERSION_PATTERN } from '../catalogue/vocabulary.js';
import { cliTarballTreePath, CLI_LATEST_TREE_PATH } from '../tree-format/index.js';
import { checkDocumentDigest, signingError, type SigningPolicy } from './catalogue/signed-catalogue.js';
import { readLock } from './project/lock.js';
import { openProject } from './project/project-root.js';
import type { InstallScope } from './project/scope.js';
import { catalogueOpener } from './run-catalogues.js';

/** A tarball of the consumer CLI is about 100 KB; this cap stops an endless or padded one. */
export const CLI_TARBALL_MAX_BYTES = 4 * 1024 * 1024;

/** Options of {@link verifyCatalogueCli}. */
export interface VerifyCliOptions {
  /** The catalogue: a base URL or a built tree's folder (`--from`). */
  from: string;
  /** The CLI version to check (`MAJOR.MINOR.PATCH`); default the catalogue's latest. */
  version?: string | undefined;
  /** The project (or user) scope whose lock may pin the catalogue's keys. */
  scope: InstallScope;
  /** `--trust-key`; signing is always required here. */
  signing?: SigningPolicy | undefined;
  /** A file to write the verified tarball to. */
  out?: string | undefined;
}

/** What {@link verifyCatalogueCli} found: a tarball the catalogue's signed snapshot lists. */
export interface VerifiedCli {
  /** Where it was read: `<base>/cli/loadout-<version>.tgz` or the file in a built tree. */
  source: string;
  /** Its tree path. */
  path: string;
  /** The CLI version, from the path or the snapshot's pinned tarball with the same bytes; null when neither says. */
  version: string | null;
  /** Lowercase hex sha256 of the tarball. */
  sha256: string;
  /** `sha512-<base64>` (W3C Subresource Integrity), as npm's lock files write it. */
  integrity: string;
  /** Size in bytes. */
  bytes: number;
  /** The keys and snapshot that vouch for it. */
  signed: { keyids: string[]; generated_at: string };
  /** The file the tarball was written to, when `out` was given. */
  written: string | null;
}

const PINNED_TARBALL = /^cli\/loadout-(\d+\.\d+\.\d+)\.tgz$/u;

/**
 * Reads the catalogue's CLI tarball and checks it against the signed snapshot (the keys the
 * scope's lock pins for the catalogue, else those it declares, plus `--trust-key`); writes it
 * to `out` only once it checks.
 * @throws LoadoutError `usage` for a bad version; ConsumerError `UnsignedCatalogue` (nothing
 *   vouches for the CLI of an unsigned catalogue), `HashMismatch` (the tarball is not the one
 *   the snapshot lists, or the snapshot lists none), the signing refusals of
 *   `checkCatalogueSigning`, the reader's errors; the file system's error writing `out`
 */
export async function verifyCatalogueCli(options: VerifyCliOptions): Promise<VerifiedCli> {
  if (options.version !== undefined && !VERSION_PATTERN.test(options.version)) throw new LoadoutError('usage', `--version is ${JSON.stringify(options.version)} (expected the CLI's version, MAJOR.MINOR.PATCH, such as 0.1.0)`);
  const lock = await readLock(options.scope.root, options.scope.lockPath, options.scope.backupRoot);
  const catalogue = catalogueOpener(lock, { ...options.signing, requireSigned: true })(options.from);
  const { snapshot, trust } = await catalogue.signing();
  if (snapshot === undefined || trust === undefined) throw signingError('UnsignedCatalogue', `${catalogue.location} is not signed: nothing vouches for the CLI it serves`);
  const path = options.version === undefined ? CLI_LATEST_TREE_PATH : cliTarballTreePath(options.version);
  const source = `${catalogue.location}/${path}`;
  const bytes = await catalogue.readDocument(path, CLI_TARBALL_MAX_BYTES);
  checkDocumentDigest(snapshot, path, bytes, source, 'the snapshot does not cover this catalogue\'s CLI (a build from before snapshots did), so nothing vouches for it');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const version =
    options.version ??
    Object.entries(snapshot.documents)
      .filter(([p, d]) => PINNED_TARBALL.test(p) && d.sha256 === sha256)
      .map(([p]) => PINNED_TARBALL.exec(p)?.[1] as string)[0] ??
    null;
  if (options.out !== undefined) await (await openProject(dirname(options.out))).writeFileAtomic(basename(options.out), bytes);
  return {
    source,
    path,
    version,
    sha256,
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    bytes: bytes.byteLength,
    signed: { keyids: trust.keyids, generated_at: snapshot.generated_at },
    written: options.out ?? null,
  };
}
