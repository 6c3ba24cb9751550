/**
 * The SBOM as an SPDX 2.3 JSON document (spdx.github.io/spdx-spec/v2.3; the JSON Schema
 * `schemas/spdx-schema.json` of spdx/spdx-spec at tag v2.3). No maintained npm library writes
 * SPDX 2.3 documents (SPDX's own tools are in Python, Java and Go), so the types below are the
 * subset of the schema written here; test/install/sbom/spdx.test.ts validates what they give
 * against the official schema. Pure.
 *
 * The elements (the relationships in parentheses):
 * - the project, a package `SPDXRef-Project` (the document DESCRIBES it);
 * - each loadout (in {@link SbomInventory}), a package with its version, its record's address as
 *   `downloadLocation` and its licence as `licenseDeclared` (NOASSERTION when unknown) (the
 *   project CONTAINS it);
 * - each file it holds whose bytes the project has as installed, a file element with their SHA-1
 *   and SHA-256 (the loadout CONTAINS it); a file without a SHA-1 (clause 8.4 requires one) is an
 *   annotation of the loadout naming its target and the lock's sha256 instead;
 * - each package an MCP server starts, a package with its purl as a PACKAGE-MANAGER reference
 *   (annex F) and `versionInfo` when pinned; one that is not pinned says so in its `comment`,
 *   with the range as written (the loadout DEPENDS_ON it).
 */
import { basename } from 'node:path';
import type { SbomInventory, SbomLoadout, SbomPackage } from './inventory.js';
import { secondsUtc, type SbomMeta } from './sbom-meta.js';
import { describeHold, describePin, UNHASHED } from './sbom-text.js';

/** The value SPDX writes for what the document does not assert (clause 7.7 and others). */
export const NOASSERTION = 'NOASSERTION';

/** A checksum (clause 7.10, 8.4). */
export interface SpdxChecksum {
  algorithm: 'SHA1' | 'SHA256';
  checksumValue: string;
}

/** An annotation (clause 12). */
export interface SpdxAnnotation {
  annotationDate: string;
  annotationType: 'OTHER' | 'REVIEW';
  annotator: string;
  comment: string;
}

/** An external reference of a package (clause 7.21, annex F). */
export interface SpdxExternalRef {
  referenceCategory: 'PACKAGE-MANAGER';
  referenceType: 'purl';
  referenceLocator: string;
}

/** A package (clause 7). */
export interface SpdxPackage {
  SPDXID: string;
  name: string;
  versionInfo?: string;
  downloadLocation: string;
  filesAnalyzed: boolean;
  licenseConcluded: string;
  licenseDeclared: string;
  copyrightText: string;
  primaryPackagePurpose: 'APPLICATION' | 'CONTAINER' | 'OTHER';
  externalRefs?: SpdxExternalRef[];
  comment?: string;
  annotations?: SpdxAnnotation[];
}

/** A file (clause 8). */
export interface SpdxFile {
  SPDXID: string;
  fileName: string;
  checksums: SpdxChecksum[];
  comment: string;
}

/** A relationship (clause 11). */
export interface SpdxRelationship {
  spdxElementId: string;
  relationshipType: 'DESCRIBES' | 'CONTAINS' | 'DEPENDS_ON';
  relatedSpdxElement: string;
  comment?: string;
}

/** An SPDX 2.3 document (clause 6). */
export interface SpdxDocument {
  spdxVersion: 'SPDX-2.3';
  dataLicense: 'CC0-1.0';
  SPDXID: 'SPDXRef-DOCUMENT';
  name: string;
  documentNamespace: string;
  creationInfo: { created: string; creators: string[]; comment: string };
  packages: SpdxPackage[];
  files: SpdxFile[];
  relationships: SpdxRelationship[];
}

const DOCUMENT_ID = 'SPDXRef-DOCUMENT';
const PROJECT_ID = 'SPDXRef-Project';

/** The project's name: its folder's (the home folder's for the user scope). */
const projectName = (inventory: SbomInventory): string => (inventory.scope === 'user' ? `${basename(inventory.root)} (home folder)` : basename(inventory.root));

/** The servers that start a package, for its relationship's comment. */
const describeUses = (pkg: SbomPackage, loadout: SbomLoadout): string =>
  pkg.used_by
    .filter((u) => u.id === loadout.id && u.version === loadout.version)
    .map((u) => `MCP server ${u.server} for ${u.agent}`)
    .join(', ');

/**
 * The SPDX 2.3 document of `inventory`, made as `meta` says. The order of every list is the
 * inventory's (sorted), so the same inventory and meta give the same document. Pure.
 */
