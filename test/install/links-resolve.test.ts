/**
 * Links resolve after every install (issue 33, point 1): every loadout of the repository's
 * `loadouts/`, built into a catalogue and installed for each of the six agents alone and for all
 * six in one project, leaves no relative link, image or `@` import in an installed Markdown file
 * that points at nothing (the checker: `test/helpers/link-resolution.ts`), and leaves no manual
 * step for a rule. The checker itself is shown to find what dangles.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { installLoadouts } from '../../src/install/install.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { findDanglingLinks } from '../helpers/link-resolution.js';
import { makeTempDir } from '../helpers/temp.js';

const LOADOUTS = join(import.meta.dirname, '../../loadouts');
const IDS = readdirSync(LOADOUTS).sort();
let root: string;
let dist: string;

beforeAll(async () => {
  // A copy outside git: only the working-tree version is built, which is the one to check.
  root = mkdtempSync(join(tmpdir(), 'loadout-links-'));
  cpSync(LOADOUTS, join(root, 'loadouts'), { recursive: true });
  dist = join(root, 'dist');
  await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the link-resolution checker', () => {
  it('finds missing files, missing headings and links that leave the project, and passes what resolves', () => {
    const project = makeTempDir();
    mkdirSync(join(project, '.claude/rules'), { recursive: true });
    writeFileSync(join(project, '.claude/rules/a.md'), '# A\n\n## Part one\n');
    writeFileSync(join(project, 'AGENTS.md'), ['[ok](.claude/rules/a.md#part-one)', '[gone](rules/a.md)', '[bad anchor](.claude/rules/a.md#nope)', '[out](../x.md)', '@rules/b.md', '[web](https://example.com/x.md)', '`[code](nowhere.md)`', ''].join('\n'));
    expect(findDanglingLinks(project, ['AGENTS.md', '.claude/rules/a.md']).map((d) => `${d.line} ${d.written} ${d.problem}`)).toEqual(['2 rules/a.md file', '3 .claude/rules/a.md#nope anchor', '4 ../x.md outside', '5 rules/b.md file']);
  });
});

describe.each(IDS)('every install of %s', (id) => {
  it('leaves no dangling link for each agent alone, and no manual step for a rule', async () => {
    for (const agent of PUBLISHED_AGENTS) {
      const project = makeTempDir();
      const [outcome] = await installLoadouts({ from: dist, id, agents: [agent], dir: project });
      expect(outcome?.installed, agent).toBe(true);
      expect(findDanglingLinks(project), agent).toEqual([]);
      expect(outcome?.manual_steps.filter((s) => s.source.startsWith('rules/')), agent).toEqual([]);
    }
  });

  it('leaves no dangling link with all six agents in one project, the shared AGENTS.md included', async () => {
    const project = makeTempDir();
    const outcomes = await installLoadouts({ from: dist, id, agents: [...PUBLISHED_AGENTS], dir: project });
    expect(outcomes.every((o) => o.installed)).toBe(true);
    expect(findDanglingLinks(project)).toEqual([]);
  });

  it('leaves no dangling link when the agents arrive one at a time, and when one leaves again', async () => {
    const project = makeTempDir();
    for (const agent of PUBLISHED_AGENTS) {
      const [outcome] = await installLoadouts({ from: dist, id, agents: [agent], dir: project });
      expect(outcome?.conflicts, agent).toEqual([]);
      expect(findDanglingLinks(project), `after ${agent}`).toEqual([]);
    }
  });
});
