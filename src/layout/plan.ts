/**
 * The install plan of a loadout for one agent: every file with a non-null target, and the
 * manual steps: for the files the agent cannot take as they are, and for what no file can do
 * (an MCP server's variable to set in the environment, `mcp-formats.ts`) (spec:
 * `install[<agent>]`).
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { resolveInstallTarget, type InstallTarget, type ManualStep } from './layout.js';
import { convertMcpText } from './mcp-formats.js';

/** One file to install: the loadout path, its role and its project-relative target. */
export interface PlannedFile {
  entry: FileEntry;
  target: string;
}

/** Spec `install[<agent>]` before addresses are added. */
export interface InstallPlan {
  agent: Agent;
  files: PlannedFile[];
  manual_steps: ManualStep[];
}

/**
 * Resolves the plan for `agent` from the manifest's file entries, in manifest order.
 * `readText(path)` gives a file's text, used to find the manual steps of an MCP file (a file
 * that does not parse has none). `resolve` gives each target: the project layout by default,
 * the user layout for `--global` (`scope.ts`). Never throws.
 */
export function resolveInstallPlan(files: readonly FileEntry[], agent: Agent, readText: (path: string) => string | undefined, resolve: (entry: FileEntry, agent: Agent) => InstallTarget = resolveInstallTarget): InstallPlan {
  const plan: InstallPlan = { agent, files: [], manual_steps: [] };
  for (const entry of files) {
    const resolved = resolve(entry, agent);
    if (resolved.target !== null) {
      plan.files.push({ entry, target: resolved.target });
      if (entry.role === 'mcp') plan.manual_steps.push(...mcpSteps(entry, agent, resolved.target, readText));
    } else if (resolved.manual !== undefined) {
      plan.manual_steps.push({ ...resolved.manual, source: entry.path });
    }
  }
  return plan;
}

/** What no file can do for the servers of the MCP file `entry` installed at `target`. */
function mcpSteps(entry: FileEntry, agent: Agent, target: string, readText: (path: string) => string | undefined): ManualStep[] {
  const text = readText(entry.path);
  const converted = text === undefined ? undefined : convertMcpText(text, agent);
  return (converted?.notes ?? []).map((note) => ({ kind: note.kind, text: note.text, path: target, source: entry.path }));
}
