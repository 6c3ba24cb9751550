/**
 * A team's policy (issue 55, point 1; DESIGN.md "Policy"; docs/policy.md): what the projects
 * that hold it may install. Written once as `loadout-policy.yaml` at a project's root, or named
 * by `--policy <path|url>` or `LOADOUT_POLICY`, and held by `install`, `update`, `outdated` and
 * `status` (and, on a catalogue, by `verify --policy` and `build --policy`). Its JSON Schema is
 * `schema/policy.schema.json`; `check.ts` is the same rules by hand, with the lines they are
 * broken on. Types and names only.
 *
 * Every field is optional: a rule that is not written allows everything it would bound.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { PackageRegistry } from '../tree-format/capabilities.js';

/** The file looked for at a project's root when no policy is named (DESIGN.md "Policy"). */
export const POLICY_FILE = 'loadout-policy.yaml';

/** The variable that names a policy (a path or an http(s) URL) when `--policy` does not. */
export const POLICY_VARIABLE = 'LOADOUT_POLICY';

/**
 * The kinds of capability a policy may deny (issue 55: "hooks, scripts, permission bypass,
 * wildcard grants, unpinned packages"), each over items of the capability list
 * (`tree-format/capabilities.ts`) as `evaluate.ts` says:
 * - `hooks`: every item of `hooks`;
 * - `scripts`: every item of `scripts`;
 * - `permission-bypass`: a `permission-mode` or `auto-approval` permission that needs consent
 *   (`capabilities/consent.ts`: a subagent acting without asking, an MCP server's tools run without asking);
 * - `wildcard-grants`: a `tool-grant` permission that needs consent (any command or any tool);
 * - `unpinned-packages`: an MCP server whose package comes from a registry (npm, PyPI, OCI) at
 *   no exact release (`package.pinned` false).
 */
export const DENY_KINDS = ['hooks', 'scripts', 'permission-bypass', 'wildcard-grants', 'unpinned-packages'] as const;

/** One of {@link DENY_KINDS}. */
export type DenyKind = (typeof DENY_KINDS)[number];

/** The registries a package rule may name: those of `McpPackage.registry`. */
export const POLICY_REGISTRIES = ['npm', 'pypi', 'oci', 'local'] as const satisfies readonly PackageRegistry[];

/**
 * One entry of `mcp.packages.allow`: a registry, a name (a glob: `@modelcontextprotocol/*`) and,
 * optionally, the versions allowed: a semver range for npm and PyPI (`^1.2.0`, `>=0.3 <1`), read
 * as npm reads it, which only a pinned package can meet; a tag or digest (or a glob of them) for
 * OCI. Written in YAML as `{npm: <name>, version?: <range>}` (or `pypi:`, `oci:`, `local:`).
 */
export interface PackageRule {
  registry: PackageRegistry;
  name: string;
  version?: string;
}

/** An entry of `exceptions`: a version that `min_release_age` does not hold back when it is named (`--version`, `--to`). */
export interface PolicyException {
  loadout: string;
  version: string;
  /** Why, for the reader of the policy. */
  reason?: string;
}

/** A policy, as `parse.ts` reads it (see the module comment and docs/policy.md for each rule). */
export interface Policy {
  /** Base URLs of the catalogues installs may come from; a `--from` outside them is refused. */
  catalogues?: string[];
  /** Loadout ids or globs: only those `allow` matches (all when absent), never those `deny` matches. */
  loadouts?: { allow?: string[]; deny?: string[] };
  /** The agents installs may be for. */
  agents?: Agent[];
  mcp?: {
    /** The packages local MCP servers may start; any when absent. */
    packages?: { allow: PackageRule[] };
    /** Host globs remote MCP servers may be reached at; any when absent. */
    hosts?: { allow: string[] };
    /** True: every package an MCP server starts from a registry names one exact release. */
    require_pinned?: boolean;
  };
  /** Kinds of capability no install may bring. */
  deny?: DenyKind[];
  /** Catalogues must be signed (`require`), by one of these key ids when `keys` is given. */
  signing?: { require: boolean; keys?: string[] };
  /** `7d`, `12h`, `2w`: a version published more recently (its `versions.json` date) is not installed or updated to, unless named and excepted. */
  min_release_age?: string;
  exceptions?: PolicyException[];
}

/**
 * The rules a violation may name: the policy's keys (`deny.<kind>` for each kind denied, and
 * `signing.keys` when a catalogue is signed by another key). A verify finding's rule is
 * `policy/<rule>` (verify/rules.ts).
 */
export const POLICY_RULES = [
  'catalogues',
  'loadouts.allow',
  'loadouts.deny',
  'agents',
  'mcp.packages.allow',
  'mcp.hosts.allow',
  'mcp.require_pinned',
  ...DENY_KINDS.map((kind) => `deny.${kind}` as const),
  'signing.require',
  'signing.keys',
  'min_release_age',
] as const;

/** One of {@link POLICY_RULES}. */
export type PolicyRule = (typeof POLICY_RULES)[number];

/**
 * One thing a policy refuses (issue 55, point 2): the rule, the loadout, the agent (null when the
 * rule is not about one, or on a catalogue, where every agent counts), the capability (a short
 * key of the item: `pypi:postgres-mcp`, `hook skills/x/SKILL.md PostToolUse`; null for rules
 * about the catalogue, the loadout, the agent, signing or age) and one sentence that names them
 * all, beginning with the rule: `mcp.packages.allow: dbt-analytics runs postgres-mcp from PyPI
 * for claude-code, which is not allowed`.
 */
export interface PolicyViolation {
  rule: PolicyRule;
  loadout: string;
  agent: Agent | null;
  capability: string | null;
  message: string;
  /** For a capability: the loadout file that brings it. */
  file?: string;
  /** For an MCP server: its name. */
  server?: string;
}

/** A policy and where it came from, as a command holds it. */
export interface LoadedPolicy {
  policy: Policy;
  /** The file or URL it was read from, for messages. */
  where: string;
  /** The key ids whose signature of it verified (`signed-policy.ts`), or null when it was not signed. */
  signedBy: string[] | null;
}

/** A policy in force for one command: the policy and the time it judges release ages at (a clock passed in, so that tests do not depend on the day they run). */
export interface PolicyInForce extends LoadedPolicy {
  now: Date;
}
