/**
 * The consumer CLI's boundary (DESIGN.md section 3): the import graph of its bundle, as
 * esbuild's metafile records it, reaches none of the verifier, the builder, storage, the bot,
 * publish or the server, no native module and no authoring-only package; the bundle needs
 * nothing but Node's own modules; and the package declares no dependencies.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleConsumerCli, CLI_PACKAGE_DIR } from '../../src/tree/cli-package/bundle.js';

const FORBIDDEN_SOURCE = /^src\/(?:verify|tree|storage|bot|publish|server|submissions)\//u;
const FORBIDDEN_PACKAGE = /node_modules\/(?:better-sqlite3|pg|ajv|ajv-formats|@secretlint\/[^/]+|secretlint|js-yaml|spdx-license-ids)\//u;

describe('the consumer CLI bundle', () => {
  it('reaches no forbidden room, package or native module, and imports only the built-in modules of Node', async () => {
    const bundled = await bundleConsumerCli('0.0.0');
    expect(bundled).toBeDefined();
    const { inputs, externals, text } = bundled as NonNullable<typeof bundled>;
    // The graph is the real one: the installer and search are in it.
    expect(inputs).toContain('src/install/install.ts');
    expect(inputs).toContain('src/search/engine.ts');
    expect(inputs).toContain('src/install/catalogue/catalogue-reader.ts');
    expect(inputs.filter((f) => FORBIDDEN_SOURCE.test(f))).toEqual([]);
    expect(inputs.filter((f) => FORBIDDEN_PACKAGE.test(f))).toEqual([]);
    expect(inputs.filter((f) => f.endsWith('.node'))).toEqual([]);
    expect(externals.filter((e) => !builtinModules.includes(e.replace(/^node:/u, '')))).toEqual([]);
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
  });

  it('is a package with a loadout bin, ES modules, Node 20 and no dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(CLI_PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['bin']).toEqual({ loadout: 'dist/loadout.mjs' });
    expect(pkg['type']).toBe('module');
    expect(pkg['engines']).toEqual({ node: '>=20' });
    expect(pkg['dependencies']).toBeUndefined();
  });
});
