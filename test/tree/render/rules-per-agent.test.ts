/**
 * Rules per agent in the built tree: the record's `install[<agent>].files` and the per-agent
 * zips hold each rule translated for the agent (`layout/rule-translation.ts`) and composed where
 * the agent reads it (`layout/installed-files.ts`), and an install
 * from the catalogue writes the same bytes, so an install by zip and by the CLI agree.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../../src/catalogue/vocabulary.js';
import { installLoadout } from '../../../src/install/install.js';
import { translateRule } from '../../../src/layout/rule-translation.js';
import type { PublishedRecord } from '../../../src/tree-format/index.js';
import { publishedRecordErrors } from '../../helpers/published-schema.js';
import { buildCleanDist, makeProject } from '../../install/hostile-fixture.js';

const sha = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

let clean: Awaited<ReturnType<typeof buildCleanDist>>;
let record: PublishedRecord;
beforeAll(async () => {
  clean = await buildCleanDist();
  record = JSON.parse(readFileSync(join(clean.dist, 'api/loadouts/kit.json'), 'utf8')) as PublishedRecord;
});
afterAll(() => clean?.remove());

describe('rules per agent in the built tree', () => {
  it('keeps the published record valid, with the installed sha256 of every install file, which the zip holds', async () => {
    expect(publishedRecordErrors(record)).toEqual([]);
    for (const agent of PUBLISHED_AGENTS) {
      const zip = await JSZip.loadAsync(readFileSync(join(clean.dist, `download/kit/${agent}.zip`)));
      for (const file of record.install[agent].files) {
        const source = record.files.find((f) => f.path === file.path);
        expect(sha((await zip.file(file.target)?.async('uint8array')) ?? ''), `${agent} ${file.target} in the zip`).toBe(file.sha256);
        // Rules are translated; Codex's AGENTS.md holds its rules and Gemini CLI's GEMINI.md imports them (layout/installed-files.ts).
        const composedInto = (agent === 'codex' && file.path === 'AGENTS.md') || (agent === 'gemini-cli' && file.path === 'GEMINI.md');
        if (file.role !== 'rules' && !composedInto) expect(file.sha256, `${agent} ${file.path}`).toBe(source?.sha256);
        else expect(file.sha256, `${agent} ${file.path}`).not.toBe(source?.sha256);
      }
    }
  });

  it('holds each rule translated in the record, the zip and the installed project, with the same bytes', async () => {
    const source = record.files.find((f) => f.path === 'rules/style.md')?.content ?? '';
    const seen = new Map<string, string>();
    for (const agent of PUBLISHED_AGENTS) {
      const entry = record.install[agent].files.find((f) => f.path === 'rules/style.md');
      if (entry === undefined) continue;
      const expected = translateRule(source, agent);
      expect(entry.sha256).toBe(sha(expected));
      const zip = await JSZip.loadAsync(readFileSync(join(clean.dist, `download/kit/${agent}.zip`)));
      expect(await zip.file(entry.target)?.async('string'), `${agent} zip`).toBe(expected);
      const project = makeProject();
      await installLoadout({ from: clean.dist, id: 'kit', agent, dir: project });
      expect(sha(readFileSync(join(project, entry.target))), `${agent} install`).toBe(entry.sha256);
      seen.set(agent, expected);
    }
    expect([...seen.keys()]).toEqual(['claude-code', 'cursor', 'gemini-cli', 'copilot', 'antigravity-cli']);
    // The fixture's rule carries Cursor's and Copilot's keys: each agent gets its own only.
    expect(seen.get('claude-code')).toBe('---\npaths:\n  - "**/*.ts"\n---\n\nRule.\n');
    expect(seen.get('cursor')).toBe('---\ndescription: Style\nglobs: "**/*.ts"\nalwaysApply: false\n---\n\nRule.\n');
    expect(seen.get('gemini-cli')).toBe('Scope: apply this rule only to files matching `**/*.ts`.\n\nRule.\n');
    expect(seen.get('copilot')).toBe('---\napplyTo: "**/*.ts"\ndescription: Style\n---\n\nRule.\n');
    expect(seen.get('antigravity-cli')).toBe('---\ntrigger: glob\nglobs: "**/*.ts"\ndescription: Style\n---\n\nRule.\n');
  });

  it('measures the context cost of the translated rule: on demand for Claude Code too', () => {
    const ruleBytes = (agent: (typeof PUBLISHED_AGENTS)[number]): number => Buffer.byteLength(translateRule(record.files.find((f) => f.path === 'rules/style.md')?.content ?? '', agent));
    const claude = record.context['claude-code'];
    expect(claude.on_demand.bytes).toBeGreaterThanOrEqual(ruleBytes('claude-code'));
    const agents = Buffer.byteLength(record.files.find((f) => f.path === 'AGENTS.md')?.content ?? '') + Buffer.byteLength(record.files.find((f) => f.path === 'CLAUDE.md')?.content ?? '');
    expect(claude.always.bytes).toBe(agents);
  });
});
