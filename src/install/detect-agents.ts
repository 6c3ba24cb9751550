/**
 * Which agents to install for (DESIGN.md section 8): `--agent claude-code,cursor` names several,
 * and `--agent detected` takes those whose folders or files are already in the project (or,
 * in the user scope, the home folder). Each agent is recognised by the places it reads
 * (DESIGN.md section 3 and `user-layout.ts`); `.agents/` alone names no agent, since several
 * read it.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { isAgent, PUBLISHED_AGENTS, type Agent } from '../catalogue/vocabulary.js';
import { suggestIds } from '../catalogue/suggest.js';
import { openScope, type InstallScope } from './project/scope.js';

/** The word of `--agent` that asks for detection. */
export const DETECTED = 'detected';

/** Places that show an agent is used in a project, relative to its root. */
const PROJECT_MARKERS: Record<Agent, readonly string[]> = {
  'claude-code': ['.claude', 'CLAUDE.md', '.mcp.json'],
  codex: ['.codex'],
  cursor: ['.cursor', '.cursorrules'],
  'gemini-cli': ['.gemini', 'GEMINI.md'],
  copilot: ['.github/copilot-instructions.md', '.github/instructions', '.github/agents', '.vscode/mcp.json'],
  'antigravity-cli': ['.agents/rules', '.agents/mcp_config.json', '.agent'],
};

/** Places that show an agent is used by the user, relative to the home folder. */
const USER_MARKERS: Record<Agent, readonly string[]> = {
  'claude-code': ['.claude'],
  codex: ['.codex'],
  cursor: ['.cursor'],
  'gemini-cli': ['.gemini/settings.json', '.gemini/GEMINI.md'],
  copilot: ['.copilot'],
  'antigravity-cli': ['.gemini/antigravity'],
};

/** An agent found, with the places that showed it. */
export interface DetectedAgent {
  agent: Agent;
  found: string[];
}

/**
 * The agents whose places exist in `scope`, in the order of the published agents: a place is
 * looked at through the scope's handle (`project/project-root.ts`), a link at its end counted
 * as there, a place reached through a link out of the scope's folder as not. Never throws for
 * a missing place.
 */
export async function detectAgents(scope: InstallScope): Promise<DetectedAgent[]> {
  const markers = scope.kind === 'user' ? USER_MARKERS : PROJECT_MARKERS;
  const project = await openScope(scope);
  const detected: DetectedAgent[] = [];
  for (const agent of PUBLISHED_AGENTS) {
    const found: string[] = [];
    for (const place of markers[agent]) {
      const exists = await project.kindOf(place).then(
        (kind) => kind !== undefined,
        () => false,
      );
      if (exists) found.push(place);
    }
    if (found.length > 0) detected.push({ agent, found });
  }
  return detected;
}

/**
 * Parses `--agent`: a comma-separated list of agent ids, or `detected`.
 * @returns the agents named, or `'detected'`
 * @throws LoadoutError `usage` naming the first value that is not an agent
 */
export function parseAgentList(value: string): Agent[] | typeof DETECTED {
  const parts = value.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 1 && parts[0] === DETECTED) return DETECTED;
  const bad = parts.find((p) => !isAgent(p));
  if (bad !== undefined || parts.length === 0) {
    const near = bad === undefined ? [] : suggestIds(bad, [...PUBLISHED_AGENTS, DETECTED]);
    throw new LoadoutError('usage', `--agent is ${JSON.stringify(value)} (expected one of ${PUBLISHED_AGENTS.join(', ')}, several separated by commas, or ${DETECTED})`, near.length === 0 ? {} : { hint: `Did you mean ${near.join(', ')}?` });
  }
  return [...new Set(parts)] as Agent[];
}