export function spdxDocumentOf(inventory: SbomInventory, meta: SbomMeta): SpdxDocument {
  const created = secondsUtc(meta.created);
  const annotator = `Tool: ${meta.tool.name}-${meta.tool.version}`;
  const packages: SpdxPackage[] = [];
  const files: SpdxFile[] = [];
  const relationships: SpdxRelationship[] = [{ spdxElementId: DOCUMENT_ID, relationshipType: 'DESCRIBES', relatedSpdxElement: PROJECT_ID }];
  packages.push({ SPDXID: PROJECT_ID, name: projectName(inventory), downloadLocation: NOASSERTION, filesAnalyzed: false, licenseConcluded: NOASSERTION, licenseDeclared: NOASSERTION, copyrightText: NOASSERTION, primaryPackagePurpose: 'OTHER', comment: `the ${inventory.scope === 'user' ? 'home folder' : 'project'} ${inventory.root}, with the loadouts its lock records` });
  const packageIds = new Map(inventory.packages.map((pkg, i) => [pkg.key, `SPDXRef-Package-${i + 1}`]));
  inventory.loadouts.forEach((loadout, li) => {
    const loadoutId = `SPDXRef-Loadout-${li + 1}-${loadout.id}`;
    const annotations: SpdxAnnotation[] = [];
    let held = 0;
    loadout.files.forEach((file, fi) => {
      const comment = `${file.path} of ${loadout.id} ${loadout.version}, installed for ${file.agents.join(', ')}: ${describeHold(file)}`;
      if (file.sha1 === undefined) {
        annotations.push({ annotationDate: created, annotationType: 'OTHER', annotator, comment: `./${file.target} (${comment}) sha256 ${file.sha256}, no SHA-1: ${UNHASHED[file.unhashed ?? 'missing']}` });
        return;
      }
      const fileId = `SPDXRef-File-${li + 1}-${fi + 1}`;
      files.push({ SPDXID: fileId, fileName: `./${file.target}`, checksums: [{ algorithm: 'SHA1', checksumValue: file.sha1 }, { algorithm: 'SHA256', checksumValue: file.sha256 }], comment });
      relationships.push({ spdxElementId: loadoutId, relationshipType: 'CONTAINS', relatedSpdxElement: fileId });
      held++;
    });
    packages.push({
      SPDXID: loadoutId,
      name: loadout.id,
      versionInfo: loadout.version,
      downloadLocation: loadout.record,
      filesAnalyzed: held > 0,
      licenseConcluded: NOASSERTION,
      licenseDeclared: loadout.licence ?? NOASSERTION,
      copyrightText: NOASSERTION,
      primaryPackagePurpose: 'OTHER',
      comment: `a loadout from the catalogue ${loadout.source}, installed for ${loadout.agents.join(', ')}${loadout.remote.length === 0 ? '' : `; its remote MCP servers: ${loadout.remote.join(', ')}`}`,
      ...(annotations.length === 0 ? {} : { annotations }),
    });
    relationships.push({ spdxElementId: PROJECT_ID, relationshipType: 'CONTAINS', relatedSpdxElement: loadoutId });
    for (const key of loadout.packages) {
      const pkg = inventory.packages.find((p) => p.key === key);
      const pkgId = packageIds.get(key);
      if (pkg === undefined || pkgId === undefined) continue;
      relationships.push({ spdxElementId: loadoutId, relationshipType: 'DEPENDS_ON', relatedSpdxElement: pkgId, comment: `started by its ${describeUses(pkg, loadout)}` });
    }
  });
  inventory.packages.forEach((pkg) => {
    packages.push({
      SPDXID: packageIds.get(pkg.key) ?? '',
      name: pkg.name,
      ...(pkg.version === null ? {} : { versionInfo: pkg.version }),
      downloadLocation: NOASSERTION,
      filesAnalyzed: false,
      licenseConcluded: NOASSERTION,
      licenseDeclared: NOASSERTION,
      copyrightText: NOASSERTION,
      primaryPackagePurpose: pkg.registry === 'oci' ? 'CONTAINER' : 'APPLICATION',
      ...(pkg.purl === undefined ? {} : { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: pkg.purl }] }),
      comment: describePin(pkg),
    });
  });
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: DOCUMENT_ID,
    name: `loadouts of ${projectName(inventory)}`,
    documentNamespace: `https://spdx.org/spdxdocs/loadout-sbom-${meta.serial}`,
    creationInfo: { created, creators: [annotator], comment: 'The loadouts a loadout lock records and the packages their MCP servers start (loadout sbom).' },
    packages,
    files,
    relationships,
  };
}
