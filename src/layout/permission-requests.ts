/**
 * Skills and subagents that ask for permissions or run hooks: their front matter can make an
 * agent run tools without asking, or run shell commands on its events, while the file is in
 * use. Such a file is an agent's hooks or permissions source as much as a settings file, so,
 * like an MCP server asking for trust (`mcp-trust.ts`), it is shown to the user and installed
 * only with `--force`.
 *
 * The keys (documentation checked 2026-11-25):
 * - `allowed-tools` of a skill: tools the agent may use without asking while the skill is
 *   active (Claude Code, code.claude.com/docs/en/skills; the Agent Skills specification,
 *   agentskills.io/specification, "experimental");
 * - `permissionMode` of a subagent other than `default` and `plan` (`acceptEdits`,
 *   `dontAsk`, `bypassPermissions`; code.claude.com/docs/en/sub-agents);
 * - `hooks` of a skill or subagent: commands run on the agent's events while it is active
 *   (code.claude.com/docs/en/hooks, "Hooks in skills and agents").
 */
// The yaml-only reader: the consumer CLI's bundle carries one YAML parser (front-matter-data.ts).
import { readFrontMatterForInstall as readFrontMatter } from '../catalogue/front-matter-data.js';
import type { Role } from '../catalogue/vocabulary.js';

const asks = (value: unknown): boolean => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * Why a file of `role` with `text` needs the user's consent, or undefined: a skill or subagent
 * whose front matter grants tools, a permission mode or hooks (see the module comment).
 * Other roles, and text without front matter, have nothing to say. Pure; never throws.
 */
export function describePermissionRequests(role: Role, text: string | undefined): string | undefined {
  if ((role !== 'skill' && role !== 'subagent') || text === undefined) return undefined;
  const { data } = readFrontMatter(text);
  const found: string[] = [];
  if (role === 'skill' && asks(data['allowed-tools'])) found.push(`allowed-tools: ${JSON.stringify(data['allowed-tools'])}`);
  const mode = data['permissionMode'];
  if (role === 'subagent' && asks(mode) && mode !== 'default' && mode !== 'plan') found.push(`permissionMode: ${JSON.stringify(mode)}`);
  if (asks(data['hooks'])) found.push('hooks');
  if (found.length === 0) return undefined;
  return `asks the agent to run tools without the user's confirmation or to run hooks (${found.join(', ')}) (expected a ${role} that leaves approval to the user)`;
}
