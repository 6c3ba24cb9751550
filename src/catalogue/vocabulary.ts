/**
 * The closed vocabularies of the interface specification ("Resources and their fields").
 * Every list here is quoted from the spec; the authoring schema in `schema/loadout.schema.json`
 * repeats them, and `test/catalogue/schema.test.ts` fails when the two drift apart.
 */

/** Agents an author may name (authoring schema, submission form). Spec: "Supported agent identifiers". */
export const AUTHORING_AGENTS = ['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot'] as const;
export type AuthoringAgent = (typeof AUTHORING_AGENTS)[number];

/** Agents of published records: the five above plus `antigravity-cli`. */
export const PUBLISHED_AGENTS = [...AUTHORING_AGENTS, 'antigravity-cli'] as const;
export type Agent = (typeof PUBLISHED_AGENTS)[number];

/** Display names of the agents (vendors' own spelling), for pages and messages. */
export const AGENT_NAMES: Record<Agent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  cursor: 'Cursor',
  'gemini-cli': 'Gemini CLI',
  copilot: 'GitHub Copilot',
  'antigravity-cli': 'Antigravity',
};

/** Spec: `categories` items. */
export const CATEGORIES = ['web-app', 'gamedev', 'security', 'bots', 'browser-extension', 'data', 'workflow', 'ai-agents'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Spec: file entry `role`. */
export const ROLES = ['instructions', 'adapter', 'rules', 'skill', 'reference', 'mcp', 'subagent'] as const;
export type Role = (typeof ROLES)[number];

/** Spec: `compatibility.<agent>` values. */
export const COMPATIBILITY_LEVELS = ['native', 'adapter', 'unsupported'] as const;
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];

/** Spec: the ten check ids, in the order DESIGN.md section 4 runs them. A check id is permanent. */
export const CHECK_IDS = ['listing', 'parse', 'adapters', 'install-paths', 'mcp', 'safety', 'references', 'size', 'licence', 'starter-build'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** Spec check `status` ("Verification"; DESIGN.md section 4): `pass`, `fail`, `n/a` (does not apply), `skip` (could not run). */
export type CheckStatus = 'pass' | 'fail' | 'n/a' | 'skip';

/** Spec: submission `licence` values; the `licence` check accepts the same SPDX ids. */
export const LICENCES = ['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'MPL-2.0', 'CC-BY-4.0', 'CC0-1.0', 'Unlicense'] as const;
export type Licence = (typeof LICENCES)[number];

/**
 * Search `has` values: the spec's `skills`, `mcp` and `rules` (at least one such file or server),
 * and issue 54's `hooks` and `scripts` (at least one in the capability list).
 */
export const HAS_VALUES = ['skills', 'mcp', 'rules', 'hooks', 'scripts'] as const;

/** Search `runs` values (issue 54): the capability list's `runs`. */
export const RUNS_VALUES = ['nothing', 'something'] as const;

/** Spec "Limits": verification size check and submission files. Bytes are UTF-8 bytes. */
export const LIMITS = {
  files: 30,
  fileBytes: 32 * 1024,
  totalBytes: 128 * 1024,
  linesPerSkillOrRule: 500,
} as const;

/** The slug pattern of `id`, `stacks` and `skill` (spec: `^[a-z0-9]+(?:-[a-z0-9]+)*$`). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The pattern of `version` (spec: MAJOR.MINOR.PATCH, digits only; the authoring schema's `pattern`). */
export const VERSION_PATTERN = /^[0-9]+\.[0-9]+\.[0-9]+$/;

/** Type guard for {@link PUBLISHED_AGENTS}. */
export function isAgent(value: unknown): value is Agent {
  return typeof value === 'string' && (PUBLISHED_AGENTS as readonly string[]).includes(value);
}
