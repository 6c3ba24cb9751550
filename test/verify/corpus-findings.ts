/**
 * Every finding of the ten checks over the real-world corpus (docs/authoring.md "What the
 * checks look for"): each item is wrapped in a loadout (`corpus-loadouts.ts`), the catalogue is
 * checked as `loadout verify` checks it, and each finding is mapped back to the corpus file and
 * line it points at, with that line's text, so that a reviewer can judge it. Shared by the
 * corpus test and `npm run corpus:report`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Severity } from '../../src/verify/check.js';
import { checkCatalogue } from '../../src/verify/catalogue.js';
import type { CheckRun } from '../../src/verify/run.js';
import { CORPUS_DIR, readCorpus, writeCorpusLoadout, type CorpusItem } from './corpus-loadouts.js';

/** One finding over the corpus. */
export interface CorpusFinding {
  /** The corpus item (`superpowers/skills/brainstorming`). */
  item: string;
  /** The wrapper loadout's id. */
  loadout: string;
  check: string;
  rule: string;
  severity: Severity;
  /** The corpus file (relative to the corpus folder), or the wrapper's file (`loadout.yaml`, …). */
  file: string;
  line: number | undefined;
  /** The text of that line, trimmed; '' when the finding names no line. */
  text: string;
  message: string;
}

/** The corpus's items, the runs of the checks over them, and every finding. */
export interface CorpusCheck {
  items: CorpusItem[];
  runs: CheckRun[];
  findings: CorpusFinding[];
}

/**
 * Wraps every item of the corpus at `dir` in a temporary catalogue, checks it, and returns
 * each finding located in the corpus. The temporary folder is removed before returning.
 * @throws Error when two items get the same loadout id (the wrapper's slugs must stay unique).
 */
export async function checkCorpus(dir = CORPUS_DIR): Promise<CorpusCheck> {
  const items = readCorpus(dir);
  const byId = new Map<string, CorpusItem>();
  for (const item of items) {
    const other = byId.get(item.id);
    if (other !== undefined) throw new Error(`corpus items ${other.name} and ${item.name} both wrap as loadout ${item.id}`);
    byId.set(item.id, item);
  }
  const root = mkdtempSync(join(tmpdir(), 'loadout-corpus-'));
  try {
    for (const item of items) writeCorpusLoadout(root, item);
    // The budget is the clock's (budget.ts): on a loaded machine 5 s ran out for items that take
    // 50 ms alone. What is judged here is the findings, not the machine's speed (the budget has its tests).
    const runs = await checkCatalogue({ root }, [], { budgetMs: 3_600_000 });
    const findings: CorpusFinding[] = [];
    for (const run of runs) {
      const item = byId.get(run.source.id);
      if (item === undefined) throw new Error(`a run for ${run.source.id}, which is no corpus item`);
      const prefix = `loadouts/${item.id}/`;
      for (const f of run.findings ?? []) {
        const path = f.file.startsWith(prefix) ? f.file.slice(prefix.length) : f.file;
        const file = item.files.find((x) => x.path === path);
        const text = file === undefined || f.line === undefined ? '' : (file.content.split('\n')[f.line - 1] ?? '').trim();
        findings.push({ item: item.name, loadout: item.id, check: f.check, rule: f.rule, severity: f.severity, file: file?.source ?? path, line: f.line, text, message: f.message });
      }
    }
    return { items, runs, findings };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
