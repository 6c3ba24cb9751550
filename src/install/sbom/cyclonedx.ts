/**
 * The SBOM as a CycloneDX 1.6 JSON document (cyclonedx.org/docs/1.6/json), made with the
 * CycloneDX project's own library (`@cyclonedx/cyclonedx-library`: its models, and its JSON
 * normaliser for spec 1.6, which writes only what 1.6 allows). test/install/sbom/cyclonedx.test.ts
 * validates what it gives against the official schema (CycloneDX/specification, tag 1.6.2).
 * Pure. The fields, for what {@link SbomInventory} holds:
 *
 * - `metadata.component`: the project (an application), which `dependsOn` every loadout;
 *   `metadata.tools`: `loadout` at its version; `serialNumber` a random `urn:uuid:`;
 * - each loadout, a component of type `library` (what the agent loads): its version, its licence
 *   as an SPDX id (no `licenses` when it is unknown: CycloneDX has no NOASSERTION, an absent
 *   licence is an unknown one), its record's address as a `distribution` reference, properties
 *   `loadout:catalogue` (the lock's source), `loadout:agent` (one per agent) and
 *   `loadout:remote-mcp-server` (each remote MCP server's address), and one sub-component of type
 *   `file` per file it holds, named by its target, with SHA-256 (and SHA-1 when the project holds
 *   the bytes as installed) and properties `loadout:path`, `loadout:kind`, `loadout:agent`;
 * - each package an MCP server starts, a component of type `application` (`container` for an OCI
 *   image) with its purl, `version` only when pinned (CycloneDX 1.6 has no version range: its
 *   `versionRange` is 1.7's), and properties `loadout:pinned` (`true` or `false`),
 *   `loadout:version-range` (the version as written, for one not pinned that writes one),
 *   `loadout:registry`, `loadout:launcher` and `loadout:mcp-server` (`<loadout> <server> <agent>`
 *   per server that starts it); each loadout `dependsOn` the packages its servers start.
 *
 * The `loadout:` properties follow the spec's advice for names (a namespace prefix, colon
 * separated; cyclonedx/cyclonedx-property-taxonomy).
 */
import { Bom, Component, ExternalReference, Property, SpdxLicense } from '@cyclonedx/cyclonedx-library/Models';
import { ComponentScope, ComponentType, ExternalReferenceType, HashAlgorithm } from '@cyclonedx/cyclonedx-library/Enums';
import { JsonSerializer, JSON as CycloneDxJson } from '@cyclonedx/cyclonedx-library/Serialize';
import { Spec1dot6 } from '@cyclonedx/cyclonedx-library/Spec';
import { basename } from 'node:path';
import type { SbomInventory, SbomLoadout, SbomPackage } from './inventory.js';
import type { SbomMeta } from './sbom-meta.js';
import { describeHold, describePin } from './sbom-text.js';

/** The CycloneDX document, as JSON values (the library's normalised form). */
export type CycloneDxDocument = Record<string, unknown>;

const property = (name: string, value: string): Property => new Property(`loadout:${name}`, value);

/** The component of one loadout, with its files. */
function loadoutComponent(loadout: SbomLoadout, index: number): Component {
  const ref = `loadout/${index + 1}/${loadout.id}@${loadout.version}`;
  const component = new Component(ComponentType.Library, loadout.id, { bomRef: ref, version: loadout.version, scope: ComponentScope.Required, description: `a loadout from the catalogue ${loadout.source}` });
  if (loadout.licence !== null) component.licenses.add(new SpdxLicense(loadout.licence));
  component.externalReferences.add(new ExternalReference(loadout.record, ExternalReferenceType.Distribution, { comment: 'the loadout\'s record in its catalogue' }));
  component.properties.add(property('catalogue', loadout.source));
  for (const agent of loadout.agents) component.properties.add(property('agent', agent));
  for (const url of loadout.remote) component.properties.add(property('remote-mcp-server', url));
  loadout.files.forEach((file, i) => {
    const part = new Component(ComponentType.File, file.target, { bomRef: `${ref}/file/${i + 1}`, description: describeHold(file) });
    part.hashes.set(HashAlgorithm['SHA-256'], file.sha256);
    if (file.sha1 !== undefined) part.hashes.set(HashAlgorithm['SHA-1'], file.sha1);
    part.properties.add(property('path', file.path));
    part.properties.add(property('kind', file.kind));
    for (const agent of file.agents) part.properties.add(property('agent', agent));
    if (file.unhashed !== undefined) part.properties.add(property('unhashed', file.unhashed));
    component.components.add(part);
  });
  return component;
}

/** The component of one package an MCP server starts. */
function packageComponent(pkg: SbomPackage): Component {
  const component = new Component(pkg.registry === 'oci' ? ComponentType.Container : ComponentType.Application, pkg.name, {
    bomRef: `mcp-package/${pkg.key}`,
    scope: ComponentScope.Required,
    description: describePin(pkg),
    ...(pkg.version === null ? {} : { version: pkg.version }),
    ...(pkg.purl === undefined ? {} : { purl: pkg.purl }),
  });
  component.properties.add(property('pinned', String(pkg.pinned)));
  if (!pkg.pinned && pkg.written !== null) component.properties.add(property('version-range', pkg.written));
  component.properties.add(property('registry', pkg.registry));
  if (pkg.launcher !== null) component.properties.add(property('launcher', pkg.launcher));
  for (const use of pkg.used_by) component.properties.add(property('mcp-server', `${use.id} ${use.server} ${use.agent}`));
  return component;
}

/**
 * The CycloneDX 1.6 document of `inventory`, made as `meta` says, as the library's JSON
 * normaliser writes it (lists sorted). Pure.
 */
export function cycloneDxDocumentOf(inventory: SbomInventory, meta: SbomMeta): CycloneDxDocument {
  const bom = new Bom();
  bom.serialNumber = `urn:uuid:${meta.serial}`;
  bom.metadata.timestamp = meta.created;
  bom.metadata.tools.components.add(new Component(ComponentType.Application, meta.tool.name, { version: meta.tool.version }));
  const project = new Component(ComponentType.Application, basename(inventory.root), { bomRef: 'project', description: `the ${inventory.scope === 'user' ? 'home folder' : 'project'} ${inventory.root}, with the loadouts its lock records` });
  bom.metadata.component = project;
  const packages = new Map(inventory.packages.map((pkg) => [pkg.key, packageComponent(pkg)]));
  inventory.loadouts.forEach((loadout, i) => {
    const component = loadoutComponent(loadout, i);
    for (const key of loadout.packages) {
      const pkg = packages.get(key);
      if (pkg !== undefined) component.dependencies.add(pkg.bomRef);
    }
    project.dependencies.add(component.bomRef);
    bom.components.add(component);
  });
  for (const pkg of packages.values()) bom.components.add(pkg);
  const serializer = new JsonSerializer(new CycloneDxJson.Normalize.Factory(Spec1dot6));
  return JSON.parse(serializer.serialize(bom, { sortLists: true })) as CycloneDxDocument;
}
