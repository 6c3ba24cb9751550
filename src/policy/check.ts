/**
 * The rules of `schema/policy.schema.json`, written out by hand so that the consumer CLI, whose
 * bundle carries no Ajv (eslint.config.js; `test/import-graph.test.ts`), checks a policy as the
 * schema does and names where each problem is: a property test (`test/policy/check.test.ts`)
 * holds this check and Ajv with the schema to the same verdict on drawn policies. Ajv's
 * standalone code (`scripts/schema-validator.ts`, as for the loadout schema) was not taken: it
 * needs `ajv/dist/runtime/*` at run time, and its errors are JSON pointers, which would need this
 * module's walk anyway to become lines and columns.
 *
 * {@link describeRangeProblems} adds what the schema cannot say: that a package's version for npm
 * or PyPI is a semver range. Pure.
 */
import { showValue } from '../catalogue/show-value.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { describeRangeProblem } from '../catalogue/version-ranges.js';
import { DENY_KINDS, POLICY_REGISTRIES } from './policy.js';

/** One problem of a policy: where (an RFC 6901 JSON pointer into the value) and what, `<where> is <value> (expected …)`. */
export interface PolicyValueProblem {
  pointer: string;
  message: string;
  /** True when the problem is the key at `pointer` itself (an unknown key, or a mapping that misses a key it needs), not its value. */
  key?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `/mcp/packages/allow/0/npm` → `mcp.packages.allow[0].npm`; the empty pointer → `the policy`. */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return 'the policy';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/u.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

const escapePointer = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Code points, as JSON Schema's `minLength` counts them. */
const codePoints = (text: string): number => [...text].length;

// The schema's patterns, with the `u` flag Ajv gives them.
const CATALOGUE_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s]+$/u;
const HOST_GLOB = /^[^\s/]+$/u;
const ID_GLOB = /^[a-z0-9*?!{},.[\]-]+$/u;
const KEY_ID = /^[0-9a-f]{64}$/u;
const AGE = /^[0-9]{1,4}[hdw]$/u;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/u;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+$/u;

/** A walk that collects problems at pointers. */
class Walk {
  readonly problems: PolicyValueProblem[] = [];

  problem(pointer: string, value: unknown, expected: string): void {
    this.problems.push({ pointer, message: `${pointerToPath(pointer)} is ${showValue(value)} (expected ${expected})` });
  }

  /** An object of only `known` keys, with `required` ones; calls `each` on the known keys present. False when it is no object. */
  object(pointer: string, value: unknown, what: string, known: readonly string[], required: readonly string[], each: (key: string, value: unknown, at: string) => void): boolean {
    if (!isObject(value)) {
      this.problem(pointer, value, what);
      return false;
    }
    for (const key of required) if (!Object.hasOwn(value, key)) this.problems.push({ pointer, key: true, message: `${pointerToPath(pointer)} has no ${key} (expected ${what})` });
    for (const [key, item] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (!known.includes(key)) this.problems.push({ pointer: at, key: true, message: `${pointerToPath(pointer)} has the unknown key ${showValue(key)} (expected one of ${known.join(', ')})` });
      else each(key, item, at);
    }
    return true;
  }

  /** An array (with unique items when `unique`, at least `min` of them); calls `item` on each. */
  array(pointer: string, value: unknown, what: string, item: (value: unknown, at: string) => void, options: { unique?: boolean; min?: number } = {}): void {
    if (!Array.isArray(value)) return this.problem(pointer, value, `an array of ${what}`);
    if (options.min !== undefined && value.length < options.min) this.problem(pointer, value, `at least ${options.min} of ${what}`);
    if (options.unique === true) {
      // Items of these arrays are strings when they are valid; others are compared as JSON.
      const seen = new Set<string>();
      for (const [i, v] of value.entries()) {
        const key = JSON.stringify(v) ?? 'undefined';
        if (seen.has(key)) this.problem(`${pointer}/${i}`, v, `each of ${what} once`);
        seen.add(key);
      }
    }
    value.forEach((v, i) => item(v, `${pointer}/${i}`));
  }

  string(pointer: string, value: unknown, what: string, pattern?: RegExp, minLength = 0): void {
    if (typeof value !== 'string' || codePoints(value) < minLength || (pattern !== undefined && !pattern.test(value))) this.problem(pointer, value, what);
  }

  oneOf(pointer: string, value: unknown, choices: readonly string[], what: string): void {
    if (typeof value !== 'string' || !choices.includes(value)) this.problem(pointer, value, `${what}: ${choices.join(', ')}`);
  }

  boolean(pointer: string, value: unknown): void {
    if (typeof value !== 'boolean') this.problem(pointer, value, 'true or false');
  }
}

const PACKAGE_KEYS = [...POLICY_REGISTRIES, 'version'];

