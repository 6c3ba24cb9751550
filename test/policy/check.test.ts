/**
 * The hand-written check of a policy (policy/check.ts, which the consumer CLI carries instead of
 * Ajv) and the published schema (schema/policy.schema.json, read by Ajv as `verify` and editors
 * read it) give the same verdict: a fast-check property over drawn policies, most of them near a
 * valid one with a few values wrong, prints the failing policy. Then the schema itself: strict
 * for Ajv, and every rule of docs/policy.md's worked example valid.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { describePolicyProblems, pointerToPath } from '../../src/policy/check.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/policy.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
const validate = ajv.compile(schema);

const AGENTS = ['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot', 'antigravity-cli'];
const KINDS = ['hooks', 'scripts', 'permission-bypass', 'wildcard-grants', 'unpinned-packages'];
const KEY = 'a'.repeat(64);

/** A value of the wrong kind, or a string of odd characters. */
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.constant([]), fc.constant({}), fc.string({ maxLength: 6 }), fc.constantFrom('', ' ', 'UPPER', 'a b', 'é', '😀', 'x/y'));

/**
 * Policies, near valid ones: with `noise`, each value is now and then of the wrong kind, a list
 * item one the schema refuses, or an unknown key is there; without, every value is one the
 * schema accepts (the draw of valid policies).
 */
function policies(noise: boolean): fc.Arbitrary<unknown> {
  const maybe = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown> = junk): fc.Arbitrary<unknown> => (noise ? fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 }) : valid);
  const pick = (valid: readonly string[], invalid: readonly string[]): fc.Arbitrary<unknown> => maybe(fc.constantFrom(...valid), fc.constantFrom(...invalid));
  const list = (item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => maybe(fc.array(item, { maxLength: 4 }));
  const extra = <T extends Record<string, unknown>>(record: fc.Arbitrary<T>, key: string): fc.Arbitrary<unknown> => (noise ? fc.tuple(record, fc.nat(40)).map(([r, n]) => (n === 0 ? { ...r, [key]: 1 } : r)) : record);
  const unique = (valid: readonly string[], invalid: string): fc.Arbitrary<unknown> =>
    maybe(fc.uniqueArray(fc.constantFrom(...valid), { maxLength: 3 }).chain((a) => (noise ? fc.constantFrom(a, [...a, ...a.slice(0, 1)], [...a, invalid]) : fc.constant(a))));
  const name = pick(['kit-docs', '@scope/*', 'postgres-mcp', 'A_b', 'ghcr.io/a/b', 'node ./x.js'], ['']);
  const pkg = fc
    .tuple(fc.constantFrom('npm', 'pypi', 'oci', 'local'), name, fc.option(pick(['^1.2.0', '>=0.3 <1', 'sha256:*'], ['']), { nil: undefined }), noise ? fc.constantFrom(0, 0, 0, 0, 1, 2) : fc.constant(0))
    .map(([registry, n, version, twist]) => {
      const entry: Record<string, unknown> = { [registry]: n, ...(version === undefined ? {} : { version }) };
      // A second registry, or none: the schema's oneOf.
      if (twist === 1) entry[registry === 'npm' ? 'pypi' : 'npm'] = 'x';
      if (twist === 2) delete entry[registry];
      return entry;
    });
  const exception = extra(fc.record({ loadout: pick(['kit', 'dbt-analytics'], ['Kit', 'a--b']), version: pick(['1.2.0', '10.0.1'], ['1.2', 'v1.2.0']), reason: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }) }, { requiredKeys: ['loadout', 'version'] }).map((e) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>), 'when');
  return extra(
    fc.record(
      {
        $schema: maybe(fc.constant('https://loadouts.example/api/policy.schema.json')),
        catalogues: list(pick(['https://c.example', 'http://127.0.0.1:8787/', 'HTTPS://X.example'], ['ftp://x', 'c.example', 'https://a b'])),
        loadouts: maybe(extra(fc.record({ allow: list(pick(['kit', 'kit-*', 'dbt-{a,b}', '[a-z]*', '!x', 'a.b'], ['Kit', 'a b', ''])), deny: list(pick(['kit', 'x-*'], ['Kit'])) }, { requiredKeys: [] }), 'other')),
        agents: unique(AGENTS, 'vim'),
        mcp: maybe(
          extra(
            fc.record(
              {
                packages: maybe(extra(fc.record({ allow: list(pkg) }), 'more')),
                hosts: maybe(extra(fc.record({ allow: list(pick(['api.example.com', '*.example.com', 'h:8443'], ['a/b', '', 'a b'])) }), 'more')),
                require_pinned: maybe(fc.boolean()),
              },
              { requiredKeys: [] },
            ),
            'other',
          ),
        ),
        deny: unique(KINDS, 'network'),
        signing: maybe(extra(fc.record({ require: maybe(fc.boolean()), keys: maybe(fc.array(pick([KEY], ['ABC']), { minLength: 1, maxLength: 2 }), fc.constant([])) }, { requiredKeys: noise ? [] : ['require'] }), 'other')),
        min_release_age: pick(['7d', '12h', '2w', '0d', '9999w'], ['7 days', '1y', '10000d']),
        exceptions: list(exception),
      },
      { requiredKeys: [] },
    ),
    'unknown_rule',
  );
}

