/**
 * `skill://` resources as the skill folder installed alone (issue 57 point 12): a link that
 * leaves the skill points at the pinned raw address of its target, for the latest version and a
 * pinned one, and the digests of `skills/list` and `skills/get` name those bytes; a link inside
 * the skill stays as the author wrote it. Over real HTTP with the MCP SDK's client, against a
 * catalogue built from a real git repository.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCatalogue } from '../../src/tree/build.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

const BASE = 'http://catalogue.test';
const Entry = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(z.object({ uri: z.string(), digest: z.string() })) });

const skillMd = (version: string): string =>
  `---\nname: review\ndescription: Reviews a change against the project's style.\n---\n\n# Review (${version})\n\nFollow [the checklist](references/checklist.md), [the style rule](../../rules/style.md) and ![the diagram](../../AGENTS.md).\n`;
const files = (version: string): TestFile[] => [
  ...baseFiles('Review Kit'),
  { path: 'rules/style.md', role: 'rules', content: `---\ndescription: Style\nglobs: ["**/*.ts"]\napplyTo: "**/*.ts"\n---\n\nStyle ${version}.\n` },
  { path: 'skills/review/SKILL.md', role: 'skill', skill: 'review', content: skillMd(version) },
  { path: 'skills/review/references/checklist.md', role: 'reference', skill: 'review', content: `# Checklist\n\nBack to [the skill](../SKILL.md); see [the rule](../../../rules/style.md).\n` },
];

let root: string;
let running: FixtureServer;
let client: Client;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-mcp-installed-'));
  initRepo(root);
  writeLoadout(root, { id: 'kit', title: 'Review Kit', version: '1.0.0', files: files('1.0.0') });
  commitAll(root, 'kit 1.0.0', '2026-01-10T10:00:00Z');
  writeLoadout(root, { id: 'kit', title: 'Review Kit', version: '1.1.0', files: files('1.1.0') });
  commitAll(root, 'kit 1.1.0', '2026-02-10T10:00:00Z');
  const dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: BASE });
  expect(built.refused).toEqual([]);
  running = await startFixtureServer({}, { root, dist, baseUrl: BASE, remove: () => rmSync(root, { recursive: true, force: true }) });
  client = await running.connect();
}, 120_000);
afterAll(async () => {
  await running?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

const read = async (uri: string): Promise<string> => {
  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  return content !== undefined && 'text' in content ? content.text : '';
};
const digest = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

describe('skill:// resources, as the skill folder installed alone', () => {
  for (const [version, prefix] of [['1.1.0', 'skill://kit/review'], ['1.0.0', 'skill://kit/1.0.0/review']] as const) {
    it(`rewrites links that leave the skill to the pinned raw addresses of ${version}, and keeps those inside it (${prefix})`, async () => {
      const raw = `${BASE}/raw/kit/${version}`;
      const skill = await read(`${prefix}/SKILL.md`);
      expect(skill).toBe(skillMd(version).replace('](../../rules/style.md)', `](${raw}/rules/style.md)`).replace('](../../AGENTS.md)', `](${raw}/AGENTS.md)`));
      const checklist = await read(`${prefix}/references/checklist.md`);
      expect(checklist).toBe(`# Checklist\n\nBack to [the skill](../SKILL.md); see [the rule](${raw}/rules/style.md).\n`);

      // skills/get's digests and front matter are over the bytes served.
      const { skill: entry } = await client.request({ method: 'skills/get', params: { uri: `${prefix}/SKILL.md` } }, z.object({ skill: Entry }));
      expect(entry.frontmatter).toEqual({ name: 'review', description: "Reviews a change against the project's style." });
      expect(Object.fromEntries(entry.resources.map((r) => [r.uri, r.digest]))).toEqual({ [`${prefix}/SKILL.md`]: digest(skill), [`${prefix}/references/checklist.md`]: digest(checklist) });
    });
  }

  it('lists the latest skill with the digests of what resources/read gives', async () => {
    const { skills } = await client.request({ method: 'skills/list', params: {} }, z.object({ skills: z.array(Entry) }));
    const entry = skills.find((s) => s.uri === 'skill://kit/review/SKILL.md');
    expect(entry).toBeDefined();
    for (const r of entry?.resources ?? []) expect(digest(await read(r.uri)), r.uri).toBe(r.digest);
  });
});
