/**
 * SEP-2640 (the Skills extension) on `/mcp`, over real HTTP with the MCP TypeScript SDK's
 * client sending the raw requests: the capability, `skills/list` paged through its cursors,
 * every entry's front matter and digests checked against what `resources/read` gives,
 * `skills/get` and its errors, pinned versions, and `resources/directory/read`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from './fixture-server.js';
import { z } from 'zod';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

const Entry = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(z.object({ uri: z.string(), digest: z.string() })) });
const ListResult = z.object({ skills: z.array(Entry), nextCursor: z.string().optional() });
const GetResult = z.object({ skill: Entry });
const DirectoryResult = z.object({ resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional(), size: z.number().optional() })), nextCursor: z.string().optional() });
type SkillEntry = z.infer<typeof Entry>;

let running: FixtureServer;
let client: Client;

beforeAll(async () => {
  // Small pages, so that the fixture's five skills take three pages.
  running = await startFixtureServer({ skillsPageSizes: { skills: 2, directory: 1 } });
  client = await running.connect();
});
afterAll(async () => running?.close());

const listPage = (cursor?: string): Promise<z.infer<typeof ListResult>> => client.request({ method: 'skills/list', params: cursor === undefined ? {} : { cursor } }, ListResult);
const getSkill = (uri: string): Promise<z.infer<typeof GetResult>> => client.request({ method: 'skills/get', params: { uri } }, GetResult);
const readDirectory = (uri: string, cursor?: string): Promise<z.infer<typeof DirectoryResult>> =>
  client.request({ method: 'resources/directory/read', params: cursor === undefined ? { uri } : { uri, cursor } }, DirectoryResult);

async function listAll(): Promise<{ skills: SkillEntry[]; cursors: string[] }> {
  const skills: SkillEntry[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listPage(cursor);
    skills.push(...page.skills);
    cursor = page.nextCursor;
    if (cursor !== undefined) cursors.push(cursor);
  } while (cursor !== undefined);
  return { skills, cursors };
}

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`;

/** Reads `uri` and returns its text, checking the digest the entry promised (SEP-2640, "Integrity and verification"). */
async function readVerified(uri: string, digest: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  expect(content?.uri).toBe(uri);
  const text = content !== undefined && 'text' in content ? content.text : '';
  expect(sha256(text), uri).toBe(digest);
  return text;
}

/** The front matter of a SKILL.md text, parsed independently of the server's parser. */
function frontMatterOf(text: string): unknown {
  const match = /^---\n([\s\S]*?)\n---\n/u.exec(text);
  return match === null ? undefined : parseYaml(match[1] ?? '');
}

interface PublishedFile {
  path: string;
  skill: string | null;
  sha256: string;
}
const recordFiles = (id: string): PublishedFile[] => (JSON.parse(readFileSync(join(running.fixture.dist, 'api', 'loadouts', `${id}.json`), 'utf8')) as { files: PublishedFile[] }).files;

describe('the capability', () => {
  it('declares io.modelcontextprotocol/skills with directoryRead at initialize', () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
  });
});

describe('skills/list', () => {
  it('pages through every skill once, with whole entries, following only the cursors it gives out', async () => {
    const { skills, cursors } = await listAll();
    expect(cursors).toHaveLength(2);
    expect(skills.map((s) => s.uri)).toEqual([
      'skill://fastapi-service/add-endpoint/SKILL.md',
      'skill://godot-gdscript/add-scene/SKILL.md',
      'skill://mcp-server-builder/add-tool/SKILL.md',
      'skill://nextjs-app-router/add-route/SKILL.md',
      'skill://secure-code-review/threat-model/SKILL.md',
    ]);
    for (const forged of ['bogus', '', Buffer.from('1').toString('base64url'), Buffer.from('6').toString('base64url'), `${cursors[0] ?? ''}=`]) {
      const error = await errorOf(listPage(forged));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('(expected the nextCursor of the previous skills/list page, or no cursor)');
    }
  });

  it('gives each skill its front matter verbatim and every file with a digest that matches the bytes read', async () => {
    const { skills } = await listAll();
    const { resources: listed } = await client.listResources();
    for (const entry of skills) {
      const [, loadout, skill] = /^skill:\/\/([^/]+)\/([^/]+)\/SKILL\.md$/u.exec(entry.uri) ?? [];
      // The last segment of the skill path is the name (SEP-2640, "Resource Mapping").
      expect(entry.frontmatter['name']).toBe(skill);
      // Complete: exactly the skill's files, SKILL.md among them, each once.
      const files = listed.filter((r) => r.uri.startsWith(`skill://${loadout ?? ''}/${skill ?? ''}/`)).map((r) => r.uri);
      expect(entry.resources.map((r) => r.uri).sort()).toEqual([...files].sort());
      expect(entry.resources.map((r) => r.uri)).toContain(entry.uri);
      for (const resource of entry.resources) {
        expect(resource.digest).toMatch(/^sha256:[0-9a-f]{64}$/u);
        const text = await readVerified(resource.uri, resource.digest);
        if (resource.uri === entry.uri) expect(entry.frontmatter).toEqual(frontMatterOf(text));
      }
      // The same digests as the published record's sha256.
      const published = recordFiles(loadout ?? '').filter((f) => f.skill === skill);
      expect(entry.resources.map((r) => r.digest).sort()).toEqual(published.map((f) => `sha256:${f.sha256}`).sort());
    }
  });
});