function checkPackage(walk: Walk, value: unknown, at: string): void {
  const ok = walk.object(at, value, 'an object with one of npm, pypi, oci or local naming the package, and optionally version', PACKAGE_KEYS, [], (key, v, p) => walk.string(p, v, key === 'version' ? 'a version range, tag or digest' : `the name of the ${key === 'local' ? 'local program' : `${key} package`} (a glob)`, undefined, 1));
  if (!ok) return;
  const named = POLICY_REGISTRIES.filter((r) => Object.hasOwn(value as object, r));
  if (named.length !== 1) walk.problems.push({ pointer: at, message: `${pointerToPath(at)} ${named.length === 0 ? 'names no package' : `names ${named.join(' and ')} at once`} (expected exactly one of ${POLICY_REGISTRIES.join(', ')})` });
}

/**
 * The problems of `value` (a policy's parsed YAML or JSON) against `schema/policy.schema.json`,
 * in document order; empty when the schema accepts it. Pure; never throws.
 */
export function describePolicyProblems(value: unknown): PolicyValueProblem[] {
  const walk = new Walk();
  const globs = (what: string) => (v: unknown, p: string): void => walk.array(p, v, what, (item, at) => walk.string(at, item, 'a loadout id or glob (lower-case letters, digits, -, and * ? ! { } [ ] , .)', ID_GLOB));
  walk.object('', value, 'a mapping of policy rules (docs/policy.md)', ['$schema', 'catalogues', 'loadouts', 'agents', 'mcp', 'deny', 'signing', 'min_release_age', 'exceptions'], [], (key, v, at) => {
    switch (key) {
      case '$schema':
        return walk.string(at, v, 'the address of the schema');
      case 'catalogues':
        return walk.array(at, v, 'catalogue base URLs', (item, p) => walk.string(p, item, 'an http:// or https:// base URL', CATALOGUE_URL));
      case 'loadouts':
        return void walk.object(at, v, 'a mapping with allow and deny', ['allow', 'deny'], [], (k, list, p) => globs(`loadout ids or globs to ${k}`)(list, p));
      case 'agents':
        return walk.array(at, v, 'agent ids', (item, p) => walk.oneOf(p, item, PUBLISHED_AGENTS, 'an agent id'), { unique: true });
      case 'mcp':
        return void walk.object(at, v, 'a mapping with packages, hosts and require_pinned', ['packages', 'hosts', 'require_pinned'], [], (k, part, p) => {
          if (k === 'require_pinned') return walk.boolean(p, part);
          if (k === 'packages') return void walk.object(p, part, 'a mapping with allow: a list of packages', ['allow'], ['allow'], (_a, list, q) => walk.array(q, list, 'packages', (item, r) => checkPackage(walk, item, r)));
          return void walk.object(p, part, 'a mapping with allow: a list of host globs', ['allow'], ['allow'], (_a, list, q) => walk.array(q, list, 'host globs', (item, r) => walk.string(r, item, 'a host or host glob without spaces or /, such as *.example.com', HOST_GLOB)));
        });
      case 'deny':
        return walk.array(at, v, 'capability kinds', (item, p) => walk.oneOf(p, item, DENY_KINDS, 'a capability kind'), { unique: true });
      case 'signing':
        return void walk.object(at, v, 'a mapping with require and keys', ['require', 'keys'], ['require'], (k, part, p) => {
          if (k === 'require') return walk.boolean(p, part);
          return walk.array(p, part, 'signing key ids', (item, q) => walk.string(q, item, 'a key id, 64 lower-case hex digits', KEY_ID), { min: 1 });
        });
      case 'min_release_age':
        return walk.string(at, v, 'an age in hours, days or weeks, such as 12h, 7d or 2w', AGE);
      default:
        return walk.array(at, v, 'exceptions', (item, p) =>
          void walk.object(p, item, 'a mapping with loadout, version and reason', ['loadout', 'version', 'reason'], ['loadout', 'version'], (k, part, q) => {
            if (k === 'loadout') return walk.string(q, part, 'a loadout id', SLUG);
            if (k === 'version') return walk.string(q, part, 'a version, MAJOR.MINOR.PATCH', VERSION);
            return walk.string(q, part, 'a reason');
          }),
        );
    }
  });
  return walk.problems;
}

/**
 * What the schema cannot check: each npm or PyPI package version of `mcp.packages.allow` must be
 * a semver range as npm reads it (`catalogue/version-ranges.ts`). Call on a value the schema
 * accepts. Pure.
 */
export function describeRangeProblems(value: unknown): PolicyValueProblem[] {
  const allow = isObject(value) && isObject(value['mcp']) && isObject(value['mcp']['packages']) ? value['mcp']['packages']['allow'] : undefined;
  if (!Array.isArray(allow)) return [];
  const problems: PolicyValueProblem[] = [];
  allow.forEach((rule: unknown, i) => {
    if (!isObject(rule) || typeof rule['version'] !== 'string' || !(Object.hasOwn(rule, 'npm') || Object.hasOwn(rule, 'pypi'))) return;
    const problem = describeRangeProblem(rule['version']);
    if (problem !== undefined) problems.push({ pointer: `/mcp/packages/allow/${i}/version`, message: `mcp.packages.allow[${i}].version ${JSON.stringify(rule['version'])} ${problem}` });
  });
  return problems;
}
