/**
 * The SBOM documents of a project with dbt-analytics and two other loadouts (issue 55, point 3,
 * "Done when"): the SPDX 2.3 document (src/install/sbom/spdx.ts) and the CycloneDX 1.6 one
 * (src/install/sbom/cyclonedx.ts) validate against the official schemas (test/fixtures/sbom/),
 * and each says what the inventory holds: the loadouts with version, record, licence and the
 * hashes of their files, the packages their MCP servers start with purl and pin.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadouts } from '../../../src/install/install.js';
import { projectScope } from '../../../src/install/project/scope.js';
import { readInventory, type SbomInventory } from '../../../src/install/sbom/inventory.js';
import { spdxDocumentOf, type SpdxDocument } from '../../../src/install/sbom/spdx.js';
import { cycloneDxDocumentOf } from '../../../src/install/sbom/cyclonedx.js';
import type { SbomMeta } from '../../../src/install/sbom/sbom-meta.js';
import { cycloneDxSchemaErrors, spdxSchemaErrors } from '../../helpers/sbom-schemas.js';
import { buildSbomCatalogue, IMAGE_DIGEST } from './sbom-fixture.js';

const META: SbomMeta = { tool: { name: 'loadout', version: '9.8.7' }, created: new Date('2026-11-28T12:34:56.789Z'), serial: '3e671687-395b-41f5-a30f-a58921a69b79' };

let folder: string;
let project: string;
let inventory: SbomInventory;
let offline: SbomInventory;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-sbom-documents-'));
  const { dist } = await buildSbomCatalogue(join(folder, 'catalogue'));
  project = join(folder, 'my-app');
  mkdirSync(project);
  await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['claude-code', 'codex'], dir: project });
  await installLoadouts({ from: dist, id: 'discord-bot-ts', agents: ['cursor'], dir: project });
  await installLoadouts({ from: dist, id: 'pinned-kit', agents: ['claude-code'], dir: project });
  inventory = await readInventory({ scope: projectScope(project) });
  offline = await readInventory({ scope: projectScope(project), offline: true });
}, 180_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the SPDX 2.3 document', () => {
  it('validates against the official schema, with the licences known and unknown', () => {
    expect(inventory.notices).toEqual([]);
    expect(spdxSchemaErrors(spdxDocumentOf(inventory, META))).toEqual([]);
    expect(spdxSchemaErrors(spdxDocumentOf(offline, META))).toEqual([]);
  });

  it('describes the project, which contains each loadout, which contains its files and depends on the packages its MCP servers start', () => {
    const doc = spdxDocumentOf(inventory, META);
    expect([doc.spdxVersion, doc.dataLicense, doc.name, doc.documentNamespace, doc.creationInfo.created, doc.creationInfo.creators]).toEqual(['SPDX-2.3', 'CC0-1.0', 'loadouts of my-app', `https://spdx.org/spdxdocs/loadout-sbom-${META.serial}`, '2026-11-28T12:34:56Z', ['Tool: loadout-9.8.7']]);
    const byId = new Map<string, { name?: string; fileName?: string }>([...doc.packages.map((p) => [p.SPDXID, p] as const), ...doc.files.map((f) => [f.SPDXID, f] as const)]);
    // Every id is an SPDX idstring (clause 3.2) and unique; every relationship joins two elements of the document.
    const ids = [...doc.packages.map((p) => p.SPDXID), ...doc.files.map((f) => f.SPDXID)];
    expect(ids.filter((id) => !/^SPDXRef-[A-Za-z0-9.-]+$/u.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.relationships.filter((r) => !(byId.has(r.relatedSpdxElement) && (byId.has(r.spdxElementId) || r.spdxElementId === 'SPDXRef-DOCUMENT')))).toEqual([]);
    const name = (id: string): string => byId.get(id)?.name ?? byId.get(id)?.fileName ?? id;
    const edges = (type: string, from: string): string[] => doc.relationships.filter((r) => r.relationshipType === type && name(r.spdxElementId) === from).map((r) => name(r.relatedSpdxElement));
    expect(edges('DESCRIBES', 'SPDXRef-DOCUMENT')).toEqual(['my-app']);
    expect(edges('CONTAINS', 'my-app')).toEqual(['dbt-analytics', 'discord-bot-ts', 'pinned-kit']);
    expect(edges('DEPENDS_ON', 'dbt-analytics')).toEqual(['postgres-mcp']);
    expect(edges('DEPENDS_ON', 'pinned-kit')).toEqual(['my-mcp-server', '@acme/docs-mcp', 'search-mcp', 'ghcr.io/acme/browser', 'mcp-server-fetch']);
    expect(doc.relationships.find((r) => r.relationshipType === 'DEPENDS_ON' && name(r.spdxElementId) === 'dbt-analytics')?.comment).toBe('started by its MCP server postgres for claude-code, MCP server postgres for codex');
    // dbt-analytics's files: each whole file and block with SHA-1 and SHA-256, as the inventory has them.
    const dbt = inventory.loadouts.find((l) => l.id === 'dbt-analytics');
    const hashed = (dbt?.files ?? []).filter((f) => f.sha1 !== undefined);
    expect(hashed.length).toBeGreaterThan(5);
    expect(edges('CONTAINS', 'dbt-analytics')).toEqual(hashed.map((f) => `./${f.target}`));
    const contained = doc.relationships.filter((r) => r.relationshipType === 'CONTAINS' && name(r.spdxElementId) === 'dbt-analytics').map((r) => r.relatedSpdxElement);
    expect(doc.files.filter((f) => contained.includes(f.SPDXID)).map((f) => f.checksums)).toEqual(hashed.map((f) => [{ algorithm: 'SHA1', checksumValue: f.sha1 }, { algorithm: 'SHA256', checksumValue: f.sha256 }]));
    // Its merged MCP servers have no SHA-1 (the lock's hash is of the loadout's MCP file): an annotation each.
    const loadout = doc.packages.find((p) => p.name === 'dbt-analytics');
    expect(loadout?.annotations?.map((a) => a.comment.replace(/sha256 [0-9a-f]{64}/u, 'sha256 …'))).toEqual([
      './.codex/config.toml (mcp/servers.json of dbt-analytics 1.0.0, installed for codex: MCP servers merged into a shared configuration; the lock\'s sha256 is of the loadout\'s MCP file) sha256 …, no SHA-1: its bytes are the loadout\'s MCP file, which the project does not hold',
      './.mcp.json (mcp/servers.json of dbt-analytics 1.0.0, installed for claude-code: MCP servers merged into a shared configuration; the lock\'s sha256 is of the loadout\'s MCP file) sha256 …, no SHA-1: its bytes are the loadout\'s MCP file, which the project does not hold',
    ]);
  });

  it('gives each loadout its version, record, licence and catalogue; each package its purl, and its version only when pinned', () => {
    const doc: SpdxDocument = spdxDocumentOf(inventory, META);
    const source = inventory.loadouts[0]?.source ?? '';
    expect(doc.packages.filter((p) => p.SPDXID.startsWith('SPDXRef-Loadout-')).map((p) => [p.name, p.versionInfo, p.licenseDeclared, p.downloadLocation, p.filesAnalyzed, p.comment])).toEqual([
      ['dbt-analytics', '1.0.0', 'MIT', `file://${source}/api/loadouts/dbt-analytics.json`, true, `a loadout from the catalogue ${source}, installed for claude-code, codex`],
      ['discord-bot-ts', '1.0.0', 'MIT', `file://${source}/api/loadouts/discord-bot-ts.json`, true, `a loadout from the catalogue ${source}, installed for cursor`],
      ['pinned-kit', '2.0.1', 'Apache-2.0', `file://${source}/api/loadouts/pinned-kit.json`, true, `a loadout from the catalogue ${source}, installed for claude-code; its remote MCP servers: https://mcp.example.com/mcp`],
    ]);
    expect(spdxDocumentOf(offline, META).packages.filter((p) => p.SPDXID.startsWith('SPDXRef-Loadout-')).map((p) => p.licenseDeclared)).toEqual(['NOASSERTION', 'NOASSERTION', 'NOASSERTION']);
    expect(doc.packages.filter((p) => p.SPDXID.startsWith('SPDXRef-Package-')).map((p) => [p.name, p.versionInfo ?? null, p.primaryPackagePurpose, p.externalRefs?.map((r) => `${r.referenceCategory} ${r.referenceType} ${r.referenceLocator}`) ?? [], p.comment])).toEqual([
      ['my-mcp-server', null, 'APPLICATION', [], 'a program of the user\'s machine, run directly: not a package of a registry, not pinned'],
      ['@acme/docs-mcp', '1.4.2', 'APPLICATION', ['PACKAGE-MANAGER purl pkg:npm/%40acme/docs-mcp@1.4.2'], 'pinned: started by npx at 1.4.2'],
      ['@upstash/context7-mcp', null, 'APPLICATION', ['PACKAGE-MANAGER purl pkg:npm/%40upstash/context7-mcp'], 'not pinned: no version is written, so the newest release is fetched each time the MCP server starts (started by npx)'],
      ['search-mcp', null, 'APPLICATION', ['PACKAGE-MANAGER purl pkg:npm/search-mcp'], 'not pinned: the version is written as "^2.1", so the newest release it allows is fetched each time the MCP server starts (started by npx)'],
      ['ghcr.io/acme/browser', IMAGE_DIGEST, 'CONTAINER', [`PACKAGE-MANAGER purl pkg:oci/browser@sha256%3A${'ab12'.repeat(16)}?repository_url=ghcr.io%2Facme%2Fbrowser`], `pinned: started by docker run at ${IMAGE_DIGEST}`],
      ['mcp-server-fetch', '2025.4.7', 'APPLICATION', ['PACKAGE-MANAGER purl pkg:pypi/mcp-server-fetch@2025.4.7'], 'pinned: started by uvx at ==2025.4.7'],
      ['postgres-mcp', null, 'APPLICATION', ['PACKAGE-MANAGER purl pkg:pypi/postgres-mcp'], 'not pinned: no version is written, so the newest release is fetched each time the MCP server starts (started by uvx)'],
    ]);
  });

  it('is the same document for the same inventory and meta', () => {
    expect(JSON.stringify(spdxDocumentOf(inventory, META))).toBe(JSON.stringify(spdxDocumentOf(inventory, META)));
  });
});

describe('the CycloneDX 1.6 document', () => {
  it('validates against the official schema, with the licences known and unknown', () => {
    expect(cycloneDxSchemaErrors(cycloneDxDocumentOf(inventory, META))).toEqual([]);
    expect(cycloneDxSchemaErrors(cycloneDxDocumentOf(offline, META))).toEqual([]);
  });

  it('has the project as its component, which depends on each loadout, which depends on the packages its MCP servers start', () => {
    const doc = cycloneDxDocumentOf(inventory, META) as { bomFormat: string; specVersion: string; serialNumber: string; metadata: { timestamp: string; tools: { components: { name: string; version: string }[] }; component: { name: string; 'bom-ref': string } }; dependencies: { ref: string; dependsOn?: string[] }[] };
    expect([doc.bomFormat, doc.specVersion, doc.serialNumber, doc.metadata.timestamp, doc.metadata.tools.components.map((t) => `${t.name} ${t.version}`), doc.metadata.component.name]).toEqual(['CycloneDX', '1.6', `urn:uuid:${META.serial}`, '2026-11-28T12:34:56.789Z', ['loadout 9.8.7'], 'my-app']);
    const dependsOn = (ref: string): string[] => doc.dependencies.find((d) => d.ref === ref)?.dependsOn ?? [];
    expect(dependsOn('project')).toEqual(['loadout/1/dbt-analytics@1.0.0', 'loadout/2/discord-bot-ts@1.0.0', 'loadout/3/pinned-kit@2.0.1']);
    expect(dependsOn('loadout/1/dbt-analytics@1.0.0')).toEqual(['mcp-package/pypi:postgres-mcp@']);
    expect(dependsOn('loadout/3/pinned-kit@2.0.1')).toEqual(['mcp-package/local:my-mcp-server@', 'mcp-package/npm:@acme/docs-mcp@1.4.2', 'mcp-package/npm:search-mcp@^2.1', `mcp-package/oci:ghcr.io/acme/browser@${IMAGE_DIGEST}`, 'mcp-package/pypi:mcp-server-fetch@==2025.4.7']);
  });

  it('gives each loadout its version, licence, record and files with their hashes; each package its purl, pin and range', () => {
    type Properties = { name: string; value: string }[];
    type Component = { type: string; name: string; version?: string; purl?: string; licenses?: { license: { id: string } }[]; externalReferences?: { url: string; type: string }[]; hashes?: { alg: string; content: string }[]; properties?: Properties; components?: Component[] };
    const doc = cycloneDxDocumentOf(inventory, META) as { components: Component[] };
    const props = (c: Component | undefined): string[] => (c?.properties ?? []).map((p) => `${p.name}=${p.value}`);
    const source = inventory.loadouts[0]?.source ?? '';
    const dbt = doc.components.find((c) => c.name === 'dbt-analytics');
    expect([dbt?.type, dbt?.version, dbt?.licenses, dbt?.externalReferences, props(dbt)]).toEqual(['library', '1.0.0', [{ license: { id: 'MIT' } }], [{ url: `file://${source}/api/loadouts/dbt-analytics.json`, type: 'distribution', comment: 'the loadout\'s record in its catalogue' }], ['loadout:agent=claude-code', 'loadout:agent=codex', `loadout:catalogue=${source}`]]);
    const files = inventory.loadouts[0]?.files ?? [];
    // The library sorts the lists in its own order: compared by target.
    const byName = (a: (string | unknown)[], b: (string | unknown)[]): number => (String(a[1]) < String(b[1]) ? -1 : 1);
    expect(dbt?.components?.map((f) => [f.type, f.name, f.hashes]).sort(byName)).toEqual(files.map((f) => ['file', f.target, [...(f.sha1 === undefined ? [] : [{ alg: 'SHA-1', content: f.sha1 }]), { alg: 'SHA-256', content: f.sha256 }]]).sort(byName));
    const offlineDoc = cycloneDxDocumentOf(offline, META) as { components: Component[] };
    expect(offlineDoc.components.find((c) => c.name === 'dbt-analytics')?.licenses).toBeUndefined();
    const pkg = (name: string): [string | undefined, string | undefined, string | undefined, string[]] => {
      const c = doc.components.find((x) => x.name === name);
      return [c?.type, c?.version, c?.purl, props(c)];
    };
    expect(pkg('search-mcp')).toEqual(['application', undefined, 'pkg:npm/search-mcp', ['loadout:launcher=npx', 'loadout:mcp-server=pinned-kit search claude-code', 'loadout:pinned=false', 'loadout:registry=npm', 'loadout:version-range=^2.1']]);
    expect(pkg('postgres-mcp')).toEqual(['application', undefined, 'pkg:pypi/postgres-mcp', ['loadout:launcher=uvx', 'loadout:mcp-server=dbt-analytics postgres claude-code', 'loadout:mcp-server=dbt-analytics postgres codex', 'loadout:pinned=false', 'loadout:registry=pypi']]);
    expect(pkg('@acme/docs-mcp')).toEqual(['application', '1.4.2', 'pkg:npm/%40acme/docs-mcp@1.4.2', ['loadout:launcher=npx', 'loadout:mcp-server=pinned-kit docs claude-code', 'loadout:pinned=true', 'loadout:registry=npm']]);
    expect(pkg('ghcr.io/acme/browser')[0]).toBe('container');
  });
});
