/**
 * A loadout's compatibility with each published agent, as its record publishes it (spec
 * "Loadout record", `compatibility`; DESIGN.md section 3): the author's value, else `adapter`
 * for Claude Code and Gemini CLI when the loadout has their adapter (`unsupported` when not),
 * and `native` for the agents that read AGENTS.md themselves. The agents that use an adapter are
 * those of the layout's {@link ADAPTER_TARGETS}.
 */
import type { Manifest } from '../catalogue/manifest.js';
import { PUBLISHED_AGENTS, type Agent, type CompatibilityLevel } from '../catalogue/vocabulary.js';
import { ADAPTER_TARGETS } from './layout.js';

/** Compatibility for all six agents, in {@link PUBLISHED_AGENTS} order (see the file's docstring for the rule). */
export function resolveCompatibility(m: Pick<Manifest, 'compatibility' | 'files'>): Record<Agent, CompatibilityLevel> {
  const declared = (m.compatibility ?? {}) as Partial<Record<Agent, CompatibilityLevel>>;
  const hasAdapter = (agent: Agent): boolean => m.files.some((f) => f.role === 'adapter' && f.agent === agent);
  return Object.fromEntries(
    PUBLISHED_AGENTS.map((agent) => {
      const fallback: CompatibilityLevel = ADAPTER_TARGETS[agent] !== undefined ? (hasAdapter(agent) ? 'adapter' : 'unsupported') : 'native';
      return [agent, declared[agent] ?? fallback];
    }),
  ) as Record<Agent, CompatibilityLevel>;
}

/**
 * The agents the loadout supports: those its record does not mark `unsupported`, in
 * {@link PUBLISHED_AGENTS} order. A submission's are the agents it names plus Antigravity
 * CLI, which reads AGENTS.md itself and which the submission form does not list.
 */
export function listSupportedAgents(m: Pick<Manifest, 'compatibility' | 'files'>): Agent[] {
  const compatibility = resolveCompatibility(m);
  return PUBLISHED_AGENTS.filter((agent) => compatibility[agent] !== 'unsupported');
}
