/**
 * Check summaries agree in number (`1 file parses`, `3 files parse`) and name the agents a
 * check ran for: a loadout's supported agents, not always the six published ones.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAdapter } from '../../../src/adapters/generate.js';
import { deriveLoadout } from '../../../src/submissions/derive.js';
import { validateSubmission } from '../../../src/submissions/validate.js';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import { describeAgents, plural, pluralWithVerb } from '../../../src/verify/check.js';
import { runChecks } from '../../../src/verify/run.js';
import { validBody } from '../../submissions/harness.js';
import { writeLoadout, type TestFile } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

/** The summaries of every check for one loadout written with `files` and manifest `fields`. */
async function summariesOf(files: TestFile[], fields: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const root = makeTempDir();
  writeLoadout(root, { id: 'k', files, manifest: fields });
  const [run] = await checkCatalogue({ root }, []);
  return Object.fromEntries((run?.results ?? []).map((r) => [r.id, `${r.status}: ${r.summary}`]));
}

const AGENTS_MD = '# Test k\n\nUse TypeScript strict mode. Run `npm test` before you commit.\n';
const CLAUDE = { path: 'CLAUDE.md', role: 'adapter', agent: 'claude-code', content: generateAdapter('claude-code', 'Test k') };
const GEMINI = { path: 'GEMINI.md', role: 'adapter', agent: 'gemini-cli', content: generateAdapter('gemini-cli', 'Test k') };

describe('plural, pluralWithVerb, describeAgents', () => {
  it('makes noun and verb agree: one is singular, zero and many are plural', () => {
    expect([0, 1, 2].map((n) => plural(n, 'notice'))).toEqual(['0 notices', '1 notice', '2 notices']);
    expect([0, 1, 2].map((n) => pluralWithVerb(n, 'adapter', ['matches', 'match']))).toEqual(['0 adapters match', '1 adapter matches', '2 adapters match']);
  });

  it('names the agents unless they are all six', () => {
    expect(describeAgents(['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot', 'antigravity-cli'])).toBe('6 agents');
    expect(describeAgents(['codex', 'cursor'])).toBe('2 agents (codex, cursor)');
    expect(describeAgents(['codex'])).toBe('1 agent (codex)');
    expect(describeAgents([])).toBe('no agent');
  });
});

describe('check summaries', () => {
  it('are singular for one adapter, one file and one reference', async () => {
    // The one reference is the adapter's `@AGENTS.md` import.
    const one = await summariesOf([{ path: 'AGENTS.md', role: 'instructions', content: AGENTS_MD }, CLAUDE], { compatibility: { 'gemini-cli': 'unsupported' } });
    expect(one['adapters']).toBe('pass: 1 adapter matches the generator');
    expect(one['references']).toBe('pass: 1 reference resolves inside the loadout');
    const single = await summariesOf([{ path: 'AGENTS.md', role: 'instructions', content: AGENTS_MD }], { compatibility: { 'claude-code': 'unsupported', 'gemini-cli': 'unsupported' } });
    expect(single['parse']).toBe('pass: 1 file parses');
    expect(single['adapters']).toBe('pass: 0 adapters match the generator');
    expect(single['references']).toBe('pass: 0 references resolve inside the loadout');
  });

  it('are plural for several', async () => {
    const two = await summariesOf([{ path: 'AGENTS.md', role: 'instructions', content: AGENTS_MD }, CLAUDE, GEMINI]);
    expect(two['adapters']).toBe('pass: 2 adapters match the generator');
    expect(two['parse']).toBe('pass: 3 files parse');
    expect(two['references']).toBe('pass: 2 references resolve inside the loadout');
    expect(two['install-paths']).toBe('pass: 8 install targets across 6 agents');
  });

  it('install-paths counts the agents a loadout supports', async () => {
    const codexOnly = await summariesOf([{ path: 'AGENTS.md', role: 'instructions', content: AGENTS_MD }], { compatibility: { 'claude-code': 'unsupported', 'gemini-cli': 'unsupported', cursor: 'unsupported', copilot: 'unsupported' } });
    expect(codexOnly['install-paths']).toBe('pass: 2 install targets across 2 agents (codex, antigravity-cli)');
  });
});

describe('install-paths on a form submission and on the published catalogue', () => {
  it('a submission for 2 agents is checked for those and for Antigravity CLI, which reads AGENTS.md and the form does not list', async () => {
    const validated = validateSubmission(validBody({ agents: ['codex', 'cursor'] }));
    if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
    const run = await runChecks(deriveLoadout(validated.submission, '2026-11-25').source);
    const summary = run.results.find((r) => r.id === 'install-paths')?.summary;
    expect(summary).toBe('5 install targets across 3 agents (codex, cursor, antigravity-cli)');
    expect(summary).not.toContain('6 agents');
  });

  it('a catalogue loadout that supports every agent is checked for all six', async () => {
    const runs = await checkCatalogue({ root: join(import.meta.dirname, '../../..') }, ['fastapi-service']);
    const result = runs[0]?.results.find((r) => r.id === 'install-paths');
    expect(result?.status).toBe('pass');
    expect(result?.summary).toMatch(/^\d+ install targets across 6 agents$/u);
  });
});
