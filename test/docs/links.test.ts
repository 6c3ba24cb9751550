/**
 * Every relative link and anchor in the README and the guides (`docs/*.md`) resolves: the
 * project's own `references` check runs over the repository's files as if they were one
 * loadout, so a renamed guide, a moved heading or a lost picture fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LoadoutSource } from '../../src/catalogue/source.js';
import { runChecks } from '../../src/verify/run.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The repository's files (tracked, and new ones git does not ignore), by path. */
function repositoryFiles(): Map<string, Uint8Array> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' });
  const files = new Map<string, Uint8Array>();
  for (const path of listed.split('\0')) {
    if (path === '' || path.startsWith('test/fixtures/') || path.startsWith('loadouts/')) continue;
    try {
      files.set(path, readFileSync(join(REPO, path)));
    } catch {
      // Deleted in the working tree but still in the index.
    }
  }
  return files;
}

describe('the README and the guides', () => {
  it('have only links and anchors that resolve', async () => {
    const all = repositoryFiles();
    const docs = [...all.keys()].filter((p) => p === 'README.md' || p === 'SECURITY.md' || (p.startsWith('docs/') && p.endsWith('.md')));
    expect(docs).toContain('docs/installing.md');
    // The Markdown files under test, and every other file as a link target (not scanned).
    const files = new Map([...all].filter(([p]) => docs.includes(p) || !p.endsWith('.md')));
    const source: LoadoutSource = { id: 'repository', displayDir: '.', manifestText: undefined, files, irregular: [] };
    const run = await runChecks(source, { only: ['references'] });
    const result = run.results.find((r) => r.id === 'references');
    expect(result?.details ?? []).toEqual([]);
    expect(result?.status).toBe('pass');
  });

  it('keep the README to a two-minute read', () => {
    const lines = readFileSync(join(REPO, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });
});
