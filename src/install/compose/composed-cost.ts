/**
 * The context cost of what is installed, composed: per agent, every file its installs hold
 * (after a plan), each counted once, shared instruction files whole with the user's text and
 * every loadout's block in them. The estimator is `layout/context-cost.ts` (what loads at
 * session start and what on demand, `ceil(bytes / 4)` tokens); here it reads the composed files
 * instead of one loadout's. Pure.
 */
import type { FileEntry } from '../../catalogue/manifest.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import { measureContext, type ContextCost } from '../../layout/context-cost.js';
import type { LockFile } from '../project/lock.js';

/**
 * The context cost for `agent` of every file its installs in `lock` hold, read with
 * `readText(target)` (the bytes after the plan; undefined counts 0).
 */
export function measureComposed(lock: LockFile, agent: Agent, readText: (target: string) => string | undefined): ContextCost {
  const seen = new Set<string>();
  const entries: FileEntry[] = [];
  for (const entry of lock.installs.filter((e) => e.agent === agent)) {
    for (const file of entry.files) {
      if (seen.has(file.target) || file.role === undefined) continue;
      seen.add(file.target);
      // The target stands for the path: the estimator reads it back with readText.
      entries.push({ path: file.target, role: file.role, description: '' });
    }
  }
  return measureContext(entries, agent, readText, () => ({ target: '', overridden: false }));
}
