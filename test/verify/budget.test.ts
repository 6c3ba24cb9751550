/**
 * The checks' time budget in `verify` and `build` (verify/budget.ts): past it, the loadout
 * gets a failing check that names the check and the file, and neither hangs.
 *
 * No outcome here depends on how fast or loaded the machine is. `verify` runs with a clock the
 * test moves (`RunChecksOptions.clock`): it jumps past the budget as the safety check reads
 * AGENTS.md, or never moves. `build` runs its checks on worker threads with the real clock and
 * a budget of 1 ms that its loadout's checks are known to exceed on any machine: the loadout
 * passes every check when given time (its adapters match its title, its links resolve), and
 * its text keeps the checks busy for 100 times the budget on a fresh thread; a slower or busier
 * machine only takes longer, and there is no real failure for the budget's to hide behind.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { checksBudgetMs, DEFAULT_CHECKS_BUDGET_MS } from '../../src/verify/budget.js';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

/**
 * About 30 KB that passes every check but keeps the safety and references checks busy: 500
 * sections, each with inline code and two links to headings of the file (measured here: about
 * 150 ms for its checks on a fresh thread, 6 ms once warm; the build's threads are fresh:
 * `loadout build` runs in a process of its own).
 */
function denseText(): string {
  const lines = ['# Test dense', ''];
  for (let i = 0; lines.join('\n').length < 30_000; i++) lines.push(`## Part ${i}`, '', `Run \`npm test -- part-${i}\` before you commit; see [the part before](#part-${Math.max(0, i - 1)}) and [the first](#part-0).`, '');
  return `${lines.join('\n')}\n`;
}

function denseCatalogue(): string {
  const root = makeTempDir('loadout-budget-');
  // baseFiles' adapters name the title the manifest has (writeLoadout's default, `Test <id>`): the adapters check passes.
  writeLoadout(root, { id: 'dense', files: baseFiles('Test dense', denseText()) });
  writeLoadout(root, { id: 'plain' });
  return root;
}

describe('the checks time budget', () => {
  it('reads LOADOUT_CHECKS_BUDGET_MS, refusing what is not a whole number of milliseconds', () => {
    expect(checksBudgetMs({})).toBe(DEFAULT_CHECKS_BUDGET_MS);
    expect(checksBudgetMs({ LOADOUT_CHECKS_BUDGET_MS: '250' })).toBe(250);
    for (const bad of ['0', '-5', '1.5', 'soon', '99999999']) expect(() => checksBudgetMs({ LOADOUT_CHECKS_BUDGET_MS: bad })).toThrow(LoadoutError);
  });

  it('verify: past the budget the loadout fails the check that ran out, naming it and the file; the later checks are skipped', async () => {
    const root = denseCatalogue();
    // The clock stands still until the safety check reads AGENTS.md, then jumps past the budget.
    let now = 0;
    const clock = (): number => now;
    const onProgress = (check: string, file: string | undefined): void => {
      if (check === 'safety' && file === 'AGENTS.md') now = 1000;
    };
    const [dense, plain] = await checkCatalogue({ root }, ['dense', 'plain'], { budgetMs: 1, clock, onProgress });
    expect(dense).toBeDefined();
    expect(passed(dense!)).toBe(false);
    const failed = dense!.results.filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.id)).toEqual(['safety']);
    expect(failed[0]!.summary).toBe("timed out: the checks' time budget of 1 ms ran out in the safety check, on AGENTS.md; the later checks did not run");
    expect(dense!.timedOut).toEqual({ check: 'safety', file: 'AGENTS.md', budgetMs: 1 });
    const results = dense!.results.map((r) => r.status);
    expect(results.slice(0, results.indexOf('fail')).every((status) => status === 'pass' || status === 'n/a')).toBe(true);
    expect(results.slice(results.indexOf('fail') + 1).every((status) => status === 'skip')).toBe(true);
    expect(dense!.diagnostics.some((d) => d.file === 'loadouts/dense/AGENTS.md' && d.message.includes('time budget of 1 ms'))).toBe(true);
    // The clock moved past the budget once: the next loadout's checks have their own budget.
    expect(plain?.timedOut).toBeUndefined();
    expect(passed(plain!)).toBe(true);
    // With a clock that never moves, no budget runs out and both pass.
    const runs = await checkCatalogue({ root }, ['dense', 'plain'], { budgetMs: 1, clock: () => 0 });
    expect(runs.map((r) => [r.timedOut, passed(r)])).toEqual([[undefined, true], [undefined, true]]);
  });

  // Through the CLI: the build's threads read the budget from the environment they started with,
  // and a thread pool kept from an earlier build in this process would have another.
  it('build: past the budget the loadout is refused with the failing check, and the build ends', async () => {
    const root = denseCatalogue();
    const { code, stderr } = await runCli(['build', '--root', root, '--out', join(root, 'dist'), '--base-url', 'https://loadouts.test'], root, { LOADOUT_CHECKS_BUDGET_MS: '1' });
    expect(code).toBe(1);
    // The plain loadout may run out of so short a budget too, on a fresh thread.
    expect(stderr).toMatch(/build refused: (?:[\w-]+, )*dense(?:, [\w-]+)* failed checks/u);
    // The loadout passes every check when given time: the only failure is the budget's.
    const findings = stderr.split('\n').filter((line) => line.startsWith('loadout: loadouts/dense/'));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(/: the checks' time budget of 1 ms ran out in the [\w-]+ check/u);
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });
});
