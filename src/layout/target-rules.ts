/**
 * Where `loadout install` may write (DESIGN.md sections 3 and 8; SECURITY.md, "loadout install
 * writes only where the agent reads"). A catalogue is not trusted: a built tree or a catalogue
 * server names any target it likes through a file entry's `install_to` (or a skill name), so
 * every install target is checked before anything is written:
 *
 * 1. its form: a normalised path relative to the project root (the `files[].path` rule of
 *    DESIGN.md section 3: no `..`, `.` or empty segment, no leading `/` or drive letter, no
 *    backslash, NUL or control character);
 * 2. never in a `.git` folder, at any depth and in any case, nor under the other names that
 *    Windows and macOS resolve to `.git` (`.git.`, `.git `, `git~1`, `.g\u200cit`: the names
 *    git itself refuses with core.protectNTFS and core.protectHFS);
 * 3. where the bytes really land, after the symbolic links already in the project: inside
 *    the project, and again not in a `.git` folder (checked at the moment of every file
 *    operation by the installer's one handle on the project, `install/project/project-root.ts`;
 *    this module holds the rules that need no file system);
 * 4. never an agent's settings, hooks, permissions or MCP configuration file, except an MCP
 *    file of role `mcp`, whose servers are merged (`protected-paths.ts`, the table the
 *    `install-paths` check uses too);
 * 5. in the agent's own locations (the layout table of DESIGN.md section 3, `layout.ts`, and
 *    the skill folders of `discovery.ts`): its skills, rules and agents folders, its MCP
 *    configuration file for role `mcp`, or a Markdown file at the project root for
 *    instructions and adapters. Elsewhere only with `--force`, and with a warning.
 *
 * 1 to 4 hold even with `--force`.
 */
import { describePathProblem } from '../catalogue/file-path.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import { skillFolders } from './discovery.js';
import { describeSettingsProblem } from './protected-paths.js';
import { agentMcpTargets, MCP_TARGETS } from './layout.js';

/** Characters HFS+ ignores in names (git's `is_hfs_dotgit`): `.g\u200cit` is `.git` there. */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * True when a path segment names a `.git` folder on some file system: `.git` in any case,
 * with trailing dots or spaces (Windows drops them), the NTFS short name `git~1`, or with
 * characters HFS+ ignores.
 */
export function isGitSegment(segment: string): boolean {
  const name = segment.replace(HFS_IGNORABLE, '').replace(/(?<![. ])[. ]+$/u, '').toLowerCase();
  return name === '.git' || /^git~\d+$/u.test(name);
}

/**
 * Why `target` can never be an install target (rules 1 and 2 above), or undefined.
 * `target` is unknown because it comes from an untrusted document. Pure.
 */
export function describeTargetProblem(target: unknown): string | undefined {
  if (typeof target !== 'string') return `is ${JSON.stringify(target) ?? String(target)} (expected a path relative to the project root)`;
  const problem = describePathProblem(target);
  if (problem !== undefined) return `${problem.replace(/ \(expected [^()]*\)$/u, '')} (expected a normalised path relative to the project root, such as ".cursor/rules/style.mdc")`;
  if (target.split('/').some(isGitSegment)) return 'is in a .git folder, which an install never writes (expected a path outside .git/)';
  return undefined;
}

/** Each agent's rules and subagent folders, from `layout.ts` (its targets and the folders its manual steps name). */
const OWN_FOLDERS: Record<Agent, readonly string[]> = {
  'claude-code': ['.claude/rules', '.claude/agents'],
  codex: ['.codex/agents'],
  cursor: ['.cursor/rules', '.cursor/agents'],
  'gemini-cli': ['.gemini/rules', '.gemini/agents'],
  copilot: ['.github/instructions', '.github/agents'],
  'antigravity-cli': ['.agents/rules'],
};

/** Each agent's MCP configuration file (`layout.ts`, `MCP_TARGETS`). */
const MCP_FILES = MCP_TARGETS;

const folders = (agent: Agent): string[] => [...new Set([...skillFolders(agent), ...OWN_FOLDERS[agent]])];

/** `agent`'s own folders in a project (skills, rules, subagents), e.g. `['.claude/skills', '.claude/rules', '.claude/agents']`. */
export function agentFolders(agent: Agent): readonly string[] {
  return folders(agent);
}

/** `agent`'s MCP configuration file in a project, e.g. `.mcp.json`. */
export function agentMcpFile(agent: Agent): string {
  return MCP_FILES[agent];
}

/**
 * True when the well-formed `target` is one of `agent`'s own locations (rule 5 above): a
 * file below its skills, rules or subagents folders, its MCP configuration files for a file of
 * role `mcp` (when the installer can merge into it; Copilot's two, layout.ts `agentMcpTargets`), or, for an instructions or adapter file,
 * a Markdown file at the project root. Never a place of rule 4 (`describeSettingsProblem`).
 */
export function isAgentLocation(role: Role, agent: Agent, target: string): boolean {
  if (describeSettingsProblem(role, target) !== undefined) return false;
  if (role === 'mcp' && agentMcpTargets(agent).includes(target)) return true;
  if ((role === 'instructions' || role === 'adapter') && /^[^/]+\.md$/u.test(target)) return true;
  return folders(agent).some((folder) => target.startsWith(`${folder}/`));
}

/** `agent`'s own locations for a file of `role`, for messages: `a Markdown file at the project root, .claude/skills/, …`. */
export function describeAgentLocations(role: Role, agent: Agent): string {
  const root = role === 'instructions' || role === 'adapter' ? ['a Markdown file at the project root'] : [];
  return [...root, ...folders(agent).map((f) => `${f}/`), ...(role === 'mcp' ? agentMcpTargets(agent) : [])].join(', ');
}
