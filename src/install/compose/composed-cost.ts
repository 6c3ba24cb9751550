/**
 * The context cost of what is installed, composed: per agent, every file its installs hold
 * (after a plan), each counted once, shared instruction files whole with the user's text and
 * every loadout's block in them. The estimator is `layout/context-cost.ts` (what loads at
 * session start and what on demand, `ceil(bytes / 4)` tokens); here it reads the composed files
 * instead of one loadout's. The agents' documented caps (`layout/context-caps.ts`) are checked
 * over the same composed files. Pure.
 */
import type { FileEntry } from '../../catalogue/manifest.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import { measureContext, type ContextCost } from '../../layout/context-cost.js';
import { checkFileCaps, checkSkillsList, type CapWarning } from '../../layout/context-caps.js';
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

/**
 * The documented context caps (`layout/context-caps.ts`) that what `agent`'s installs in `lock`
 * hold passes: each file read with `readText(target)`, and the names and descriptions of its
 * skills together. Only caps a file `touched(target)` is part of are reported (default: all).
 */
export function capWarnings(lock: LockFile, agent: Agent, readText: (target: string) => string | undefined, touched: (target: string) => boolean = () => true): CapWarning[] {
  const targets = [...new Set(lock.installs.filter((e) => e.agent === agent).flatMap((e) => e.files.map((f) => f.target)))];
  const files = targets.flatMap((target) => {
    const text = readText(target);
    return text === undefined || !touched(target) ? [] : checkFileCaps(agent, target, text);
  });
  const skills = targets.filter((t) => t.endsWith('/SKILL.md'));
  const list = skills.some(touched) ? checkSkillsList(agent, skills.flatMap((t) => readText(t) ?? [])) : [];
  return [...files, ...list];
}