describe('skills/get', () => {
  it('answers the same entry as the listing for every listed skill', async () => {
    const { skills } = await listAll();
    for (const entry of skills) expect((await getSkill(entry.uri)).skill).toEqual(entry);
  });

  it('accepts a percent-encoded spelling and answers with the canonical URI', async () => {
    const { skill } = await getSkill('skill://nextjs-app-router/add-route/SKILL%2Emd');
    expect(skill.uri).toBe('skill://nextjs-app-router/add-route/SKILL.md');
  });

  it.each([
    ['an unknown skill', 'skill://nextjs-app-router/no-skill/SKILL.md', 'names skill "no-skill", which nextjs-app-router does not have (expected one of: add-route)'],
    ['an unknown loadout', 'skill://nope/add-route/SKILL.md', 'names loadout "nope", which this catalogue does not publish'],
    ['an unknown version', 'skill://nextjs-app-router/9.9.9/add-route/SKILL.md', 'names version 9.9.9 of loadout "nextjs-app-router", which this catalogue does not publish'],
    ['a reference file', 'skill://nextjs-app-router/add-route/references/file-conventions.md', 'is not the SKILL.md of a skill (expected skill://nextjs-app-router/add-route/SKILL.md)'],
    ['a skill directory', 'skill://nextjs-app-router/add-route', 'is not the SKILL.md of a skill'],
    ['a loadout directory', 'skill://nextjs-app-router', 'is not the SKILL.md of a skill (expected skill://nextjs-app-router/<skill>/SKILL.md)'],
    ['a dot-dot path', 'skill://nextjs-app-router/add-route/../add-route/SKILL.md', 'is not a skill URI'],
    ['another scheme', 'file:///etc/passwd', 'is not a skill URI'],
    ['a trailing slash', 'skill://nextjs-app-router/add-route/SKILL.md/', 'is not a skill URI'],
  ])('answers -32602 with data {uri} for %s', async (_label, uri, words) => {
    const error = await errorOf(getSkill(uri));
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ uri });
    expect(error.message).toContain(words);
    expect(error.message).not.toContain('\n');
  });

  it('refuses malformed params with one line naming the parameter', async () => {
    const missing = await errorOf(client.request({ method: 'skills/get', params: {} }, GetResult));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toBe('MCP error -32602: Invalid params for skills/get: params.uri is missing (expected a string)');
    const number = await errorOf(client.request({ method: 'skills/list', params: { cursor: 5 } }, ListResult));
    expect(number.message).toBe('MCP error -32602: Invalid params for skills/list: params.cursor is 5 (expected a string)');
  });
});

