/**
 * The consumer CLI's package kept between builds (pack-cache.ts): taken while every file it was
 * bundled from is unchanged, and not when one changed, went, or the kept tarball is not the one
 * its key was written with.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepPackage, packageKey, readKeptPackage, removeKeepLeftovers, type PackedCli } from '../../../src/tree/cli-package/pack-cache.js';
import { packConsumerCli } from '../../../src/tree/cli-package/pack.js';
import { makeTempDir } from '../../helpers/temp.js';

/** A repository root with the consumer package's package.json and two sources. */
function repository(): string {
  const root = makeTempDir();
  mkdirSync(join(root, 'packages', 'cli'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'packages', 'cli', 'package.json'), '{"name":"loadout-cli","version":"1.0.0"}\n');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  return root;
}

const packed = (tarball: Buffer): PackedCli => ({ name: 'loadout-cli', version: '1.0.0', tarball, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`, inputs: ['src/a.ts', 'src/b.ts'] });

describe('the kept consumer package', () => {
  it('is taken while its inputs and package.json are unchanged, and not after any of them changed or went', () => {
    const root = repository();
    const trees = join(makeTempDir(), '.dist.trees');
    const cli = packed(Buffer.from('a tarball'));
    keepPackage(trees, cli, root);
    expect(readdirSync(trees).sort()).toEqual(['.cli-package.json', '.cli-package.tgz']);
    expect(readKeptPackage(trees, root)).toEqual(cli);

    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 3;\n');
    expect(readKeptPackage(trees, root)).toBeUndefined();
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    expect(readKeptPackage(trees, root)).toEqual(cli);
    writeFileSync(join(root, 'packages', 'cli', 'package.json'), '{"name":"loadout-cli","version":"1.0.1"}\n');
    expect(readKeptPackage(trees, root)).toBeUndefined();
    writeFileSync(join(root, 'packages', 'cli', 'package.json'), '{"name":"loadout-cli","version":"1.0.0"}\n');
    rmSync(join(root, 'src', 'a.ts'));
    expect(packageKey(cli.inputs, root)).toBeUndefined();
    expect(readKeptPackage(trees, root)).toBeUndefined();
  });

  it('leaves no temporary name of a killed build once the next one looks for the package', () => {
    const trees = join(makeTempDir(), '.dist.trees');
    mkdirSync(trees, { recursive: true });
    for (const name of ['.cli-package.tgz.123.tmp', '.cli-package.json.456.tmp', 'keep.tmp', '.cli-package.json']) writeFileSync(join(trees, name), 'x');
    removeKeepLeftovers(trees);
    expect(readdirSync(trees).sort()).toEqual(['.cli-package.json', 'keep.tmp']);
  });

  it('is not taken when the tarball is not the one its key was written with, or nothing was kept', () => {
    const root = repository();
    const trees = join(makeTempDir(), '.dist.trees');
    expect(readKeptPackage(trees, root)).toBeUndefined();
    keepPackage(trees, packed(Buffer.from('a tarball')), root);
    writeFileSync(join(trees, '.cli-package.tgz'), 'another tarball');
    expect(readKeptPackage(trees, root)).toBeUndefined();
    writeFileSync(join(trees, '.cli-package.json'), '{not json');
    expect(readKeptPackage(trees, root)).toBeUndefined();
  });

  it("keeps what the repository's own bundle was made from, which then gives the same key", async () => {
    const trees = join(makeTempDir(), '.dist.trees');
    const cli = await packConsumerCli(trees);
    if (cli === undefined) return; // neither esbuild nor a built bundle: nothing is packed
    const kept = readKeptPackage(trees);
    expect(kept?.tarball.equals(cli.tarball)).toBe(true);
    expect(kept?.inputs).toContain('src/cli/consumer-main.ts');
  });

  it('keeps the package in each trees folder a process packs for, not only the first', async () => {
    const [first, second] = [join(makeTempDir(), '.dist.trees'), join(makeTempDir(), '.dist.trees')];
    const cli = await packConsumerCli(first);
    if (cli === undefined) return; // neither esbuild nor a built bundle: nothing is packed
    expect((await packConsumerCli(second))?.tarball.equals(cli.tarball)).toBe(true);
    for (const trees of [first, second]) expect(readKeptPackage(trees)?.tarball.equals(cli.tarball)).toBe(true);
  });
});
