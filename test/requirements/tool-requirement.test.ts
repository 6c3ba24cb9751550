/**
 * The grammar of a `requires.tools` entry (requirements/tool-requirement.ts): a name, then
 * optionally a semver range right after an operator or after white space; `loadout validate`
 * names the line and field of an entry that does not read; the record publishes it unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readToolRequirement } from '../../src/requirements/tool-requirement.js';
import { runCli } from '../helpers/cli.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

describe('readToolRequirement', () => {
  it('reads a name alone, a name and a range after an operator, and a name, white space and a range', () => {
    const read = (text: string): unknown => {
      const r = readToolRequirement(text);
      return r.ok ? [r.requirement.name, r.requirement.range] : r.problem;
    };
    expect(read('uv')).toEqual(['uv', undefined]);
    expect(read('python>=3.11')).toEqual(['python', '>=3.11']);
    expect(read('node>=20')).toEqual(['node', '>=20']);
    expect(read('git >=2.40')).toEqual(['git', '>=2.40']);
    expect(read('node >=18 <23')).toEqual(['node', '>=18 <23']);
    expect(read('java 21.x')).toEqual(['java', '21.x']);
    expect(read('osv-scanner^1.9')).toEqual(['osv-scanner', '^1.9']);
    expect(read('python3.12~3.12.1')).toEqual(['python3.12', '~3.12.1']);
    expect(read('g++')).toEqual(['g++', undefined]);
  });

  it('refuses what does not read, saying what and what was expected', () => {
    const problem = (text: string): string => {
      const r = readToolRequirement(text);
      return r.ok ? 'ok' : r.problem.replace(/ \(expected a command name.*\)$/u, '');
    };
    expect(problem('')).toBe('is empty');
    expect(problem(' node')).toBe('does not start with a command name');
    expect(problem('node@20')).toBe('has "@" after the name "node"');
    expect(problem('bin/node')).toBe('has "/" after the name "bin"');
    expect(problem('uv ')).toBe('ends with white space');
    expect(problem('python>=3.x.y')).toMatch(/^has the range ">=3\.x\.y", which is not a semver range \(expected a semver range/u);
    expect(problem('node >= twenty')).toMatch(/^has the range ">= twenty", which is not a semver range/u);
    expect(problem(`a${'b'.repeat(64)}`)).toBe('has a name of 65 characters (at most 64)');
    expect(readToolRequirement('node@20')).toEqual({ ok: false, problem: 'has "@" after the name "node" (expected a command name such as uv, optionally followed by a semver range: python>=3.11, node >=18 <23, git ^2.40)' });
  });

  it('reads back every name and range it is given, joined either way (property)', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,20}$/u);
    const version = fc.tuple(fc.nat(40), fc.nat(40), fc.nat(40)).map((parts) => parts.join('.'));
    const range = fc.tuple(fc.constantFrom('>=', '<', '^', '~', '='), version).map(([op, v]) => `${op}${v}`);
    fc.assert(
      fc.property(name, range, fc.boolean(), (n, r, spaced) => {
        const read = readToolRequirement(`${n}${spaced ? ' ' : ''}${r}`);
        return read.ok && read.requirement.name === n && read.requirement.range === r;
      }),
    );
  });
});

describe('loadout validate and the record', () => {
  it('names the line and field of a range that does not read, and publishes the entries unchanged', async () => {
    const root = makeTempDir();
    writeLoadout(root, { id: 'tools', manifest: { requires: { tools: ['uv', 'python>=3.11', 'node@20'], env: [], mcp: [] } } });
    const bad = await runCli(['validate'], root);
    expect(bad.code).toBe(1);
    const manifest = readFileSync(join(root, 'loadouts/tools/loadout.yaml'), 'utf8');
    const line = manifest.split('\n').findIndex((l) => l.includes('node@20')) + 1;
    expect(bad.stderr).toContain(`loadouts/tools/loadout.yaml:${line}: /requires/tools/2 "node@20" has "@" after the name "node" (expected a command name such as uv`);

    writeLoadout(root, { id: 'tools', manifest: { requires: { tools: ['uv', 'python>=3.11', 'git >=2.40'], env: [], mcp: [] } } });
    const good = await runCli(['validate'], root);
    expect(good.code, good.stderr).toBe(0);
    const built = await runCli(['build', '--out', join(root, 'dist')], root);
    expect(built.code, built.stderr).toBe(0);
    const record = JSON.parse(readFileSync(join(root, 'dist/api/loadouts/tools.json'), 'utf8')) as { requires: { tools: string[] } };
    expect(record.requires.tools).toEqual(['uv', 'python>=3.11', 'git >=2.40']);
    const versions = JSON.parse(readFileSync(join(root, 'dist/api/loadouts/tools/versions.json'), 'utf8')) as { versions: { requires?: unknown }[] };
    expect(versions.versions.at(-1)?.requires).toEqual({ tools: ['uv', 'python>=3.11', 'git >=2.40'], env: [], mcp: [] });
  });
});
