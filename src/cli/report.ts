/**
 * The one reporter: check runs and diagnostics as a terminal table or as JSON.
 */
import { formatDiagnostic } from '../catalogue/diagnostics.js';
import type { CheckRun } from '../verify/run.js';

/** Writes text somewhere (stdout or stderr). */
export type Write = (text: string) => void;

/** `--json` form of check runs: `[{id, valid|verification…}]`. */
export function runsAsJson(runs: readonly CheckRun[], shape: (run: CheckRun) => Record<string, unknown>): string {
  return `${JSON.stringify(runs.map((run) => ({ id: run.source.id, ...shape(run) })), null, 2)}\n`;
}

/** Every diagnostic of `runs`, one `file:line: message` line each. */
export function formatDiagnostics(runs: readonly CheckRun[]): string {
  return runs.flatMap((r) => r.diagnostics.map((d) => `loadout: ${formatDiagnostic(d)}\n`)).join('');
}

const STATUS_MARK: Record<string, string> = { pass: 'pass', fail: 'FAIL', 'n/a': 'n/a', skip: 'skip' };

/**
 * A table per loadout: check, status, summary and the first `maxDetails` detail lines.
 */
export function formatRunsTable(runs: readonly CheckRun[], maxDetails = 3): string {
  const lines: string[] = [];
  for (const run of runs) {
    const failed = run.results.filter((r) => r.status === 'fail').length;
    lines.push(`${run.source.id}: ${failed === 0 ? 'ok' : `${failed} failing check${failed === 1 ? '' : 's'}`}`);
    const width = Math.max(...run.results.map((r) => r.id.length));
    for (const result of run.results) {
      lines.push(`  ${result.id.padEnd(width)}  ${(STATUS_MARK[result.status] ?? result.status).padEnd(4)}  ${result.summary}`);
      const shown = result.details.slice(0, maxDetails);
      for (const detail of shown) lines.push(`  ${' '.repeat(width)}        ${detail}`);
      if (result.details.length > shown.length) lines.push(`  ${' '.repeat(width)}        … and ${result.details.length - shown.length} more (use --json for all)`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
