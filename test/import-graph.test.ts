/**
 * The import graph of the code.
 *
 * - The consumer CLI's boundary (DESIGN.md section 3): the import graph of its bundle, as
 *   esbuild's metafile records it, reaches none of the verifier, the builder, storage, the bot,
 *   publish or the server, no native module and no authoring-only package; the bundle needs
 *   nothing but Node's own modules; and the package declares no dependencies.
 * - The rooms' directions (DESIGN.md, "Directions"): no import of `src/`, type-only ones
 *   included, goes the wrong way (`test/helpers/import-graph.ts` holds the rules), and the
 *   diagram of the rules in docs/architecture.md is the one the rules draw.
 * - The installer's one handle on the project (issue 53, point 1): under `src/install/`, only
 *   `project/project-root.ts` (and, for a built tree, `catalogue/catalogue-folder.ts`) imports
 *   `node:fs` or the catalogue's path-based readers.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleConsumerCli, CLI_PACKAGE_DIR } from '../src/tree/cli-package/bundle.js';
import { FILE_SYSTEM_ACCESS, findFileSystemImports, findWrongWayImports, readImportGraph, roomsDiagram } from './helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..');

/**
 * Wrong-way imports that another change under way removes. Each must still be in the code: when
 * it is gone, this list must lose it, so that the rule holds for it again. (The MCP file formats
 * moved from the installer down into layout/mcp-formats.ts, issue 33.)
 */
const BEING_MOVED: string[] = [];

/** The block of docs/architecture.md between the markers, which {@link roomsDiagram} draws. */
const DIAGRAM_BEGIN = '<!-- rooms-diagram: drawn from test/helpers/import-graph.ts; test/import-graph.test.ts checks it -->';
const DIAGRAM_END = '<!-- /rooms-diagram -->';

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

describe('the rooms of src/', () => {
  it('import only in the directions the design allows, type-only imports included', () => {
    const wrong = findWrongWayImports(readImportGraph(ROOT));
    const pending = wrong.filter((line) => BEING_MOVED.some((edge) => line.startsWith(`${edge}:`)));
    expect(wrong.filter((line) => !pending.includes(line))).toEqual([]);
    // A wrong-way import listed as being moved is still there; once moved, drop it from the list.
    expect(pending.map((line) => line.slice(0, line.indexOf(':')))).toEqual(BEING_MOVED);
  });

  it('fail on a wrong-way import, naming both files, whether it imports a value, a type or a module at run time', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'src/catalogue/vocabulary.ts': "import type { Page } from '../pages/page.js';\nexport type Word = Page;\n",
      'src/pages/page.ts': "export { problem } from '../server/problem.js';\nexport type Page = string;\n",
      'src/search/engine.ts': "export const load = () => import('../tree/build.js');\nimport { Word } from '../catalogue/vocabulary.js';\nexport type W = Word;\n",
      'src/tree-format/record.ts': "import type { Word } from '../catalogue/vocabulary.js';\nimport type { Check } from '../verify/check.js';\nexport type R = Word | Check;\n",
      'src/layout/plan.ts': "import { x } from './table.js';\nexport const y = x;\n",
      'src/layout/table.ts': 'export const x = 1;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    expect(findWrongWayImports(readImportGraph(root))).toEqual([
      'src/catalogue/vocabulary.ts → src/pages/page.ts: catalogue/ may not import pages/ (the vocabulary: imports nothing else of the project)',
      'src/pages/page.ts → src/server/problem.ts: pages/ may not import server/ (shares shapes with server/ and submissions/ through tree-format/)',
      'src/search/engine.ts → src/tree/build.ts: search/ may not import tree/ (reads the published format, never the builder)',
      'src/tree-format/record.ts → src/verify/check.ts: tree-format/ may not import verify/ (the published format: imports only the vocabulary)',
    ]);
  });

  it('are drawn in docs/architecture.md as the rules say', () => {
    const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const begin = text.indexOf(DIAGRAM_BEGIN);
    const end = text.indexOf(DIAGRAM_END);
    expect(begin, `docs/architecture.md has no line ${DIAGRAM_BEGIN}`).toBeGreaterThanOrEqual(0);
    expect(end, `docs/architecture.md has no line ${DIAGRAM_END} after the diagram`).toBeGreaterThan(begin);
    // On a difference, paste the expected block (vitest shows it) between the two markers.
    expect(text.slice(begin + DIAGRAM_BEGIN.length, end)).toBe(`\n\`\`\`mermaid\n${roomsDiagram()}\n\`\`\`\n`);
  });
});

describe('the file system under src/install/', () => {
  it('is reached only through the project\'s handle and the catalogue reader\'s folder access', () => {
    expect(findFileSystemImports(ROOT)).toEqual([]);
    // Each exception is still a file that needs it.
    for (const file of Object.keys(FILE_SYSTEM_ACCESS)) expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/from 'node:fs(?:\/promises)?'/u);
  });

  it('fails naming the file that imports node:fs, whatever the spelling, and the one that goes round the handle', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-graph-fs-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const files: Record<string, string> = {
      'src/install/project/project-root.ts': "import { open } from 'node:fs/promises';\nexport const o = open;\n",
      'src/install/status.ts': "import { existsSync } from 'node:fs';\nexport const e = existsSync;\n",
      'src/install/project/backups.ts': "import type { Stats } from 'fs';\nexport type S = Stats;\n",
      'src/install/run-plan.ts': "export const load = () => import('node:fs/promises');\n",
      'src/install/project/lock.ts': "import { readRegularFile } from '../../catalogue/read-at-most.js';\nexport const r = readRegularFile;\n",
      'src/install/plan.ts': "import { openProject } from './project/project-root.js';\nexport const p = openProject;\n",
      'src/catalogue/read-at-most.ts': "import { open } from 'node:fs/promises';\nexport const readRegularFile = open;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const why = "under src/install/ only src/install/project/project-root.ts and src/install/catalogue/catalogue-folder.ts may reach the file system (every path of a project goes through the project's handle)";
    expect(findFileSystemImports(root)).toEqual([
      `src/install/project/backups.ts imports fs: ${why}`,
      `src/install/project/lock.ts imports src/catalogue/read-at-most.ts: ${why}`,
      `src/install/run-plan.ts imports node:fs/promises: ${why}`,
      `src/install/status.ts imports node:fs: ${why}`,
    ]);
  });
});