describe('pinned versions', () => {
  it('serves every published version of a skill at skill://<loadout>/<version>/<skill>/…, digests matching the bytes', async () => {
    const versions = JSON.parse(readFileSync(join(running.fixture.dist, 'api', 'loadouts', 'nextjs-app-router', 'versions.json'), 'utf8')) as { versions: { version: string; files: PublishedFile[] }[] };
    expect(versions.versions.map((v) => v.version)).toEqual(['1.0.0', '1.1.0']);
    for (const version of versions.versions) {
      const { skill } = await getSkill(`skill://nextjs-app-router/${version.version}/add-route/SKILL.md`);
      expect(skill.uri).toBe(`skill://nextjs-app-router/${version.version}/add-route/SKILL.md`);
      expect(skill.frontmatter['name']).toBe('add-route');
      expect(skill.resources.map((r) => r.uri)).toEqual([`skill://nextjs-app-router/${version.version}/add-route/SKILL.md`, `skill://nextjs-app-router/${version.version}/add-route/references/file-conventions.md`]);
      for (const resource of skill.resources) await readVerified(resource.uri, resource.digest);
      const published = version.files.filter((f) => f.skill === 'add-route').map((f) => `sha256:${f.sha256}`);
      expect(skill.resources.map((r) => r.digest).sort()).toEqual(published.sort());
    }
  });

  it('answers "resource not found" for a file of a version that does not exist', async () => {
    const error = await errorOf(client.readResource({ uri: 'skill://nextjs-app-router/0.0.1/add-route/SKILL.md' }));
    expect(error.code).toBe(-32002);
  });
});

describe('resources/directory/read', () => {
  /** Every child of `uri`, following the cursors (pages of one child here). */
  async function children(uri: string): Promise<z.infer<typeof DirectoryResult>['resources']> {
    const all: z.infer<typeof DirectoryResult>['resources'] = [];
    let cursor: string | undefined;
    do {
      const page = await readDirectory(uri, cursor);
      expect(page.resources.length).toBeLessThanOrEqual(1);
      all.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all;
  }

  it('lists the direct children of a skill, of a folder in it, of a loadout and of a version', async () => {
    expect(await children('skill://nextjs-app-router/add-route')).toEqual([
      { uri: 'skill://nextjs-app-router/add-route/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: expect.any(Number), title: 'Skill add-route (nextjs-app-router)', description: expect.any(String) },
      { uri: 'skill://nextjs-app-router/add-route/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    expect((await children('skill://nextjs-app-router/add-route/references')).map((r) => [r.uri, r.mimeType])).toEqual([['skill://nextjs-app-router/add-route/references/file-conventions.md', 'text/markdown']]);
    expect((await children('skill://nextjs-app-router')).map((r) => [r.uri, r.mimeType])).toEqual([
      ['skill://nextjs-app-router/1.0.0', 'inode/directory'],
      ['skill://nextjs-app-router/1.1.0', 'inode/directory'],
      ['skill://nextjs-app-router/add-route', 'inode/directory'],
    ]);
    expect((await children('skill://nextjs-app-router/1.0.0/add-route')).map((r) => r.uri)).toEqual(['skill://nextjs-app-router/1.0.0/add-route/SKILL.md', 'skill://nextjs-app-router/1.0.0/add-route/references']);
    expect(await children('skill://discord-bot-ts')).toEqual([]);
  });

  it('every file it lists is readable, and every file of a listed skill is reached by descending from its root', async () => {
    const { skills } = await listAll();
    for (const entry of skills) {
      const root = entry.uri.slice(0, -'/SKILL.md'.length);
      const found: string[] = [];
      const walk = async (uri: string): Promise<void> => {
        for (const child of await children(uri)) {
          if (child.mimeType === 'inode/directory') await walk(child.uri);
          else found.push(child.uri);
        }
      };
      await walk(root);
      expect(found.sort()).toEqual(entry.resources.map((r) => r.uri).sort());
    }
  });

  it.each([
    ['a file', 'skill://nextjs-app-router/add-route/SKILL.md'],
    ['a folder the skill lacks', 'skill://nextjs-app-router/add-route/scripts'],
    ['an unknown skill', 'skill://nextjs-app-router/no-skill'],
    ['an unknown loadout', 'skill://nope'],
    ['an unknown version', 'skill://nextjs-app-router/9.9.9'],
    ['a trailing slash', 'skill://nextjs-app-router/add-route/'],
    ['another scheme', 'https://example.com/'],
  ])('answers -32602 with data {uri} for %s', async (_label, uri) => {
    const error = await errorOf(readDirectory(uri));
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ uri });
    expect(error.message).toContain('is not a directory of this server');
  });

  it('refuses a cursor it did not give out', async () => {
    const error = await errorOf(readDirectory('skill://nextjs-app-router/add-route', Buffer.from('5').toString('base64url')));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('(expected the nextCursor of the previous resources/directory/read page, or no cursor)');
  });
});
