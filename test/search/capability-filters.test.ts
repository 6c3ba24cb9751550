/**
 * The search's filters on the capability list (issue 54, point 1: "search filters on it
 * (`has=mcp`, `has=hooks`, `runs=nothing`)"), over records whose lists the build's own
 * derivation makes from their files (`layout/capabilities.ts`): a skill with a hook, a script,
 * an MCP server, a narrow tool grant, and text only. The engine's answer is the same from the
 * binary ranking file as from the JSON index, each result carries the summary it filters on, and
 * the rows of a tree built before capability lists (no `capabilities`) match neither `runs`.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRecord } from '../../bench/search-generate.js';
import { createSearchEngine } from '../../src/search/engine.js';
import { buildSearchIndexFile } from '../../src/search/index-file.js';
import { fromRecord, parseSearchParameters, type SearchQuery } from '../../src/search/query.js';
import { decodeRankingIndex, DOC_FLAG, encodeRankingIndex } from '../../src/search/ranking-file.js';
import { rankingSourceOf } from '../../src/search/index-file.js';
import { baseFiles, type TestFile } from '../helpers/loadouts.js';

const skill = (name: string, frontMatter: string): TestFile => ({ path: `skills/${name}/SKILL.md`, role: 'skill', skill: name, description: `The ${name} skill.`, content: `---\nname: ${name}\ndescription: The ${name} skill.\n${frontMatter}---\n\n# ${name}\n\nFollow these steps.\n` });

/** id → its files besides AGENTS.md and the adapters. */
const LOADOUTS: Record<string, TestFile[]> = {
  'hooked-kit': [skill('format', 'hooks:\n  PostToolUse:\n    - matcher: Edit\n      hooks:\n        - type: command\n          command: npx prettier --write .\n')],
  'scripted-kit': [skill('check', ''), { path: 'skills/check/scripts/check.sh', role: 'reference', skill: 'check', description: 'The check script.', content: '#!/usr/bin/env bash\nnpm test\n' }],
  'served-kit': [{ path: 'mcp/servers.json', role: 'mcp', description: 'A server.', content: `${JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp@1.2.3'] } } })}\n` }],
  'granted-kit': [skill('status', 'allowed-tools: Read, Bash(git status:*)\n')],
  'text-kit': [],
};

function records(): ReturnType<typeof syntheticRecord>[] {
  return Object.entries(LOADOUTS).map(([id, files]) => syntheticRecord({ id, title: id, files: [...baseFiles(id), ...files], manifest: { summary: `Kit ${id} for the capability filters of the search.`, stacks: ['kit'], categories: ['workflow'] } }, 'http://127.0.0.1:8787'));
}

const query = (params: Record<string, string>): SearchQuery => {
  const { query: parsed, errors } = parseSearchParameters(fromRecord({ limit: '50', ...params }));
  expect(errors).toEqual([]);
  return parsed as SearchQuery;
};

describe('the search filters on the capability list', () => {
  const file = buildSearchIndexFile(records());
  const engine = createSearchEngine(file, { cacheMatches: 0 });
  const ids = (params: Record<string, string>): string[] => engine.search(query(params)).results.map((r) => r.id).sort();

  it('has=hooks, has=scripts and has=mcp keep the loadouts that bring one; runs splits text from what runs', () => {
    expect(ids({ has: 'hooks' })).toEqual(['hooked-kit']);
    expect(ids({ has: 'scripts' })).toEqual(['scripted-kit']);
    expect(ids({ has: 'mcp' })).toEqual(['served-kit']);
    expect(ids({ runs: 'nothing' })).toEqual(['text-kit']);
    // A narrow tool grant needs no consent but runs something all the same.
    expect(ids({ runs: 'something' })).toEqual(['granted-kit', 'hooked-kit', 'scripted-kit', 'served-kit']);
    // The filters combine with AND, with a query too.
    expect(ids({ runs: 'something', has: 'scripts' })).toEqual(['scripted-kit']);
    expect(ids({ q: 'kit', runs: 'nothing' })).toEqual(['text-kit']);
    expect(ids({ runs: 'nothing', has: 'hooks' })).toEqual([]);
  });

  it('gives each result the summary it filters on', () => {
    const results = engine.search(query({})).results;
    expect(Object.fromEntries(results.map((r) => [r.id, r.capabilities]))).toEqual({
      'granted-kit': { runs: 'something', hooks: 0, scripts: 0 },
      'hooked-kit': { runs: 'something', hooks: 1, scripts: 0 },
      'scripted-kit': { runs: 'something', hooks: 0, scripts: 1 },
      'served-kit': { runs: 'something', hooks: 0, scripts: 0 },
      'text-kit': { runs: 'nothing', hooks: 0, scripts: 0 },
    });
    // The JSON text the server sends is the same answer.
    expect(JSON.parse(engine.searchJson(query({ runs: 'something' })))).toEqual(engine.search(query({ runs: 'something' })));
  });

  it('keeps the flags through the binary file, each in its own bit', () => {
    const decoded = decodeRankingIndex(encodeRankingIndex(rankingSourceOf(file)));
    const flags = Object.fromEntries(file.documents.map((row, d) => [row.id, decoded.docFlags[d] ?? 0]));
    const has = (id: string, flag: keyof typeof DOC_FLAG): boolean => ((flags[id] ?? 0) & DOC_FLAG[flag]) !== 0;
    expect(has('hooked-kit', 'hooks') && has('hooked-kit', 'runsSomething') && !has('hooked-kit', 'runsNothing')).toBe(true);
    expect(has('text-kit', 'runsNothing') && !has('text-kit', 'runsSomething') && !has('text-kit', 'scripts')).toBe(true);
    expect(new Set(Object.values(DOC_FLAG)).size).toBe(Object.keys(DOC_FLAG).length);
    for (const bit of Object.values(DOC_FLAG)) expect(bit & (bit - 1)).toBe(0);
  });

  it('matches no row of a tree built before capability lists to runs or has=hooks, and filters it as before otherwise', () => {
    const old = structuredClone(file);
    for (const row of old.documents) delete (row as Partial<typeof row>).capabilities;
    const oldEngine = createSearchEngine(old, { cacheMatches: 0 });
    const oldIds = (params: Record<string, string>): string[] => oldEngine.search(query(params)).results.map((r) => r.id).sort();
    expect(oldIds({ runs: 'nothing' })).toEqual([]);
    expect(oldIds({ runs: 'something' })).toEqual([]);
    expect(oldIds({ has: 'hooks' })).toEqual([]);
    expect(oldIds({ has: 'mcp' })).toEqual(['served-kit']);
    expect(oldIds({})).toHaveLength(5);
  });
});

describe('the runs and has parameters', () => {
  it('refuse values they do not know, naming the parameter and what it takes', () => {
    expect(parseSearchParameters(fromRecord({ runs: 'maybe' })).errors).toEqual([{ parameter: 'runs', message: 'runs is "maybe" (expected one of nothing, something)' }]);
    expect(parseSearchParameters(fromRecord({ has: 'hook' })).errors).toEqual([{ parameter: 'has', message: 'has is "hook" (expected one of skills, mcp, rules, hooks, scripts)' }]);
    expect(parseSearchParameters((name) => (name === 'runs' ? ['nothing', 'something'] : [])).errors).toEqual([{ parameter: 'runs', message: 'runs is given 2 times (expected it at most once)' }]);
  });
});
