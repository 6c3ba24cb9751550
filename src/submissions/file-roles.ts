/**
 * Which role a submitted file plays, inferred from its path (DESIGN.md section 3 layout), so
 * that a submission needs no manifest. A path outside this layout is refused with a 422 that
 * names the accepted layout: guessing a role would publish a file no agent reads.
 */
import { ADAPTER_AGENTS, adapterFileName } from '../adapters/generate.js';
import type { AuthoringAgent, Role } from '../catalogue/vocabulary.js';
import { SLUG_PATTERN } from '../catalogue/vocabulary.js';

/** The role of a file and the fields of its file entry that follow from the path. */
export interface InferredRole {
  role: Role;
  /** Adapter files only. */
  agent?: AuthoringAgent;
  /** Skill and reference files only. */
  skill?: string;
  /** The file entry's `description` (1 to 200 characters). */
  description: string;
}

/** The accepted layout, for messages. */
export const ACCEPTED_LAYOUT =
  'AGENTS.md, CLAUDE.md, GEMINI.md, rules/<name>.md, skills/<skill>/SKILL.md, skills/<skill>/<file>, agents/<name>.md, mcp/<name>.json, or a root-level <name>.json with a top-level "mcpServers" object';

/**
 * Infers the role of the file at `path` (already normalised) with text `content`.
 * @returns the role, or a message saying why the path is not in the layout.
 */
export function inferRole(path: string, content: string): InferredRole | { problem: string } {
  if (path === 'AGENTS.md') return { role: 'instructions', description: 'Instructions for every agent' };
  for (const agent of ADAPTER_AGENTS) {
    if (path === adapterFileName(agent)) return { role: 'adapter', agent, description: `Adapter for ${agent}: imports AGENTS.md` };
  }
  const segments = path.split('/');
  const [top, second] = segments;
  if (top === 'skills' && segments.length >= 3 && second !== undefined) {
    if (!SLUG_PATTERN.test(second)) return { problem: `is in skill folder "${second}", which is not a slug (expected lowercase letters and digits separated by hyphens)` };
    if (segments.length === 3 && segments[2] === 'SKILL.md') return { role: 'skill', skill: second, description: `Entry file of the ${second} skill` };
    return { role: 'reference', skill: second, description: `Reference of the ${second} skill: ${segments.slice(2).join('/')}`.slice(0, 200) };
  }
  if (top === 'rules' && segments.length === 2 && path.endsWith('.md')) return { role: 'rules', description: `Rule: ${baseName(path)}`.slice(0, 200) };
  if (top === 'agents' && segments.length === 2 && path.endsWith('.md')) return { role: 'subagent', description: `Subagent: ${baseName(path)}`.slice(0, 200) };
  if (top === 'mcp' && segments.length === 2 && path.endsWith('.json')) return { role: 'mcp', description: 'MCP server configuration' };
  if (segments.length === 1 && path.endsWith('.json') && hasMcpServers(content)) return { role: 'mcp', description: 'MCP server configuration' };
  return { problem: `is not in the loadout layout (expected one of: ${ACCEPTED_LAYOUT})` };
}

function baseName(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.replace(/\.[^.]+$/u, '');
}

function hasMcpServers(content: string): boolean {
  try {
    const data = JSON.parse(content) as unknown;
    const servers = (data as { mcpServers?: unknown } | null)?.mcpServers;
    return typeof servers === 'object' && servers !== null && !Array.isArray(servers);
  } catch {
    return false;
  }
}
