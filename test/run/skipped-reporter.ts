/**
 * A vitest reporter that ends the run with one line per group of skipped tests: what they need
 * that is missing here, how many, and how to run them (issue 57, point 13). A test's group is
 * the requirement it, or a suite above it, was declared with (requirements.ts, `meta.requires`)
 * and that is not met here; the others skipped (declared with none, or with one that is met, as
 * when a hook failed) are counted on one line that names their files, unless the run was
 * narrowed by a name pattern (`-t`), which skips the rest on purpose.
 */
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { RequirementTag } from './requirements.js';

/** One skipped test: its file (relative to the project) and the requirement it was declared with. */
export interface SkippedTest {
  file: string;
  requires: RequirementTag | undefined;
}

/**
 * The lines that explain `skipped`: a heading, then per requirement not met (in order of first
 * appearance) "<missing>: N tests (<enable>)", then those skipped for another reason (none
 * declared, or one that was met: a hook failed) by file, unless `narrowed`. No lines when
 * nothing was skipped. Pure.
 */
export function describeSkipped(skipped: readonly SkippedTest[], narrowed: boolean): string[] {
  const groups = new Map<string, { tag: RequirementTag; count: number }>();
  const undeclared = new Map<string, number>();
  for (const test of skipped) {
    if (test.requires === undefined || test.requires.met) {
      undeclared.set(test.file, (undeclared.get(test.file) ?? 0) + 1);
      continue;
    }
    const group = groups.get(test.requires.id) ?? { tag: test.requires, count: 0 };
    group.count++;
    groups.set(test.requires.id, group);
  }
  const lines = [...groups.values()].map(({ tag, count }) => `  ${tag.missing}: ${tests(count)} (${tag.enable})`);
  const others = [...undeclared.values()].reduce((a, b) => a + b, 0);
  if (others > 0 && !narrowed) {
    lines.push(`  skipped for no requirement missing here: ${tests(others)} in ${[...undeclared.keys()].sort().join(', ')} (a failed hook skips its tests; declare what a test needs with test/run/requirements.ts)`);
  }
  if (lines.length === 0) return [];
  return [`Skipped tests, by what they need (${tests(skipped.length - (narrowed ? others : 0))}):`, ...lines];
}

const tests = (n: number): string => `${n} test${n === 1 ? '' : 's'}`;

/** The requirement of `test`: its own tag, else the nearest suite's above it. */
function requirementOf(test: TestCase): RequirementTag | undefined {
  if (test.meta().requires !== undefined) return test.meta().requires;
  for (let parent: TestSuite | TestModule = test.parent; parent.type === 'suite'; parent = parent.parent) {
    const tag = parent.meta().requires;
    if (tag !== undefined) return tag;
  }
  return undefined;
}

/** The reporter (`vitest.config.ts` `reporters`); it prints after the summary. */
export default class SkippedReporter implements Reporter {
  private vitest: Vitest | undefined;
  private skipped: SkippedTest[] = [];

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const root = this.vitest?.config.root ?? process.cwd();
    this.skipped = modules.flatMap((module) => [...module.children.allTests('skipped')].map((test) => ({ file: relative(root, module.moduleId), requires: requirementOf(test) })));
  }

  onFinished(): void {
    const vitest = this.vitest;
    if (vitest === undefined) return;
    const lines = describeSkipped(this.skipped, vitest.config.testNamePattern !== undefined);
    if (lines.length > 0) vitest.logger.log(`${lines.join('\n')}\n`);
  }
}
