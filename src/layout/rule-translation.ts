/**
 * Rules translated per agent: a loadout's rule file is written once, with the scoping keys of
 * whichever agent its author knows, and each agent gets the same rule with the keys it reads
 * and only those. A rule scoped for one agent is scoped for every agent that can scope rules.
 *
 * The scoping keys each agent reads in a rule file's YAML front matter (the vendors'
 * documentation, checked 2026-11-25):
 *
 * | agent | file | keys |
 * |---|---|---|
 * | Cursor | `.cursor/rules/*.mdc` | `description`, `globs` (comma-separated string or list), `alwaysApply` (boolean): always, auto attached by `globs`, agent requested by `description`, else manual (cursor.com/docs/context/rules) |
 * | Copilot | `.github/instructions/*.instructions.md` | `applyTo` (comma-separated globs; `**` for every file), `description`, `excludeAgent` (`code-review` or `coding-agent`); without `applyTo` the file is not applied automatically (docs.github.com, "Adding repository custom instructions", path-specific instructions; code.visualstudio.com/docs/copilot/customization/custom-instructions) |
 * | Claude Code | `.claude/rules/*.md` | `paths` (a YAML list of globs); without `paths` the rule loads at every session start, with it only when Claude reads a matching file (code.claude.com/docs/en/memory, "Path-specific rules") |
 * | Antigravity | `.agents/rules/*.md` | `trigger` (`always_on`, `glob`, `model_decision`, `manual`), `globs` (with `glob`), `description` (with `model_decision`) (antigravity.google/docs/rules-workflows) |
 * | Codex | none | reads no rules folder (`.codex/rules` holds command-execution policy, developers.openai.com/codex/rules): a rule is a section of the loadout's AGENTS.md block (`installed-files.ts`), unscoped |
 * | Gemini CLI | none | has no rules folder (geminicli.com/docs/cli/gemini-md): a rule is imported by an `@` line of the loadout's GEMINI.md block (geminicli.com/docs/reference/memport), where it applies to every file: unscoped |
 *
 * Codex and Gemini CLI read every rule always, so a scoped rule says its scope in its first
 * line, in words ({@link describeScope}): the agent applies it only where it says.
 *
 * A rule's scope is read from any of those keys (the union of `paths`, `globs` and `applyTo`
 * patterns) into one of four modes, then written in the agent's keys:
 * - `always`: `alwaysApply: true`, `trigger: always_on`, a pattern that matches every file
 *   (`**`, `**\/*`), or no scoping key at all (an unscoped rule applies everywhere);
 * - `globs`: the patterns;
 * - `description`: only a description (Cursor "agent requested", Antigravity `model_decision`);
 *   Claude Code has no such mode, so there the rule is unscoped; Copilot gets no `applyTo`;
 * - `manual`: `trigger: manual`, or `alwaysApply: false` with neither globs nor description;
 *   Claude Code loads it always (it has no manual mode); Copilot gets no `applyTo`.
 *
 * Keys that scope no agent (any other front matter) are kept, after the agent's keys; the
 * body is kept byte for byte. A file whose front matter does not parse is returned as it is
 * (the `parse` check refuses such loadouts). Pure: text in, text out.
 */
// The yaml-only reader: the consumer CLI's bundle carries one YAML parser (front-matter-data.ts).
import { readFrontMatterForInstall as readFrontMatter } from '../catalogue/front-matter-data.js';
import { frontMatterYaml } from '../catalogue/front-matter-yaml.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import { codexAgentToml } from './codex-agent.js';
import { installedMcpText } from './mcp-formats.js';

/** Every front-matter key that scopes a rule for some agent (see the table above). */
export const SCOPING_KEYS: readonly string[] = ['description', 'globs', 'alwaysApply', 'applyTo', 'excludeAgent', 'paths', 'trigger'];

