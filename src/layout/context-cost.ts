/**
 * Context cost: how much of an agent's context window a loadout takes (DESIGN.md section 8:
 * "published in records and shown before install"), per agent, split in two:
 *
 * - `always`: what the agent loads at the start of every session: the instructions file, its
 *   adapter, rules that apply to every file, and the name and description of each skill and
 *   subagent (agents list those so the model can choose one; Codex documents this as
 *   "progressive disclosure": it starts with each skill's name and description,
 *   developers.openai.com/codex/skills);
 * - `on_demand`: what it loads only when it is used: the whole `SKILL.md` and references of
 *   every skill, the whole body of every subagent, and every rule scoped to some files. It is
 *   the total if every one of them were used once.
 *
 * Each file is measured as the install writes it for that agent: rules translated to the
 * agent's scoping keys (`rule-translation.ts`), so a rule scoped for one agent is measured as
 * scoped for every agent that can scope rules.
 *
 * Only files the install writes for that agent count (targets not null); manual steps and MCP
 * configuration do not (an MCP file configures servers; what a server's tools cost depends on
 * the server, not on the file).
 *
 * When a rule applies to every file, per agent (from the vendors' documentation, as in
 * `layout.ts`):
 * - Claude Code: a `.claude/rules/` file without `paths` front matter loads at start; with
 *   `paths` only when a matching file is read (code.claude.com/docs/en/memory).
 * - Cursor: only `alwaysApply: true`; `globs` and `description` rules are attached on demand.
 * - Copilot: `applyTo` of `**` (or `**\/*`) applies to every request; other globs on demand.
 * - Antigravity: `trigger: always_on`; without `trigger`, `alwaysApply: true` or no scoping.
 *
 * Tokens are an estimate: `ceil(bytes / 4)`, the rule of thumb "one token is about four
 * characters of English text" (OpenAI, "What are tokens and how to count them?",
 * help.openai.com). Bytes are UTF-8 bytes, so for English text a byte is a character; each
 * vendor's tokenizer differs, so treat the figure as the size class, not an exact count.
 */
import { readFrontMatterData } from '../catalogue/front-matter-data.js';
import type { FileEntry } from '../catalogue/manifest.js';
import { PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import type { ContextCost, ContextSize } from '../tree-format/record.js';
import { resolveInstallTarget, type InstallTarget } from './layout.js';
import { translateRuleFor } from './rule-translation.js';

/** Bytes per estimated token (see the module comment for the source). */
export const BYTES_PER_TOKEN = 4;

// The shapes are the published record's (tree-format/record.ts); the layout measures them.
export type { ContextCost, ContextSize } from '../tree-format/record.js';

/** Estimated tokens of `bytes` UTF-8 bytes: `ceil(bytes / 4)`; 0 for 0. */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** A {@link ContextSize} of `bytes`. */
export function sizeOf(bytes: number): ContextSize {
  return { bytes, tokens: estimateTokens(bytes) };
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');
const isText = (value: unknown): value is string => typeof value === 'string';

/** Bytes of the `name` and `description` front-matter values of a skill or subagent file (the path's base name when `name` is missing). */
function listingBytes(text: string, path: string): number {
  const data = readFrontMatterData(text);
  const name = isText(data['name']) ? data['name'] : path.replace(/\/SKILL\.md$/u, '').replace(/^.*\//u, '');
  return byteLength(name) + (isText(data['description']) ? byteLength(data['description']) : 0);
}

/** True when a rule's front matter makes `agent` apply it to every file (see the module comment). */
export function ruleAlwaysApplies(agent: Agent, frontMatter: Record<string, unknown>): boolean {
  const globs = (value: unknown): string[] => (isText(value) ? value.split(',').map((g) => g.trim()) : Array.isArray(value) ? value.filter(isText) : []);
  const everything = (value: unknown): boolean => globs(value).some((g) => g === '**' || g === '**/*');
  switch (agent) {
    case 'claude-code':
      return frontMatter['paths'] === undefined || frontMatter['paths'] === null;
    case 'cursor':
      return frontMatter['alwaysApply'] === true;
    case 'copilot':
      return everything(frontMatter['applyTo']);
    case 'antigravity-cli': {
      const trigger = frontMatter['trigger'];
      if (isText(trigger)) return trigger === 'always_on';
      const scoped = globs(frontMatter['globs']).length > 0 || isText(frontMatter['description']);
      return frontMatter['alwaysApply'] === true || !scoped;
    }
    case 'codex':
    case 'gemini-cli':
      // Both read every rule always: Codex as a section of AGENTS.md, Gemini CLI imported by GEMINI.md (layout.ts).
      return true;
  }
}

/**
 * Measures the context cost of a loadout's files for `agent`. `readText(path)` gives a
 * file's text (a file without text counts 0 bytes); `resolve` gives install targets (default
 * the project layout). Pure; never throws.
 */
export function measureContext(files: readonly FileEntry[], agent: Agent, readText: (path: string) => string | undefined, resolve: (entry: FileEntry, agent: Agent) => InstallTarget = resolveInstallTarget): ContextCost {
  let always = 0;
  let onDemand = 0;
  for (const entry of files) {
    const resolved = resolve(entry, agent);
    // A rule composed as a section (Codex) is read with the file it is part of.
    if (resolved.target === null && resolved.composed?.as !== 'section') continue;
    // What the agent reads: a rule as translated for it (rule-translation.ts), whose front
    // matter is the one the translation wrote (not parsed again from its text).
    const rule = entry.role === 'rules' ? translateRuleFor(readText(entry.path) ?? '', agent) : undefined;
    const text = rule?.text ?? readText(entry.path) ?? '';
    const bytes = byteLength(text);
    switch (entry.role) {
      case 'instructions':
      case 'adapter':
        always += bytes;
        break;
      case 'rules':
        if (ruleAlwaysApplies(agent, rule?.data ?? {})) always += bytes;
        else onDemand += bytes;
        break;
      case 'skill':
        // Only a skill's entry file is listed at start; its other files are references.
        if (entry.path.endsWith('/SKILL.md') || entry.path === 'SKILL.md') always += listingBytes(text, entry.path);
        onDemand += bytes;
        break;
      case 'subagent':
        always += listingBytes(text, entry.path.replace(/\.md$/u, ''));
        onDemand += bytes;
        break;
      case 'reference':
        onDemand += bytes;
        break;
      case 'mcp':
        break;
    }
  }
  return { always: sizeOf(always), on_demand: sizeOf(onDemand) };
}

/** {@link measureContext} for each of the six agents of published records, in their order. */
export function measureContextForAgents(files: readonly FileEntry[], readText: (path: string) => string | undefined): Record<Agent, ContextCost> {
  return Object.fromEntries(PUBLISHED_AGENTS.map((agent) => [agent, measureContext(files, agent, readText)])) as Record<Agent, ContextCost>;
}
