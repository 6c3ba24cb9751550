/**
 * The one reporter: check runs and diagnostics as a terminal table or as JSON.
 */
import { formatDiagnostic } from '../catalogue/diagnostics.js';
import { NOTICE_PREFIX, type CheckRun } from '../verify/run.js';

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
 * A table per loadout: check, status, summary, then the first `maxDetails` of its problem
 * lines and the first `maxNotices` of its notices (`notice: file:line: message`,
 * docs/authoring.md, "What the checks look for"), each list saying how many more `--json`
 * holds (`verify` on a terminal passes `Infinity`: every line). The loadout's line counts failing checks and notices: `id: ok`, `id: ok, 2 notices`,
 * `id: 1 failing check, 1 notice`.
 */
export function formatRunsTable(runs: readonly CheckRun[], maxDetails = 3, maxNotices = 10): string {
  const lines: string[] = [];
  for (const run of runs) {
    const failed = run.results.filter((r) => r.status === 'fail').length;
    const notices = run.results.reduce((n, r) => n + r.details.filter(isNotice).length, 0);
    const verdict = failed === 0 ? 'ok' : `${failed} failing check${failed === 1 ? '' : 's'}`;
    lines.push(`${run.source.id}: ${verdict}${notices === 0 ? '' : `, ${notices} notice${notices === 1 ? '' : 's'}`}`);
    const width = Math.max(...run.results.map((r) => r.id.length));
    const indent = `  ${' '.repeat(width)}        `;
    for (const result of run.results) {
      lines.push(`  ${result.id.padEnd(width)}  ${(STATUS_MARK[result.status] ?? result.status).padEnd(4)}  ${result.summary}`);
      for (const [list, max] of [[result.details.filter((d) => !isNotice(d)), maxDetails], [result.details.filter(isNotice), maxNotices]] as const) {
        for (const detail of list.slice(0, max)) lines.push(`${indent}${detail}`);
        if (list.length > max) lines.push(`${indent}… and ${list.length - max} more (use --json for all)`);
      }
    }
    lines.push('');
  }
  return lines.join('\n');
}

const isNotice = (detail: string): boolean => detail.startsWith(NOTICE_PREFIX);

/**
 * A GitHub-flavoured Markdown section per loadout (for a job summary, `$GITHUB_STEP_SUMMARY`):
 * a heading with the verdict, then a table of check, status and summary, with each check's
 * detail lines (problems first, then notices) below its summary. Every value is escaped
 * (`&`, `<`, `>`, `|`, backticks, line breaks), since loadout content comes from contributors.
 */
export function formatRunsMarkdown(runs: readonly CheckRun[]): string {
  const lines: string[] = [];
  for (const run of runs) {
    const failed = run.results.filter((r) => r.status === 'fail').length;
    const notices = run.results.reduce((n, r) => n + r.details.filter(isNotice).length, 0);
    const verdict = failed === 0 ? '✅ passes every check' : `❌ ${failed} failing check${failed === 1 ? '' : 's'}`;
    lines.push(`### ${escapeMarkdown(run.source.id)}: ${verdict}${notices === 0 ? '' : `, ${notices} notice${notices === 1 ? '' : 's'}`}`, '', '| check | status | summary |', '|---|---|---|');
    for (const result of run.results) {
      const details = [...result.details.filter((d) => !isNotice(d)), ...result.details.filter(isNotice)];
      const cell = [escapeMarkdown(result.summary), ...details.map((d) => `• ${escapeMarkdown(d)}`)].join('<br>');
      lines.push(`| ${escapeMarkdown(result.id)} | ${result.status === 'fail' ? '**fail**' : escapeMarkdown(result.status)} | ${cell} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** `text` as literal text inside a Markdown table cell. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/([\\`|*_[\]])/gu, '\\$1')
    .replace(/\r?\n/gu, ' ');
}
