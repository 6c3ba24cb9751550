import fc from 'fast-check';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { addMember, describeMemoProblem, readJson, removeMember, replaceMember, restoreContainers, type ContainerMemo } from '../../../src/install/compose/json-members.js';

/** Adds `name` to `/mcpServers` and takes it out again, giving the text in between and after. */
function roundTrip(text: string, name = 's', value: unknown = { command: 'x', args: ['a'] }): { added: string; after: string; memo: ContainerMemo } {
  const memo: ContainerMemo = {};
  const added = addMember(text, '/mcpServers', { name, value }, memo);
  const after = restoreContainers(removeMember(added, '/mcpServers', name), memo);
  return { added, after, memo };
}

describe('JSON members edited in place (json-members.ts)', () => {
  it('adds a server in the style of the file around it, and takes it out byte for byte', () => {
    const pretty = '{\n  "mcpServers": {\n    "mine": { "command": "mine" }\n  }\n}\n';
    expect(roundTrip(pretty).added).toBe('{\n  "mcpServers": {\n    "mine": { "command": "mine" },\n    "s": {\n      "command": "x",\n      "args": [\n        "a"\n      ]\n    }\n  }\n}\n');
    const compact = '{"mcpServers":{"mine":{"command":"mine"}}}';
    expect(roundTrip(compact).added).toBe('{"mcpServers":{"mine":{"command":"mine"},"s":{"command":"x","args":["a"]}}}');
    const tabs = '{\r\n\t"servers": 1,\r\n\t"mcpServers": {\r\n\t\t"mine": {}\r\n\t}\r\n}';
    expect(roundTrip(tabs).added).toContain('\t\t"mine": {},\r\n\t\t"s": {\r\n\t\t\t"command": "x",\r\n\t\t\t"args": [\r\n\t\t\t\t"a"\r\n\t\t\t]\r\n\t\t}\r\n\t}');
    for (const text of [pretty, compact, tabs]) expect(roundTrip(text).after).toBe(text);
  });

  it('keeps numbers as written, comments, trailing commas and a byte order mark; an absent or empty container comes back as it was', () => {
    for (const text of [
      '{"ui": { "theme": "GitHub" }, "n": 12345678901234567890, "f": 1.10}',
      '{"other": 1}',
      '{\n  // mine\n  "mcpServers": {},\n}\n',
      '{\n  "mcpServers": { /* none yet */ }\n}\n',
      '{\n  "a": 1 // last\n}\n',
      '\uFEFF{"a": 1}\n',
      '{}',
      '{ }\n',
      '',
      '\n',
      '// only a comment\n',
    ]) {
      const { added, after, memo } = roundTrip(text);
      expect(parse(added), text).toMatchObject({ mcpServers: { s: { command: 'x', args: ['a'] } } });
      expect(after, text).toBe(text);
      expect(memo, text).toEqual({});
    }
    expect(roundTrip('{"ui": { "theme": "GitHub" }, "n": 12345678901234567890, "f": 1.10}').added).toBe('{"ui": { "theme": "GitHub" }, "n": 12345678901234567890, "f": 1.10, "mcpServers": {"s":{"command":"x","args":["a"]}}}');
  });

  it('takes out a member the user put a comment beside without the comment swallowing what follows', () => {
    const text = '{\n  "mcpServers": { // mine\n    "s": 1\n  }\n}\n';
    const removed = removeMember(text, '/mcpServers', 's');
    expect(removed).toBe('{\n  "mcpServers": { // mine\n  }\n}\n');
    const between = '{\n  "a": 1, // about b\n  "b": 2\n}\n';
    expect(removeMember(between, '', 'b')).toBe('{\n  "a": 1 // about b\n}\n');
    const middle = '{\n  "a": 1, // about b\n  "b": 2,\n  "c": 3\n}\n';
    expect(parse(removeMember(middle, '', 'b'))).toEqual({ a: 1, c: 3 });
    expect(removeMember(middle, '', 'b')).toContain('// about b');
    // A line comment right before the member, and the closing bracket on the member's line: the line break stays.
    expect(removeMember('{ // mine\n  "s": 1 }', '', 's')).toBe('{ // mine\n }');
  });

  it('replaces a member\'s value in place, indented as the member', () => {
    const text = '{\n  "mcpServers": {\n    "s": {"command": "old"}, "t": 1\n  }\n}\n';
    expect(replaceMember(text, '/mcpServers', 's', { command: 'new' })).toBe('{\n  "mcpServers": {\n    "s": {\n      "command": "new"\n    }, "t": 1\n  }\n}\n');
  });

  it('adds array elements at the end and a new array as the first key, and takes them out', () => {
    const memo: ContainerMemo = {};
    const text = '{\n  "servers": {}\n}\n';
    const added = addMember(text, '/inputs', { value: { id: 'A' } }, memo, true);
    expect(added).toBe('{\n  "inputs": [\n    {\n      "id": "A"\n    }\n  ],\n  "servers": {}\n}\n');
    const two = addMember(added, '/inputs', { value: { id: 'B' } }, memo);
    expect(parse(two)).toEqual({ inputs: [{ id: 'A' }, { id: 'B' }], servers: {} });
    expect(restoreContainers(removeMember(removeMember(two, '/inputs', 0), '/inputs', 0), memo)).toBe(text);
  });

  it('by property: any JSON object, written compact or indented, comes back byte for byte after servers are added and taken out in any order', () => {
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,6}$/u);
    const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('1.10', '12345678901234567890', '-0', '1e3'));
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(key, scalar, { maxKeys: 3 }));
    const doc = fc.record({ keys: fc.dictionary(key, value, { maxKeys: 4 }), servers: fc.option(fc.dictionary(key, fc.dictionary(key, scalar, { maxKeys: 2 }), { maxKeys: 2 }), { nil: undefined }) });
    const style = fc.record({ indent: fc.constantFrom(undefined, 2, 4, '\t'), eol: fc.constantFrom('\n', '\r\n'), newline: fc.boolean(), comment: fc.boolean(), bom: fc.boolean() });
    fc.assert(
      fc.property(doc, style, fc.uniqueArray(fc.stringMatching(/^srv-[a-z]{1,4}$/u), { minLength: 1, maxLength: 4 }), fc.func(fc.boolean()), ({ keys, servers }, s, names, order) => {
        const object = servers === undefined ? keys : { ...keys, mcpServers: servers };
        // Numbers as the user spells them: a string value '1.10' becomes the bare number 1.10.
        let text = JSON.stringify(object, null, s.indent).replace(/"(1\.10|12345678901234567890|-0|1e3)"/gu, '$1').replaceAll('\n', s.eol);
        if (s.comment && s.indent !== undefined) text = text.replace(`{${s.eol}`, `{ // settings${s.eol}`);
        text = `${s.bom ? '\uFEFF' : ''}${text}${s.newline ? s.eol : ''}`;
        const memo: ContainerMemo = {};
        let current = text;
        for (const name of names) current = addMember(current, '/mcpServers', { name, value: { command: name } }, memo);
        expect(parse(current.replace(/^\uFEFF/u, ''))).toMatchObject({ mcpServers: Object.fromEntries(names.map((n) => [n, { command: n }])) });
        for (const name of [...names].sort((a, b) => (order(a, b) ? -1 : 1))) current = restoreContainers(removeMember(current, '/mcpServers', name), memo);
        expect(current).toBe(text);
        expect(memo).toEqual({});
      }),
      { numRuns: 300 },
    );
  });

  it('reads JSON with comments and trailing commas, and names the line of what is not JSON', () => {
    expect(readJson('{\n  // c\n  "a": 1,\n}\n')).toMatchObject({ ok: true, value: { a: 1 } });
    expect(readJson('{\n  "a": 1\n  "b": 2\n}\n')).toEqual({ ok: false, problem: 'is not JSON at line 3 (CommaExpected)' });
  });

  it('refuses a memo from a lock that would write anything but an empty container', () => {
    const keys = ['mcpServers'];
    expect(describeMemoProblem({ '': '{}\n', '/mcpServers': null }, keys)).toBeUndefined();
    expect(describeMemoProblem({ '/mcpServers': '{ /* none */ }' }, keys)).toBeUndefined();
    expect(describeMemoProblem({ '/mcpServers': '{"evil": {"command": "sh"}}' }, keys)).toMatch(/not an empty object or array/u);
    expect(describeMemoProblem({ '': '{"a": 1}' }, keys)).toMatch(/not an empty file or object/u);
    expect(describeMemoProblem({ '/theme': null }, keys)).toMatch(/names "\/theme"/u);
    expect(describeMemoProblem({ '/mcpServers': 3 }, keys)).toMatch(/expected the text of an empty container/u);
    expect(describeMemoProblem([], keys)).toMatch(/not an object/u);
  });
});
