/**
 * `loadout import` over the real-world corpus (`../shared/corpus/`, files from
 * github/awesome-copilot, obra/superpowers and PatrickJS/awesome-cursorrules; DESIGN.md section 8):
 * every skill folder, instructions file, agent file and Cursor rule is imported on its own, and
 * each whole collection at once. Every import must validate (schema and listing); where a
 * check fails, every line it gives names a file of the loadout and what was expected, so the
 * author knows what to fix. Every imported file keeps its bytes.
 *
 * Skipped when the corpus is missing, unless LOADOUT_REQUIRE_CORPUS is set (as in `.ci/run`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ImportResult } from '../../src/import/import.js';
import { CORPUS_DIR } from '../verify/corpus-loadouts.js';
import { makeCatalogueRoot, runImport, validateAndVerify } from './helpers.js';
import { describeWith, NEEDS_CORPUS } from '../run/requirements.js';

const present = existsSync(CORPUS_DIR);
if (!present && process.env['LOADOUT_REQUIRE_CORPUS'] === undefined) console.warn(`import corpus test skipped: no corpus at ${CORPUS_DIR}`);

/** Each corpus item to import on its own, relative to the corpus folder. */
function items(): string[] {
  const list: string[] = [];
  for (const collection of ['awesome-copilot/skills', 'superpowers/skills']) for (const name of readdirSync(join(CORPUS_DIR, collection)).sort()) list.push(`${collection}/${name}`);
  for (const [folder, suffix] of [['awesome-copilot/instructions', '.instructions.md'], ['awesome-copilot/agents', '.agent.md'], ['awesome-cursorrules/rules', '.mdc']] as const) {
    for (const name of readdirSync(join(CORPUS_DIR, folder)).sort()) if (name.endsWith(suffix)) list.push(`${folder}/${name}`);
  }
  return list;
}

/** Checks one import: valid, bytes kept, and every failing check's lines name a loadout file and the expectation. */
async function expectSound(root: string, item: string, result: ImportResult): Promise<void> {
  const source = join(CORPUS_DIR, item);
  const base = item.endsWith('.md') || item.endsWith('.mdc') ? join(source, '..') : source;
  for (const file of result.files) {
    if (file.from === undefined) continue;
    expect(readFileSync(join(root, result.dir, file.path)).equals(readFileSync(join(base, file.from))), `${item}: ${file.path}`).toBe(true);
  }
  const checked = await validateAndVerify(root, result.id);
  expect(checked.valid, `${item} does not validate: ${checked.details.join(' | ')}`).toBe(true);
  for (const line of checked.details) {
    if (line.startsWith('notice: ')) continue;
    expect(line.startsWith(`${result.dir}/`), `${item}: ${line}`).toBe(true);
    expect(line.slice(result.dir.length + 1), item).toMatch(/^[^:\s]+(?::\d+)?: ./u);
    expect(line, item).toMatch(/\(expected |\bexpected\b|: (?:set|add|remove|rename)\b/u);
  }
}

describeWith(NEEDS_CORPUS)('loadout import over the real-world corpus', () => {
  it('imports every skill folder, instructions file, agent file and Cursor rule on its own into a loadout that validates', { timeout: 240_000 }, async () => {
    const root = makeCatalogueRoot();
    const list = items();
    expect(list.length).toBe(80 + 14 + 40 + 40 + 60);
    const outcomes = { verified: 0, failing: 0 };
    for (const [index, item] of list.entries()) {
      const result = await runImport(root, join(CORPUS_DIR, item), { id: `item-${index}` });
      expect(result.written).toBe(true);
      await expectSound(root, item, result);
      if (result.run.results.every((r) => r.status !== 'fail')) outcomes.verified++;
      else outcomes.failing++;
      // Rules and agents each keep their own front matter description in the file entry.
      if (item.endsWith('.mdc') || item.endsWith('.instructions.md')) expect(result.files.filter((f) => f.role === 'rules')).toHaveLength(1);
      if (item.endsWith('.agent.md')) expect(result.files.filter((f) => f.role === 'subagent')).toHaveLength(1);
    }
    console.log(`import corpus: ${list.length} items, ${outcomes.verified} pass every check, ${outcomes.failing} fail one with messages naming the file`);
    // Real content mostly passes: a large failing share would mean the import (not the content) is wrong.
    expect(outcomes.verified).toBeGreaterThan(list.length * 0.75);
  });

  it.each(['awesome-copilot', 'superpowers', 'awesome-cursorrules'])('imports the whole %s collection at once into a loadout that validates', async (collection) => {
    const root = makeCatalogueRoot();
    const result = await runImport(root, join(CORPUS_DIR, collection), { id: collection });
    await expectSound(root, collection, result);
    // More than 30 files: the size check says so, naming loadout.yaml.
    expect(result.run.results.find((r) => r.id === 'size')?.details.some((d) => d.includes(`loadouts/${collection}/loadout.yaml`) && d.includes('(expected at most 30)'))).toBe(true);
  });
});
