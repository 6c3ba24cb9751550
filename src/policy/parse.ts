/**
 * Reading a policy's text (issue 55, point 1): YAML 1.2 (JSON too, which is YAML) by the `yaml`
 * library, the one YAML parser the consumer CLI carries, with its source positions, so that
 * every problem names its line and column: a syntax error as the library reports it, a value
 * the schema refuses (`check.ts`) at the node it is about. Pure: text in, a policy or problems out.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { Agent } from '../catalogue/vocabulary.js';
import { describePolicyProblems, describeRangeProblems, type PolicyValueProblem } from './check.js';
import { POLICY_REGISTRIES, type DenyKind, type PackageRule, type Policy, type PolicyException } from './policy.js';

/** One problem of a policy's text, located: 1-based line and column (in code points of the line, as editors count). */
export interface PolicyProblem {
  line: number;
  column: number;
  /** The JSON pointer of the value, or undefined for a syntax error. */
  pointer?: string;
  message: string;
}

/** What {@link parsePolicy} read: the policy, or every problem found. */
export type ParsedPolicy = { ok: true; policy: Policy } | { ok: false; problems: PolicyProblem[] };

/** The most alias expansions read (the `yaml` library's guard against alias bombs). */
const MAX_ALIASES = 100;

/**
 * Reads the policy `text`. Never throws: a syntax error, a duplicate key, an alias bomb, a value
 * the schema refuses and a version that is not a semver range are problems, in document order.
 */
export function parsePolicy(text: string): ParsedPolicy {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, version: '1.2' });
  const at = (offset: number): { line: number; column: number } => {
    // The library counts UTF-16 units from the line's start; an editor counts characters.
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: [...text.slice(offset - (col - 1), offset)].length + 1 };
  };
  const syntax = doc.errors.map((e): PolicyProblem => ({ ...at(e.pos[0]), message: e.message.split('\n')[0] ?? e.message }));
  if (syntax.length > 0) return { ok: false, problems: syntax };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    return { ok: false, problems: [{ line: 1, column: 1, message: `${(error as Error).message} (expected at most ${MAX_ALIASES} alias expansions)` }] };
  }
  const schema = describePolicyProblems(value);
  const problems = schema.length > 0 ? schema : describeRangeProblems(value);
  if (problems.length > 0) return { ok: false, problems: problems.map((p) => ({ ...at(offsetOf(doc, p)), pointer: p.pointer, message: p.message })) };
  return { ok: true, policy: toPolicy(value as Record<string, unknown>) };
}

/** The offset of the node a problem is about: the value at its pointer (the key, for an unknown key or a missing value), else its nearest parent. */
function offsetOf(doc: Document, problem: PolicyValueProblem): number {
  const tokens = problem.pointer === '' ? [] : problem.pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown = doc.contents;
  let offset = isNode(node) && node.range ? node.range[0] : 0;
  for (const [i, token] of tokens.entries()) {
    if (isSeq(node)) node = node.items[Number(token)];
    else if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token);
      if (pair === undefined) return offset;
      const last = i === tokens.length - 1;
      node = (last && problem.key === true) || pair.value === null || (isScalar(pair.value) && pair.value.value === null && pair.value.range?.[0] === pair.value.range?.[1]) ? pair.key : pair.value;
    } else return offset;
    if (isNode(node) && node.range) offset = node.range[0];
  }
  return offset;
}

/** The policy of a value the schema accepts. */
function toPolicy(value: Record<string, unknown>): Policy {
  const policy: Policy = {};
  const v = value as {
    catalogues?: string[];
    loadouts?: { allow?: string[]; deny?: string[] };
    agents?: Agent[];
    mcp?: { packages?: { allow: Record<string, string>[] }; hosts?: { allow: string[] }; require_pinned?: boolean };
    deny?: DenyKind[];
    signing?: { require: boolean; keys?: string[] };
    min_release_age?: string;
    exceptions?: PolicyException[];
  };
  if (v.catalogues !== undefined) policy.catalogues = [...v.catalogues];
  if (v.loadouts !== undefined) policy.loadouts = { ...(v.loadouts.allow === undefined ? {} : { allow: [...v.loadouts.allow] }), ...(v.loadouts.deny === undefined ? {} : { deny: [...v.loadouts.deny] }) };
  if (v.agents !== undefined) policy.agents = [...v.agents];
  if (v.mcp !== undefined) {
    const { packages, hosts, require_pinned: pinned } = v.mcp;
    policy.mcp = {
      ...(packages === undefined ? {} : { packages: { allow: packages.allow.map(toPackageRule) } }),
      ...(hosts === undefined ? {} : { hosts: { allow: [...hosts.allow] } }),
      ...(pinned === undefined ? {} : { require_pinned: pinned }),
    };
  }
  if (v.deny !== undefined) policy.deny = [...v.deny];
  if (v.signing !== undefined) policy.signing = { require: v.signing.require, ...(v.signing.keys === undefined ? {} : { keys: [...v.signing.keys] }) };
  if (v.min_release_age !== undefined) policy.min_release_age = v.min_release_age;
  if (v.exceptions !== undefined) policy.exceptions = v.exceptions.map((e) => ({ loadout: e.loadout, version: e.version, ...(e.reason === undefined ? {} : { reason: e.reason }) }));
  return policy;
}

function toPackageRule(entry: Record<string, string>): PackageRule {
  const registry = POLICY_REGISTRIES.find((r) => entry[r] !== undefined) ?? 'local';
  return { registry, name: entry[registry] ?? '', ...(entry['version'] === undefined ? {} : { version: entry['version'] }) };
}

/** `<where>:<line>:<column>: <message>` for each problem, one a line (the form of a compiler's errors, which editors and CI annotate). */
export function formatPolicyProblems(where: string, problems: readonly PolicyProblem[]): string {
  return problems.map((p) => `${where}:${p.line}:${p.column}: ${p.message}`).join('\n');
}
