/**
 * The packed consumer CLI (test/helpers/packed-cli.ts) and the life-cycle catalogue (`kit`
 * 1.0.0 and 1.1.0, test/install/lifecycle-fixture.ts) built into a temporary folder, made once
 * for a test file and removed after it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { packedConsumerCli, type PackedCli } from '../helpers/packed-cli.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from '../install/lifecycle-fixture.js';

/** What the file's tests use, set once its `beforeAll` ran. */
export interface TarballFixture {
  cli: PackedCli;
  catalogue: LifecycleCatalogue;
}

/** Registers the `beforeAll` that packs the CLI and builds the catalogue, and the `afterAll` that removes both. */
export function useTarballFixture(): TarballFixture {
  const fixture = {} as TarballFixture;
  let root = '';
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loadout-tarball-'));
    mkdirSync(join(root, 'catalogue'));
    [fixture.cli, fixture.catalogue] = await Promise.all([packedConsumerCli(), buildLifecycleCatalogue(join(root, 'catalogue'))]);
  }, 120_000);
  afterAll(() => {
    fixture.cli?.remove();
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });
  return fixture;
}
