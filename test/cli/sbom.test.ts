/**
 * `loadout sbom` (issue 55, point 3) as a user runs it in a project with dbt-analytics and two
 * other loadouts: the consumer CLI's bundle (packed and run through npx, test/helpers/packed-cli.ts,
 * the CycloneDX library bundled in it) and the repository's CLI print CycloneDX 1.6 and SPDX 2.3
 * JSON that the official schemas accept; what stays unknown goes to stderr; a bad --format is a
 * usage error; nothing installed fails unless --allow-empty.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLoadouts } from '../../src/install/install.js';
import { runCli } from '../helpers/cli.js';
import { packedConsumerCli, type PackedCli } from '../helpers/packed-cli.js';
import { cycloneDxSchemaErrors, spdxSchemaErrors } from '../helpers/sbom-schemas.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildSbomCatalogue } from '../install/sbom/sbom-fixture.js';

let folder: string;
let cli: PackedCli;
let project: string;
let dist: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-sbom-cli-'));
  [cli, { dist }] = await Promise.all([packedConsumerCli(), buildSbomCatalogue(join(folder, 'catalogue'))]);
  project = join(folder, 'shop');
  mkdirSync(project);
  await installLoadouts({ from: dist, id: 'dbt-analytics', agents: ['claude-code', 'cursor'], dir: project });
  await installLoadouts({ from: dist, id: 'discord-bot-ts', agents: ['codex'], dir: project });
  await installLoadouts({ from: dist, id: 'pinned-kit', agents: ['gemini-cli'], dir: project });
}, 180_000);
afterAll(() => {
  cli?.remove();
  rmSync(folder, { recursive: true, force: true });
});

type Cdx = { specVersion: string; metadata: { tools: { components: { name: string; version: string }[] } }; components: { name: string; version?: string; licenses?: unknown[] }[] };
type Spdx = { spdxVersion: string; creationInfo: { creators: string[] }; packages: { name: string; licenseDeclared: string }[] };

describe('the consumer CLI (the bundle)', () => {
  it('prints CycloneDX 1.6 by default and SPDX 2.3 with --format spdx, each valid against its schema', async () => {
    const cdx = await cli.run(['sbom', '--dir', project], folder);
    expect([cdx.code, cdx.stderr]).toEqual([0, '']);
    const bom = JSON.parse(cdx.stdout) as Cdx;
    expect(cycloneDxSchemaErrors(bom)).toEqual([]);
    expect([bom.specVersion, bom.metadata.tools.components.map((t) => `${t.name} ${t.version}`)]).toEqual(['1.6', [`loadout ${cli.version}`]]);
    expect(bom.components.filter((c) => c.licenses !== undefined).map((c) => `${c.name} ${c.version ?? ''}`)).toEqual(['dbt-analytics 1.0.0', 'discord-bot-ts 1.0.0', 'pinned-kit 2.0.1']);
    const spdx = await cli.run(['sbom', '--format', 'spdx', '--dir', project], folder);
    expect([spdx.code, spdx.stderr]).toEqual([0, '']);
    const doc = JSON.parse(spdx.stdout) as Spdx;
    expect(spdxSchemaErrors(doc)).toEqual([]);
    expect([doc.spdxVersion, doc.creationInfo.creators]).toEqual(['SPDX-2.3', [`Tool: loadout-${cli.version}`]]);
  }, 120_000);

  it('refuses a format it does not write, naming the two it does', async () => {
    const result = await cli.run(['sbom', '--format', 'xml', '--dir', project], folder);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toContain('loadout: --format is "xml" (expected one of cyclonedx, spdx)');
  }, 60_000);
});

describe('the repository\'s CLI', () => {
  it('says on stderr which licences are NOASSERTION and why, and the SBOM stays valid', async () => {
    const spdx = await runCli(['sbom', '--format', 'spdx', '--offline', '--dir', project], folder);
    expect(spdx.code).toBe(0);
    expect(spdx.stderr.split('\n').filter(Boolean)).toEqual(['dbt-analytics 1.0.0', 'discord-bot-ts 1.0.0', 'pinned-kit 2.0.1'].map((l) => `loadout: notice: the licence of ${l} is NOASSERTION: no catalogue was read (--offline)`));
    const doc = JSON.parse(spdx.stdout) as Spdx;
    expect(spdxSchemaErrors(doc)).toEqual([]);
    expect(doc.packages.filter((p) => ['dbt-analytics', 'discord-bot-ts', 'pinned-kit'].includes(p.name)).map((p) => p.licenseDeclared)).toEqual(['NOASSERTION', 'NOASSERTION', 'NOASSERTION']);
    const cdx = await runCli(['sbom', '--offline', '--dir', project], folder);
    expect(cdx.code).toBe(0);
    expect(cycloneDxSchemaErrors(JSON.parse(cdx.stdout))).toEqual([]);
  }, 60_000);

  it('fails when nothing is installed, unless --allow-empty, which prints an SBOM of no loadout', async () => {
    const empty = makeTempDir();
    const bare = await runCli(['sbom', '--dir', empty], folder);
    expect([bare.code, bare.stdout]).toEqual([1, '']);
    expect(bare.stderr).toContain('loadout: nothing installed: the lock of');
    expect(bare.stderr).toContain('--allow-empty');
    const cdx = await runCli(['sbom', '--allow-empty', '--dir', empty], folder);
    expect(cdx.code).toBe(0);
    expect(cycloneDxSchemaErrors(JSON.parse(cdx.stdout))).toEqual([]);
    const spdx = await runCli(['sbom', '--format', 'spdx', '--allow-empty', '--dir', empty], folder);
    expect(spdx.code).toBe(0);
    expect(spdxSchemaErrors(JSON.parse(spdx.stdout))).toEqual([]);
  }, 60_000);
});
