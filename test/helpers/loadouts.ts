/**
 * Building small, valid loadouts on disk for tests. `writeLoadout` writes a folder whose
 * checks all pass; tests then break one thing on purpose.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { generateAdapter } from '../../src/adapters/generate.js';

/** A file to write: path relative to the loadout folder, text, and its manifest entry fields. */
export interface TestFile {
  path: string;
  role: string;
  description?: string;
  agent?: string;
  skill?: string;
  install_to?: Record<string, string | null>;
  content: string;
}

/** Options of {@link writeLoadout}; `manifest` fields override the defaults. */
export interface TestLoadout {
  id: string;
  title?: string;
  version?: string;
  files?: TestFile[];
  manifest?: Record<string, unknown>;
}

/** The AGENTS.md, CLAUDE.md and GEMINI.md every valid loadout has. */
export function baseFiles(title: string, agentsMd = `# ${title}\n\nUse TypeScript strict mode. Run \`npm test\` before you commit.\n`): TestFile[] {
  return [
    { path: 'AGENTS.md', role: 'instructions', content: agentsMd },
    { path: 'CLAUDE.md', role: 'adapter', agent: 'claude-code', content: generateAdapter('claude-code', title) },
    { path: 'GEMINI.md', role: 'adapter', agent: 'gemini-cli', content: generateAdapter('gemini-cli', title) },
  ];
}

/** The manifest object for a test loadout (authoring form). */
export function testManifest(spec: TestLoadout): Record<string, unknown> {
  const title = spec.title ?? `Test ${spec.id}`;
  const files = spec.files ?? baseFiles(title);
  return {
    id: spec.id,
    type: 'loadout',
    title,
    summary: `A test loadout called ${spec.id} for the test suite.`,
    description: `This loadout exists to exercise the catalogue in tests: ${spec.id}.`,
    highlights: ['Exercises the catalogue'],
    version: spec.version ?? '1.0.0',
    license: 'MIT',
    author: { name: 'Test Author', url: 'https://example.com/author' },
    categories: ['workflow'],
    stacks: ['typescript'],
    files: files.map(({ content: _content, ...entry }) => ({ description: `The ${entry.path} file`, ...entry })),
    requires: { tools: [], env: [], mcp: [] },
    tested: { status: 'untested', last_run: null, fixture: null },
    security: { scanned: true, network: false, scripts: [] },
    last_checked: '2026-11-22',
    ...spec.manifest,
  };
}

/**
 * Writes `<root>/loadouts/<id>/` with `loadout.yaml` and the files. Returns the folder.
 */
export function writeLoadout(root: string, spec: TestLoadout): string {
  const dir = join(root, 'loadouts', spec.id);
  const title = spec.title ?? `Test ${spec.id}`;
  const files = spec.files ?? baseFiles(title);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'loadout.yaml'), stringify(testManifest({ ...spec, files })));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
  return dir;
}
