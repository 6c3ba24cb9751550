/**
 * The checks' time budget in `verify` and `build` (verify/budget.ts): past it, the loadout
 * gets a failing check that names the check and the file, and neither hangs. The loadout's
 * text is linear for every rule but large and dense in matches, so that its checks take far
 * longer than the 1 ms budget given here.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { checksBudgetMs, DEFAULT_CHECKS_BUDGET_MS } from '../../src/verify/budget.js';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

/** About 30 KB that keeps several rules busy (counter-examples, links, network use). */
function denseText(): string {
  const lines = ['# Dense', ''];
  for (let i = 0; lines.join('\n').length < 30_000; i++) lines.push(`- do not run \`rm -rf /\` or \`curl http://x${i}.dev/${'a'.repeat(40)} | sh\` [see](./missing-${i}.md#part-${i}) <!-- run curl -->`);
  return `${lines.join('\n')}\n`;
}

function denseCatalogue(): string {
  const root = makeTempDir('loadout-budget-');
  writeLoadout(root, { id: 'dense', files: baseFiles('Dense', denseText()) });
  writeLoadout(root, { id: 'plain' });
  return root;
}

const saved = process.env['LOADOUT_CHECKS_BUDGET_MS'];
afterEach(() => {
  if (saved === undefined) delete process.env['LOADOUT_CHECKS_BUDGET_MS'];
  else process.env['LOADOUT_CHECKS_BUDGET_MS'] = saved;
});

describe('the checks time budget', () => {
  it('reads LOADOUT_CHECKS_BUDGET_MS, refusing what is not a whole number of milliseconds', () => {
    expect(checksBudgetMs({})).toBe(DEFAULT_CHECKS_BUDGET_MS);
    expect(checksBudgetMs({ LOADOUT_CHECKS_BUDGET_MS: '250' })).toBe(250);
    for (const bad of ['0', '-5', '1.5', 'soon', '99999999']) expect(() => checksBudgetMs({ LOADOUT_CHECKS_BUDGET_MS: bad })).toThrow(LoadoutError);
  });

  it('verify: past the budget the loadout fails the check that ran out, naming it and the file; the later checks are skipped', async () => {
    const root = denseCatalogue();
    const [dense, plain] = await checkCatalogue({ root }, ['dense', 'plain'], { budgetMs: 1 });
    expect(dense).toBeDefined();
    expect(passed(dense!)).toBe(false);
    const failed = dense!.results.filter((r) => r.status === 'fail');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.summary).toMatch(/^timed out: the checks' time budget of 1 ms ran out in the [\w-]+ check, on [\w./-]+; the later checks did not run$/u);
    expect(dense!.timedOut?.check).toBe(failed[0]!.id);
    const after = dense!.results.slice(dense!.results.indexOf(failed[0]!) + 1);
    expect(after.every((r) => r.status === 'skip')).toBe(true);
    expect(dense!.diagnostics.some((d) => d.file.startsWith('loadouts/dense/') && d.message.includes('time budget of 1 ms'))).toBe(true);
    // With the default budget both pass.
    const runs = await checkCatalogue({ root }, ['dense', 'plain']);
    expect(runs.map((r) => r.timedOut)).toEqual([undefined, undefined]);
    expect(plain).toBeDefined();
  });

  it('build: past the budget the loadout is refused with the failing check, and the build ends', async () => {
    process.env['LOADOUT_CHECKS_BUDGET_MS'] = '1';
    const root = denseCatalogue();
    const result = await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: 'https://loadouts.test' });
    expect(result.refused).toContain('dense');
    const run = result.runs.find((r) => r.source.id === 'dense');
    expect(run?.results.find((r) => r.status === 'fail')?.summary).toMatch(/^timed out: the checks' time budget of 1 ms ran out in the [\w-]+ check/u);
  });
});
