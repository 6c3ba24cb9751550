/**
 * The per-agent layout tables' public surface (explicit names: adding one here makes it
 * public): where each file of a loadout goes for each agent, in a project and in the home
 * folder, what may be written where, and what a loadout costs in an agent's context
 * (DESIGN.md section 3, the install layout).
 */
export { ADAPTER_TARGETS, baseName, pathInsideSkill, resolveInstallTarget, SKILL_DIRS, type InstallTarget, type ManualStep } from './layout.js';
export { resolveInstallPlan, type ComposedFile, type InstallPlan, type PlannedFile } from './plan.js';
export { resolveUserTarget, userLocations, isUserLocation } from './user-layout.js';
export { agentFolders, agentMcpFile, describeAgentLocations, describeTargetProblem, isAgentLocation, isGitSegment } from './target-rules.js';
export { isDiscoverable, skillFolders } from './discovery.js';
export { BYTES_PER_TOKEN, estimateTokens, measureContext, measureContextForAgents, ruleAlwaysApplies, sizeOf, type ContextCost, type ContextSize } from './context-cost.js';
