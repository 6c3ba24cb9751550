/**
 * `npm run corpus:report` (docs/authoring.md "What the checks look for"): runs the checks over
 * the real-world corpus and writes every finding as Markdown, grouped by rule, with file, line
 * and the line's text, so that a reviewer can judge each one. Writes
 * `test-results/corpus-report.md` (git-ignored), or the path given as the first argument, and
 * prints the counts.
 *
 *   npm run corpus:report [-- out.md]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_DIR } from './corpus-loadouts.js';
import { checkCorpus, type CorpusFinding } from './corpus-findings.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const out = resolve(REPO, process.argv[2] ?? 'test-results/corpus-report.md');

/** A table cell: one line, at most 160 characters, pipes escaped (GFM tables); outside code, `<` and backslashes too. */
function cell(text: string, code = false): string {
  const one = text.replace(/\s+/gu, ' ').trim();
  const short = one.length > 160 ? `${one.slice(0, 157)}…` : one;
  return code ? short.replace(/\|/gu, '\\|') : short.replace(/\\/gu, '\\\\').replace(/\|/gu, '\\|').replace(/</gu, '&lt;');
}

/** A code span holding `text`, fenced with more backticks than it has in a row (CommonMark 6.1). */
function code(text: string): string {
  if (text === '') return '';
  const longest = Math.max(0, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${cell(text, true)} ${fence}`;
}

function report(items: number, findings: CorpusFinding[]): string {
  const blocking = findings.filter((f) => f.severity === 'blocking');
  const lines = [
    '# Findings of the checks over the real-world corpus',
    '',
    `Corpus: \`${CORPUS_DIR}\`. ${items} items, ${findings.length} findings: ${blocking.length} blocking (fail their check), ${findings.length - blocking.length} notices.`,
    '',
    '| rule | blocking | notices |',
    '|---|---:|---:|',
  ];
  const rules = [...new Set(findings.map((f) => f.rule))].sort();
  for (const rule of rules) {
    const of = findings.filter((f) => f.rule === rule);
    const b = of.filter((f) => f.severity === 'blocking').length;
    lines.push(`| [${rule}](#${rule.replace(/[^a-z0-9-]/gu, '')}) | ${b} | ${of.length - b} |`);
  }
  for (const rule of rules) {
    lines.push('', `## ${rule}`, '', '| kind | file | line | text | message |', '|---|---|---:|---|---|');
    const of = findings.filter((f) => f.rule === rule).sort((a, b) => (a.severity === b.severity ? (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1) : a.severity === 'blocking' ? -1 : 1));
    for (const f of of) lines.push(`| ${f.severity} | ${cell(f.file)} | ${f.line ?? ''} | ${code(f.text)} | ${cell(f.message)} |`);
  }
  return `${lines.join('\n')}\n`;
}

const { items, findings } = await checkCorpus();
if (items.length === 0) {
  process.stderr.write(`corpus:report: no corpus at ${CORPUS_DIR} (set LOADOUT_CORPUS_DIR)\n`);
  process.exitCode = 1;
} else {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, report(items.length, findings));
  const blocking = findings.filter((f) => f.severity === 'blocking').length;
  process.stdout.write(`${out}: ${items.length} items, ${blocking} blocking findings, ${findings.length - blocking} notices\n`);
}