describe('the policy check and the published schema', () => {
  it('agree on every drawn policy (fast-check: the failing policy is printed)', () => {
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: policies(false), weight: 4 }, { arbitrary: policies(true), weight: 8 }, { arbitrary: junk, weight: 1 }), (value) => {
        const hand = describePolicyProblems(value);
        const schemaSays = validate(value);
        if (schemaSays) valid++;
        expect(hand.length === 0, `check: ${JSON.stringify(hand)}\najv: ${JSON.stringify(validate.errors)}\npolicy: ${JSON.stringify(value)}`).toBe(schemaSays);
      }),
      { numRuns: 3000 },
    );
    // The draw is not all refusals: both verdicts are tried many times.
    expect(valid).toBeGreaterThan(200);
    expect(valid).toBeLessThan(2800);
  });

  it('accepts docs/policy.md\'s worked example, a policy of every rule', () => {
    const guide = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');
    const example = /```yaml\n(# loadout-policy\.yaml[\s\S]*?)```/u.exec(guide)?.[1];
    expect(example).toBeDefined();
    const value = parse(example ?? '') as Record<string, unknown>;
    expect(describePolicyProblems(value)).toEqual([]);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(value).sort()).toEqual(['agents', 'catalogues', 'deny', 'exceptions', 'loadouts', 'mcp', 'min_release_age', 'signing']);
  });

  it('names each problem by its path, with what was expected', () => {
    const problems = describePolicyProblems({ agents: ['claude-code', 'vim'], mcp: { packages: { allow: [{ npm: 'a', pypi: 'b' }, { version: '1' }] } }, signing: { keys: [] }, nope: 1 });
    expect(problems.map((p) => p.message)).toEqual([
      'agents[1] is "vim" (expected an agent id: claude-code, codex, cursor, gemini-cli, copilot, antigravity-cli)',
      'mcp.packages.allow[0] names npm and pypi at once (expected exactly one of npm, pypi, oci, local)',
      'mcp.packages.allow[1] names no package (expected exactly one of npm, pypi, oci, local)',
      'signing has no require (expected a mapping with require and keys)',
      'signing.keys is [] (expected at least 1 of signing key ids)',
      'the policy has the unknown key "nope" (expected one of $schema, catalogues, loadouts, agents, mcp, deny, signing, min_release_age, exceptions)',
    ]);
    expect(pointerToPath('/mcp/packages/allow/0/npm')).toBe('mcp.packages.allow[0].npm');
    expect(pointerToPath('/a~1b/c~0d')).toBe('a/b.c~d');
  });
});
