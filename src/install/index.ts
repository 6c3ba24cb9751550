/**
 * The installer's public surface (explicit names: adding one here makes it public): the
 * life cycle of a loadout in a project or the home folder (install, update, uninstall,
 * status, outdated), the one reader of a catalogue, and the consumer error catalogue. It
 * reads the published format from `tree-format/` and never reaches the verifier, the builder
 * or storage (DESIGN.md section 3; test/import-graph.test.ts).
 */
export { openCatalogue, DOCUMENT_MAX_BYTES, type CatalogueReader, type OpenCatalogueOptions, type VersionsVerifier } from './catalogue/catalogue-reader.js';
export { fetchVersion, findVersion, type FetchedVersion } from './catalogue/fetch-version.js';
export { CONSUMER_ERRORS, ConsumerError, errorJson, type ConsumerErrorEntry, type ConsumerErrorName } from './errors.js';
export { installLoadout, installLoadouts, type InstallOptions, type InstallOutcome } from './install.js';
export { updateLoadouts, type LoadoutUpdate, type UpdateOptions, type UpdateOutcome } from './update.js';
export { uninstallLoadout, type UninstallOptions, type UninstallOutcome } from './uninstall.js';
export { readStatus, type FileState, type FileStatus, type StatusReport } from './status.js';
export { listOutdated, type OutdatedOptions, type OutdatedRow } from './outdated.js';
export { detectAgents, parseAgentList, DETECTED, type DetectedAgent } from './detect-agents.js';
export { changelogBetween, compareVersions, type Changelog, type ChangelogEntry } from './changelog.js';
