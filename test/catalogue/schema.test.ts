import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAuthoringSchema, SCHEMA_PATH, validateAgainstSchema } from '../../src/catalogue/schema.js';
import { standaloneValidatorSource, VALIDATOR_PATH } from '../../src/catalogue/schema-standalone.js';
import { AUTHORING_AGENTS, CATEGORIES, ROLES } from '../../src/catalogue/vocabulary.js';
import { testManifest } from '../helpers/loadouts.js';

const valid = (): Record<string, unknown> => testManifest({ id: 'sample-loadout' });
const file = (overrides: Record<string, unknown>): Record<string, unknown> => ({ path: 'rules/a.md', role: 'rules', description: 'A rule', ...overrides });

/** Applies `mutate` to a valid manifest and returns the violations. */
function violations(mutate: (m: Record<string, unknown>) => void): { pointer: string; message: string }[] {
  const m = valid();
  mutate(m);
  return validateAgainstSchema(m);
}

describe('authoring schema', () => {
  it('validates with the code Ajv makes of the schema now (schema/loadout.validate.cjs is up to date: else run npm run schema:validator)', () => {
    expect(readFileSync(VALIDATOR_PATH, 'utf8'), 'schema/loadout.validate.cjs is stale: run npm run schema:validator').toBe(standaloneValidatorSource(SCHEMA_PATH));
  });

  it('accepts a complete valid manifest, and one with every optional field', () => {
    expect(validateAgainstSchema(valid())).toEqual([]);
    const full = valid();
    Object.assign(full, {
      source: { repo: 'https://github.com/x/y', path: 'a', commit: 'abc' },
      compatibility: { 'claude-code': 'adapter', codex: 'native' },
      featured: true,
      deprecated: false,
      published: '2026-01-01',
      updated: '2026-02-01',
    });
    (full['files'] as unknown[]).push(file({ install_to: { cursor: '.cursor/rules/a.mdc', codex: null } }));
    (full['files'] as unknown[]).push(file({ path: 'skills/s/SKILL.md', role: 'skill', skill: 's' }));
    expect(validateAgainstSchema(full)).toEqual([]);
  });

  it('is draft 2020-12 and rejects unknown properties at the top level', () => {
    expect(readAuthoringSchema()['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(violations((m) => (m['extra'] = 1))).toEqual([expect.objectContaining({ pointer: '/extra', message: expect.stringContaining('unknown field "extra"') })]);
  });

  // Each row: a mutation that breaks exactly one constraint, and the pointer it must be reported at.
  const cases: [string, (m: Record<string, unknown>) => void, string, RegExp][] = [
    ['id not a slug', (m) => (m['id'] = 'Bad--Id'), '/id', /slug/],
    ['id with a trailing hyphen', (m) => (m['id'] = 'bad-'), '/id', /slug/],
    ['type not loadout', (m) => (m['type'] = 'bundle'), '/type', /expected "loadout"/],
    ['title too short', (m) => (m['title'] = 'ab'), '/title', /at least 3/],
    ['title too long', (m) => (m['title'] = 'x'.repeat(61)), '/title', /at most 60/],
    ['summary too short', (m) => (m['summary'] = 'short'), '/summary', /at least 20/],
    ['summary too long', (m) => (m['summary'] = 'x'.repeat(201)), '/summary', /at most 200/],
    ['description too short', (m) => (m['description'] = 'short'), '/description', /at least 20/],
    ['no highlights', (m) => (m['highlights'] = []), '/highlights', /at least 1/],
    ['nine highlights', (m) => (m['highlights'] = Array(9).fill('h')), '/highlights', /at most 8/],
    ['version not semver', (m) => (m['version'] = '1.0'), '/version', /MAJOR\.MINOR\.PATCH/],
    ['version with a suffix', (m) => (m['version'] = '1.0.0-beta'), '/version', /MAJOR\.MINOR\.PATCH/],
    ['license too short', (m) => (m['license'] = 'M'), '/license', /at least 2/],
    ['author without name', (m) => (m['author'] = { url: 'https://x.dev' }), '/author', /missing required field "name"/],
    ['author url not a URI', (m) => (m['author'] = { name: 'A', url: 'not a url' }), '/author/url', /URI/],
    ['author extra key', (m) => (m['author'] = { name: 'A', email: 'a@b.c' }), '/author/email', /unknown field/],
    ['source without repo', (m) => (m['source'] = { path: 'x' }), '/source', /"repo"/],
    ['source extra key', (m) => (m['source'] = { repo: 'https://x.dev', branch: 'main' }), '/source/branch', /unknown field/],
    ['no categories', (m) => (m['categories'] = []), '/categories', /at least 1/],
    ['unknown category', (m) => (m['categories'] = ['games']), '/categories/0', /expected one of "web-app"/],
    ['no stacks', (m) => (m['stacks'] = []), '/stacks', /at least 1/],
    ['stack not a slug', (m) => (m['stacks'] = ['Next.js']), '/stacks/0', /slug/],
    ['no files', (m) => (m['files'] = []), '/files', /at least 1/],
    ['file without path', (m) => (m['files'] = [{ role: 'instructions', description: 'x' }]), '/files/0', /"path"/],
    ['file with empty path', (m) => (m['files'] = [file({ path: '' })]), '/files/0/path', /at least 1/],
    ['file with unknown role', (m) => (m['files'] = [file({ role: 'docs' })]), '/files/0/role', /expected one of "instructions"/],
    ['file description too long', (m) => (m['files'] = [file({ description: 'x'.repeat(201) })]), '/files/0/description', /at most 200/],
    ['file description empty', (m) => (m['files'] = [file({ description: '' })]), '/files/0/description', /at least 1/],
    ['adapter without agent', (m) => (m['files'] = [file({ role: 'adapter', path: 'CLAUDE.md' })]), '/files/0', /"agent"/],
    ['agent on a rules file', (m) => (m['files'] = [file({ agent: 'codex' })]), '/files/0', /adapter files only/],
    ['adapter for an unknown agent', (m) => (m['files'] = [file({ role: 'adapter', agent: 'antigravity-cli' })]), '/files/0/agent', /expected one of/],
    ['skill without skill name', (m) => (m['files'] = [file({ role: 'skill', path: 'skills/s/SKILL.md' })]), '/files/0', /"skill"/],
    ['skill name not a slug', (m) => (m['files'] = [file({ role: 'reference', skill: 'My Skill' })]), '/files/0/skill', /slug/],
    ['file extra key', (m) => (m['files'] = [file({ mode: '0755' })]), '/files/0/mode', /unknown field/],
    ['install_to for an unknown agent', (m) => (m['files'] = [file({ install_to: { vim: 'x' } })]), '/files/0/install_to', /agent identifier/],
    ['install_to with a number', (m) => (m['files'] = [file({ install_to: { codex: 3 } })]), '/files/0/install_to/codex', /string or null/],
    ['compatibility for an unknown agent', (m) => (m['compatibility'] = { vim: 'native' }), '/compatibility', /agent identifier/],
    ['compatibility unknown level', (m) => (m['compatibility'] = { codex: 'full' }), '/compatibility/codex', /expected one of "native"/],
    ['requires extra key', (m) => (m['requires'] = { tools: [], os: [] }), '/requires/os', /unknown field/],
    ['requires.tools not strings', (m) => (m['requires'] = { tools: [1] }), '/requires/tools/0', /expected string/],
    ['tested missing', (m) => delete m['tested'], '', /"tested"/],
    ['tested.status unknown', (m) => (m['tested'] = { status: 'green', last_run: null, fixture: null }), '/tested/status', /expected one of "passing"/],
    ['tested.last_run not a date', (m) => (m['tested'] = { status: 'passing', last_run: 'yesterday', fixture: null }), '/tested/last_run', /YYYY-MM-DD/],
    ['tested.fixture missing', (m) => (m['tested'] = { status: 'passing', last_run: null }), '/tested', /"fixture"/],
    ['tested.per_agent unknown value', (m) => (m['tested'] = { status: 'passing', last_run: null, fixture: null, per_agent: { codex: 'ok' } }), '/tested/per_agent/codex', /expected one of "pass"/],
    ['security.scanned missing', (m) => (m['security'] = { network: false }), '/security', /"scanned"/],
    ['security.network not boolean', (m) => (m['security'] = { scanned: true, network: 'no' }), '/security/network', /expected boolean/],
    ['security.verdict unknown', (m) => (m['security'] = { scanned: true, network: false, verdict: 'ok' }), '/security/verdict', /expected one of "clean"/],
    ['featured not boolean', (m) => (m['featured'] = 'yes'), '/featured', /expected boolean/],
    ['deprecated not boolean', (m) => (m['deprecated'] = 1), '/deprecated', /expected boolean/],
    ['last_checked missing', (m) => delete m['last_checked'], '', /"last_checked"/],
  ];

  it.each(cases)('rejects %s', (_name, mutate, pointer, message) => {
    const found = violations(mutate);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContainEqual(expect.objectContaining({ pointer, message: expect.stringMatching(message) }));
  });

  it('reports every violation at once', () => {
    const found = violations((m) => {
      m['title'] = 'x';
      m['version'] = 'one';
      m['categories'] = ['nope'];
    });
    expect(found.map((v) => v.pointer).sort()).toEqual(['/categories/0', '/title', '/version']);
  });

  it('accepts any value for the loose dates, as the spec says', () => {
    expect(violations((m) => (m['last_checked'] = 'last week'))).toEqual([]);
    expect(violations((m) => (m['published'] = '2026'))).toEqual([]);
  });

  it('lists the same vocabularies as the code (no drift)', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schema/loadout.schema.json', import.meta.url), 'utf8')) as { $defs: Record<string, { enum?: string[] }>; properties: Record<string, unknown> };
    expect(schema.$defs['agent']?.enum).toEqual([...AUTHORING_AGENTS]);
    expect(schema.$defs['category']?.enum).toEqual([...CATEGORIES]);
    const role = (schema.$defs['fileEntry'] as unknown as { properties: { role: { enum: string[] } } }).properties.role.enum;
    expect(role).toEqual([...ROLES]);
  });
});