/** The scope of a rule, in no agent's keys. */
export interface RuleScope {
  mode: 'always' | 'globs' | 'description' | 'manual';
  /** The patterns (mode `globs`), in the order first given, without duplicates. */
  globs: string[];
  description: string | undefined;
  /** Copilot's `excludeAgent`, kept for Copilot only. */
  excludeAgent: string | undefined;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** Patterns from a `globs`, `applyTo` or `paths` value: a comma-separated string or a list of strings. */
function readPatterns(value: unknown): string[] {
  const items = isText(value) ? value.split(',') : Array.isArray(value) ? value.filter(isText) : [];
  return items.map((g) => g.trim()).filter((g) => g !== '');
}

/** True for a pattern that matches every file: `**`, `**\/*` (and `*` with `/**` variants). */
const matchesEverything = (glob: string): boolean => ['**', '**/*', '/**', '/**/*'].includes(glob);

/** Reads the scope of a rule from its front-matter mapping (any agent's keys). Pure. */
export function readRuleScope(data: Record<string, unknown>): RuleScope {
  const globs = [...new Set([...readPatterns(data['paths']), ...readPatterns(data['globs']), ...readPatterns(data['applyTo'])])];
  const description = isText(data['description']) && data['description'].trim() !== '' ? data['description'] : undefined;
  const excludeAgent = isText(data['excludeAgent']) ? data['excludeAgent'] : undefined;
  const trigger = data['trigger'];
  const base = { description, excludeAgent };
  if (data['alwaysApply'] === true || trigger === 'always_on' || globs.some(matchesEverything)) return { ...base, mode: 'always', globs: [] };
  if (trigger === 'manual') return { ...base, mode: 'manual', globs: [] };
  if (globs.length > 0 && trigger !== 'model_decision') return { ...base, mode: 'globs', globs };
  if (description !== undefined) return { ...base, mode: 'description', globs: [] };
  const scoped = data['alwaysApply'] === false || isText(trigger);
  return { ...base, mode: scoped ? 'manual' : 'always', globs: [] };
}

/** The front-matter keys `agent` reads for `scope`, in the order they are written. */
function scopingKeysFor(agent: Agent, scope: RuleScope): Record<string, unknown> {
  const described = scope.description === undefined ? {} : { description: scope.description };
  switch (agent) {
    case 'cursor':
      return { ...described, ...(scope.mode === 'globs' ? { globs: scope.globs.join(',') } : {}), alwaysApply: scope.mode === 'always' };
    case 'copilot': {
      const applyTo = scope.mode === 'always' ? '**' : scope.mode === 'globs' ? scope.globs.join(',') : undefined;
      return { ...(applyTo === undefined ? {} : { applyTo }), ...described, ...(scope.excludeAgent === undefined ? {} : { excludeAgent: scope.excludeAgent }) };
    }
    case 'claude-code':
      return scope.mode === 'globs' ? { paths: scope.globs } : {};
    case 'antigravity-cli':
      switch (scope.mode) {
        case 'always':
          return { trigger: 'always_on' };
        case 'globs':
          return { trigger: 'glob', globs: scope.globs.join(','), ...described };
        case 'description':
          return { trigger: 'model_decision', ...described };
        case 'manual':
          return { trigger: 'manual', ...described };
      }
      break;
    case 'codex':
    case 'gemini-cli':
      return {};
  }
  return {};
}

/**
 * The rule `text` as `agent` should read it: its front matter with `agent`'s scoping keys
 * for the rule's scope and no other agent's, the other keys kept, the body unchanged. No
 * front matter is written when no key is left. Pure; never throws.
 */
export function translateRule(text: string, agent: Agent): string {
  return translateRuleFor(text, agent).text;
}

/** A rule as translated for one agent (see {@link translateRuleFor}). */
export interface TranslatedRule {
  /** The translated text ({@link translateRule}). */
  text: string;
  /**
   * The front matter `text` holds, as written (what parsing it gives back: the scoping keys and
   * the rule's other keys; `{}` when none is written); undefined when the rule's own front
   * matter does not parse, and `text` is then the rule as it was. Frozen: shared by every
   * caller.
   */
  data: Readonly<Record<string, unknown>> | undefined;
}

/**
 * {@link translateRule} with the front matter it wrote, so that a caller that reads the
 * translated rule's keys (its context cost, the `install-paths` check) does not parse the
 * YAML it was just made from. Pure; never throws.
 */
export function translateRuleFor(text: string, agent: Agent): TranslatedRule {
  let perAgent = translations.get(text);
  if (perAgent === undefined) {
    if (translations.size >= TRANSLATIONS_KEPT) translations.delete(translations.keys().next().value as string);
    perAgent = new Map();
    translations.set(text, perAgent);
  }
  let translated = perAgent.get(agent);
  if (translated === undefined) {
    translated = Object.freeze(translate(text, agent));
    perAgent.set(agent, translated);
  }
  return translated;
}

/**
 * The translations made lately, by text then agent: a build translates each rule for six agents
 * in its check, its record, again in its zips, its versions document and its context cost, and
 * the `yaml` library's parse and stringify are most of the cost. Oldest text dropped first; the
 * function is pure, so a kept answer is always right.
 */
const translations = new Map<string, Map<Agent, TranslatedRule>>();
/** Texts kept in {@link translations}: more than the rules of any one loadout. */
const TRANSLATIONS_KEPT = 256;

/** The agents that read every rule always: a scoped rule says its scope in words there. */
const UNSCOPED_AGENTS: readonly Agent[] = ['codex', 'gemini-cli'];

/**
 * The scope of a rule in one line of words, for an agent that cannot scope rules, or undefined
 * for a rule that applies everywhere. Pure.
 */
export function describeScope(scope: RuleScope): string | undefined {
  switch (scope.mode) {
    case 'always':
      return undefined;
    case 'globs':
      return `Scope: apply this rule only to files matching ${scope.globs.map((g) => `\`${g}\``).join(', ')}.`;
    case 'description':
      return `Scope: apply this rule only when it is relevant: ${scope.description ?? ''}`;
    case 'manual':
      return 'Scope: apply this rule only when the user asks for it.';
  }
}

/** A text whose first line is a front-matter fence (front-matter.ts's opening rule). */
const FENCE_FIRST = /^\uFEFF?---[ \t]*\r?\n/u;

function translate(text: string, agent: Agent): TranslatedRule {
  // Parsed once per text whatever the agent (front-matter-data.ts keeps its readings).
  const fm = readFrontMatter(text);
  if (fm.errors.length > 0) return { text, data: undefined };
  const scope = readRuleScope(fm.data);
  const others = Object.fromEntries(Object.entries(fm.data).filter(([key]) => !SCOPING_KEYS.includes(key)));
  const data = Object.freeze({ ...scopingKeysFor(agent, scope), ...others });
  const said = UNSCOPED_AGENTS.includes(agent) ? describeScope(scope) : undefined;
  const stripped = fm.present ? fm.body : text;
  const body = said === undefined ? stripped : `${fm.present ? '\n' : ''}${said}\n\n${stripped.replace(/^\r?\n/u, '')}`;
  if (Object.keys(data).length === 0) {
    const bare = fm.present ? body.replace(/^\r?\n/u, '') : body;
    // A body that opens with a thematic break ("---") would read as front matter once the
    // block above it is gone: its blank line stays in front of it.
    return { text: FENCE_FIRST.test(bare) ? `\n${bare}` : bare, data };
  }
  return { text: `---\n${frontMatterYaml(data)}---\n${fm.present ? body : `\n${body}`}`, data };
}

/**
 * The text a file of `role` is installed with for `agent`: rules translated ({@link translateRule}),
 * MCP files in the agent's shape (`mcp-formats.ts`; at `target`, that file's reader's, as Copilot
 * CLI's `.github/mcp.json`), a subagent for Codex as its custom-agent TOML (`codex-agent.ts`),
 * every other file as it is.
 */
export function installedText(role: Role, agent: Agent, text: string, target?: string): string {
  if (role === 'rules') return translateRule(text, agent);
  if (role === 'mcp') return installedMcpText(text, agent, target);
  if (role === 'subagent' && agent === 'codex') return codexAgentToml(text) ?? text;
  return text;
}

/** True when {@link installedText} may change a file of `role` for `agent`. */
const isTranslated = (role: Role, agent: Agent): boolean => role === 'rules' || role === 'mcp' || (role === 'subagent' && agent === 'codex');

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes a file of `role` is installed with for `agent`: a rule's or an MCP file's UTF-8 text
 * as {@link installedText} gives it, anything else (or a file that is not UTF-8) as it is. The installer
 * checks `bytes` against the sha256 the version publishes before calling this.
 */
export function installedBytes(role: Role, agent: Agent, bytes: Uint8Array): Uint8Array {
  if (!isTranslated(role, agent)) return bytes;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return bytes;
  }
  const translated = installedText(role, agent, text);
  return translated === text ? bytes : new TextEncoder().encode(translated);
}
