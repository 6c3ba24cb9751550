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

/** One file to install: the loadout path, its role and its project-relative target (a file may have several: `InstallTarget.also`). */
export interface PlannedFile {
  entry: FileEntry;
  target: string;
}

/** A file composed into another planned file (`InstallTarget.composed`): `into` is that file's target. */
export interface ComposedFile {
  entry: FileEntry;
  into: string;
  as: 'section' | 'import';
}

/** Spec `install[<agent>]` before addresses are added. */
export interface InstallPlan {
  agent: Agent;
  files: PlannedFile[];
  manual_steps: ManualStep[];
  /** Files composed into another planned file, in manifest order (a `section` is not in `files`; an `import` is). */
  composed: ComposedFile[];
}

/**
 * Resolves the plan for `agent` from the manifest's file entries, in manifest order; a file
 * with further targets (`InstallTarget.also`) is planned once per target, right after its own.
 * `readText(path)` gives a file's text, used to find the manual steps of an MCP file (a file
 * that does not parse has none). `resolve` gives each target: the project layout by default,
 * the user layout for `--global` (`scope.ts`). A file composed into another
 * (`InstallTarget.composed`) is listed in `composed` when the agent's plan has that file, and
 * gets its manual step when it has not. Never throws.
 */
export function resolveInstallPlan(files: readonly FileEntry[], agent: Agent, readText: (path: string) => string | undefined, resolve: (entry: FileEntry, agent: Agent) => InstallTarget = resolveInstallTarget): InstallPlan {
  const plan: InstallPlan = { agent, files: [], manual_steps: [], composed: [] };
  const resolved = files.map((entry) => ({ entry, ...resolve(entry, agent) }));
  // The first planned file of a role is the one others are composed into (an adapter only plans for its own agent).
  const intoTarget = (role: FileEntry['role']): string | undefined => resolved.find((r) => r.entry.role === role && r.target !== null)?.target ?? undefined;
  for (const { entry, target, manual, composed, also } of resolved) {
    const into = composed === undefined ? undefined : intoTarget(composed.into);
    if (composed !== undefined && into !== undefined) plan.composed.push({ entry, into, as: composed.as });
    if (target !== null) {
      // The file's further targets (`InstallTarget.also`) follow it, each a planned file of its own.
      for (const at of [target, ...(also ?? [])]) {
        plan.files.push({ entry, target: at });
        if (entry.role !== 'mcp') continue;
        // A variable worded alike for both files of one agent is one step.
        const own = plan.manual_steps.filter((s) => s.source === entry.path);
        for (const step of mcpSteps(entry, agent, at, readText)) if (!own.some((s) => s.kind === step.kind && s.text === step.text)) plan.manual_steps.push(step);
      }
    }
    const step = composed !== undefined && into !== undefined ? undefined : manual;
    if ((target === null || composed !== undefined) && step !== undefined) plan.manual_steps.push({ ...step, source: entry.path });
  }
  return plan;
}

/** What no file can do for the servers of the MCP file `entry` installed at `target`. */
function mcpSteps(entry: FileEntry, agent: Agent, target: string, readText: (path: string) => string | undefined): ManualStep[] {
  const text = readText(entry.path);
  const converted = text === undefined ? undefined : convertMcpText(text, agent, target);
  return (converted?.notes ?? []).map((note) => ({ kind: note.kind, text: note.text, path: target, source: entry.path }));
}
