import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { appendServerTable, removeServerTable, topLines } from '../../../src/install/compose/toml-tables.js';
import { mergeServers, removeServers } from '../../../src/install/compose/mcp-servers.js';

const USER = `# My Codex settings
model = "o4-mini"   # the fast one
approval_policy = "on-request"

[mcp_servers.mine]
command = "my-server"
args = [
  "--flag", # a comment inside an array
  "[not a header]",
]

[profiles.fast]
model = "o4-mini"
`;

const SERVER = { command: 'uvx', args: ['postgres-mcp'], env_vars: ['DATABASE_URI'] };

describe('Codex config.toml edited line by line (toml-tables.ts)', () => {
  it('adds a table at the end and takes exactly it out again, the user\'s bytes untouched', () => {
    const added = appendServerTable(USER, 'postgres', SERVER);
    expect(added.ok).toBe(true);
    const text = added.ok ? added.text : '';
    expect(text.startsWith(USER)).toBe(true);
    expect(text.slice(USER.length)).toBe('\n[mcp_servers.postgres]\ncommand = "uvx"\nargs = ["postgres-mcp"]\nenv_vars = ["DATABASE_URI"]\n');
    expect((parse(text) as { mcp_servers: Record<string, unknown> }).mcp_servers).toEqual({ mine: { command: 'my-server', args: ['--flag', '[not a header]'] }, postgres: SERVER });
    const removed = removeServerTable(text, 'postgres');
    expect(removed).toEqual({ ok: true, text: USER });
  });

  it('writes a table with CRLF into a CRLF file, and takes it out again', () => {
    const crlf = USER.replaceAll('\n', '\r\n');
    const added = appendServerTable(crlf, 'postgres', SERVER);
    expect(added).toEqual({ ok: true, text: `${crlf}\r\n[mcp_servers.postgres]\r\ncommand = "uvx"\r\nargs = ["postgres-mcp"]\r\nenv_vars = ["DATABASE_URI"]\r\n` });
    expect(removeServerTable(added.ok ? added.text : '', 'postgres')).toEqual({ ok: true, text: crlf });
  });

  it('takes a table out of the middle, keeping the tables after it and their spacing', () => {
    const a = appendServerTable(USER, 'a', { command: 'a' });
    const b = a.ok ? appendServerTable(a.text, 'b', { command: 'b' }) : a;
    const without = b.ok ? removeServerTable(b.text, 'a') : b;
    expect(without).toEqual({ ok: true, text: `${USER}\n[mcp_servers.b]\ncommand = "b"\n` });
  });

  it('refuses a file whose mcp_servers is an inline table, or that is not TOML, naming why', () => {
    const inline = appendServerTable('mcp_servers = { mine = { command = "x" } }\n', 'postgres', SERVER);
    expect(inline).toMatchObject({ ok: false, problem: expect.stringContaining('cannot take a [mcp_servers.postgres] table') as unknown });
    expect(appendServerTable('model = \n', 'x', SERVER)).toMatchObject({ ok: false, problem: expect.stringMatching(/^is not TOML at line 1/u) as unknown });
  });

  it('refuses to take out a table the user split over sub-tables, rather than guess', () => {
    const text = `${USER}\n[mcp_servers.postgres]\ncommand = "uvx"\n\n[mcp_servers.postgres.env]\nA = "b"\n`;
    expect(removeServerTable(text, 'postgres')).toMatchObject({ ok: false });
  });

  it('finds headers only on lines that start outside strings and brackets', () => {
    const text = 'a = """\n[x]\n\\"""\n[y]\n"""\nb = \'\'\'\n[z]\n\'\'\'\nc = [\n  1,\n]\nd = "q\\"[" # [w\n[real]\n';
    expect(text.split(/(?<=\n)/u).filter((_l, k) => topLines(text)[k] === true)).toEqual(['a = """\n', 'b = \'\'\'\n', 'c = [\n', 'd = "q\\"[" # [w\n', '[real]\n']);
  });

  it('by property: any user file ending in a newline comes back byte for byte after servers are added and removed in any order', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/u);
    const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }));
    const userDoc = fc.dictionary(key, fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 })), { maxKeys: 5 });
    const extra = fc.array(fc.constantFrom('', '# note', '   ', '# [mcp_servers.fake]'), { maxLength: 3 });
    // Values whose text reads like the header of a table the installer adds (issue 53, point 13).
    const decoy = (name: string): string[] => [`decoy-1 = """\n[mcp_servers.${name}]\ncommand = "x"\n"""`, `decoy-2 = '''\n[mcp_servers.${name}]\n'''`, `decoy-3 = """\\"""\n[mcp_servers.${name}]\n"""`, `decoy-4 = """\n[mcp_servers.${name}]""""`, `decoy-5 = [\n  "[mcp_servers.${name}]",\n]`, `decoy-6 = { a = "[mcp_servers.${name}]" }`];
    fc.assert(
      fc.property(userDoc, extra, fc.uniqueArray(key, { minLength: 1, maxLength: 4 }), fc.func(fc.boolean()), fc.subarray([0, 1, 2, 3, 4, 5]), (doc, plain, names, order, decoys) => {
        const lines = [...plain, ...decoys.map((i) => decoy(names[0] ?? '')[i] ?? '')];
        const user = `${lines.join('\n')}${lines.length > 0 ? '\n' : ''}${stringify(doc)}`;
        const text = user === '' || user.endsWith('\n') ? user : `${user}\n`;
        let current = text;
        for (const name of names) {
          const added = appendServerTable(current, name, { command: name, env: { K: name } });
          expect(added.ok).toBe(true);
          if (added.ok) current = added.text;
        }
        const removal = [...names].sort((a, b) => (order(a, b) ? -1 : 1));
        for (const name of removal) {
          const removed = removeServerTable(current, name);
          expect(removed.ok, name).toBe(true);
          if (removed.ok) current = removed.text;
        }
        expect(current).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('MCP parts merged into each format (mcp-servers.ts)', () => {
  it('merges VS Code servers and their inputs, and keeps an input a remaining server still reads', () => {
    const input = { type: 'promptString', id: 'TOKEN', description: 'TOKEN', password: true };
    const a = mergeServers(undefined, '.vscode/mcp.json', { a: { type: 'stdio', command: 'a', env: { T: '${input:TOKEN}' } }, 'input:TOKEN': input });
    expect(JSON.parse(a.text ?? '')).toEqual({ inputs: [input], servers: { a: { type: 'stdio', command: 'a', env: { T: '${input:TOKEN}' } } } });
    const b = mergeServers(a.text, '.vscode/mcp.json', { b: { type: 'stdio', command: 'b', env: { T: '${input:TOKEN}' } }, 'input:TOKEN': input });
    expect(b.conflicts).toEqual([]);
    const withoutA = removeServers(b.text ?? '', '.vscode/mcp.json', a.owned);
    expect(withoutA.removed).toEqual(['a']);
    expect(JSON.parse(withoutA.text)).toEqual({ inputs: [input], servers: { b: { type: 'stdio', command: 'b', env: { T: '${input:TOKEN}' } } } });
    // The file did not exist: what the first merge recorded of it gives back nothing at all.
    expect(a.memo).toEqual({ '': '', '/servers': null, '/inputs': null });
    expect(removeServers(withoutA.text, '.vscode/mcp.json', b.owned, a.memo)).toMatchObject({ text: '', memo: {} });
  });

  it('merges into Codex TOML and reports a server of the user\'s under the same name as a conflict', () => {
    const merged = mergeServers(USER, '.codex/config.toml', { postgres: SERVER });
    expect(merged.text?.startsWith(USER)).toBe(true);
    expect(mergeServers(USER, '.codex/config.toml', { mine: SERVER }).conflicts).toEqual(['mine']);
    expect(removeServers(merged.text ?? '', '.codex/config.toml', merged.owned)).toEqual({ text: USER, removed: ['postgres'], kept: [], memo: {} });
  });
});

describe('a hostile server name or value cannot reach another part of config.toml', () => {
  it('quotes the name and the values, so only the one table is added', () => {
    const name = 'x]\n[projects."/"]\ntrust_level = "trusted"\n[y';
    const added = appendServerTable(USER, name, { command: 'sh"\napproval_policy = "never', args: ['\n[sandbox]'] });
    expect(added.ok).toBe(true);
    const doc = parse(added.ok ? added.text : '') as Record<string, unknown>;
    expect(doc['approval_policy']).toBe('on-request');
    expect(doc['projects']).toBeUndefined();
    expect(Object.keys(doc['mcp_servers'] as object)).toEqual(['mine', name]);
    expect(removeServerTable(added.ok ? added.text : '', name)).toEqual({ ok: true, text: USER });
  });
});
