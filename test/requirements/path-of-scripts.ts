/**
 * A `PATH` made of shell scripts in a temporary folder, for the requirement checks: each tool is
 * a script that prints what the real one prints for its version flag.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Writes one executable script per entry (name → body after the shebang) into a new folder removed after the test; returns the folder. */
export function pathOfScripts(scripts: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'loadout-path-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(folder, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(folder, name), 0o755);
  }
  return folder;
}

/** A script body that prints `text` on stdout (or stderr) whatever its arguments. */
export const prints = (text: string, stream: 'stdout' | 'stderr' = 'stdout'): string => `printf '%s\\n' '${text.replaceAll("'", "'\\''")}'${stream === 'stderr' ? ' >&2' : ''}`;
