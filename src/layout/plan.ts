/**
 * The install plan of a loadout for one agent: every file with a non-null target, and the
 * manual steps for the files the agent cannot take as they are (spec: `install[<agent>]`).
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { resolveInstallTarget, type InstallTarget, type ManualStep } from './layout.js';
import { readMcpServers, toAntigravityJson, toCodexToml, toVsCodeJson } from '../install/project/mcp-config.js';

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

const CONVERTERS: Partial<Record<Agent, (servers: Parameters<typeof toCodexToml>[0]) => string>> = {
  codex: toCodexToml,
  copilot: toVsCodeJson,
  'antigravity-cli': toAntigravityJson,
};

/**
 * Resolves the plan for `agent` from the manifest's file entries, in manifest order.
 * `readText(path)` gives a file's text, used to put converted MCP configuration into manual
 * steps; a file that does not parse gets a step without the snippet. `resolve` gives each
 * target: the project layout by default, the user layout for `--global` (`scope.ts`). Never
 * throws.
 */
export function resolveInstallPlan(files: readonly FileEntry[], agent: Agent, readText: (path: string) => string | undefined, resolve: (entry: FileEntry, agent: Agent) => InstallTarget = resolveInstallTarget): InstallPlan {
  const plan: InstallPlan = { agent, files: [], manual_steps: [] };
  for (const entry of files) {
    const resolved = resolve(entry, agent);
    if (resolved.target !== null) {
      plan.files.push({ entry, target: resolved.target });
    } else if (resolved.manual !== undefined) {
      plan.manual_steps.push({ ...resolved.manual, text: withSnippet(resolved.manual.text, entry, agent, readText), source: entry.path });
    }
  }
  return plan;
}

function withSnippet(text: string, entry: FileEntry, agent: Agent, readText: (path: string) => string | undefined): string {
  const convert = CONVERTERS[agent];
  if (entry.role !== 'mcp' || convert === undefined) return text;
  const raw = readText(entry.path);
  let servers;
  try {
    servers = raw === undefined ? undefined : readMcpServers(JSON.parse(raw));
  } catch {
    servers = undefined;
  }
  return servers === undefined ? text : `${text}\n\n${convert(servers)}`;
}
