/**
 * Test helpers: temporary folders and real git repositories, removed when the test ends.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh temporary folder, removed when the current test finishes. A build's detached deleter
 * (src/tree/write/trash.ts) may still be claiming a trash folder of a store below it by a
 * rename, which makes a folder being removed not empty again (ENOTEMPTY): the removal is then
 * tried again (Node's `maxRetries`, 100 ms more between each).
 */
export function makeTempDir(prefix = 'loadout-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return dir;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Runs git in `dir` with a fixed identity; returns stdout. */
export function git(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, { cwd: dir, env: { ...GIT_ENV, ...env }, encoding: 'utf8' });
}

/** `git init` with branch main. */
export function initRepo(dir: string): void {
  git(dir, ['init', '-q', '-b', 'main']);
}

/** Stages everything and commits, optionally at a fixed date (ISO 8601). Returns the sha. */
export function commitAll(dir: string, message: string, date?: string): string {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message], date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  return git(dir, ['rev-parse', 'HEAD']).trim();
}
