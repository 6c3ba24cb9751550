/**
 * The published tree's format, the public surface of this room: its addresses, the headers
 * each is served with, where a tree's links may lead, the record's shapes, the versions
 * document's shapes and checked parser, and the digest files are named by. No dependency on the builder, the
 * verifier or storage: the installer, search, pages, publish and serve read the format from
 * here, and the builder writes it (DESIGN.md section 8). Explicit names only: adding one
 * here makes it public.
 */
export {
  agentZipUrl,
  cliTarballTreePath,
  cliTarballUrl,
  CLI_LATEST_TREE_PATH,
  CLI_PACKAGE_NAME,
  CLI_SERVED_MARK,
  DESCRIPTION_TREE_PATH,
  docsUrl,
  installCommand,
  installedTreeFolder,
  installedTreePath,
  installedUrl,
  INSTALLED_FOLDER,
  normaliseBaseUrl,
  pageUrl,
  rawTreeFolder,
  rawTreePath,
  rawUrl,
  recordUrl,
  schemaUrl,
  sourceZipUrl,
  versionsUrl,
  type CliRoute,
} from './addresses.js';
export { sha256 } from './digest.js';
export {
  addressClassOf,
  cacheControlFor,
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  contentTypeFor,
  isPublishedPath,
  RAW_CONTENT_TYPE,
  WELL_KNOWN,
  wellKnownIndexOf,
  type AddressClass,
} from './tree-headers.js';
export { linkRegionsOf, placeIn, STORE_FOLDER } from './tree-region.js';
export { parseVersionsDocument } from './versions-document.js';
export { languageOf, type ContextCost, type ContextSize, type InstallEntry, type InstallFile, type ManualStep, type PublishedFileEntry, type PublishedRecord } from './record.js';
export type { CheckResult, Verification } from './verification.js';
export type { VersionEntry, VersionFile, VersionsDocument } from './versions.js';
