/**
 * The record fields a submission cannot state itself (the form has no such fields): its
 * network use, its scripts and its MCP server names (`requires.mcp`), found with the same detectors the `safety` check uses, so that
 * the derived record declares what the content does rather than failing the check for
 * something the submitter could not declare. Credentials, risky shell and hidden text are
 * still reported by the check. Pure.
 */
import type { SubmissionFile } from '../storage/submission-store.js';
import { findNetworkUse, mcpServerNetworkUse } from '../verify/safety/network.js';
import { prepareScanText } from '../verify/safety/scan-text.js';
import { isScript } from '../capabilities/scripts.js';

/** What the content does, as the record's `security.network`, `security.scripts` and `requires.mcp`. */
export interface DeclaredSecurity {
  network: boolean;
  scripts: string[];
  /** Names of the MCP servers the mcp files declare (the `mcp` check wants them in `requires.mcp`). */
  mcpServers: string[];
}

/** Detects network use and scripts in `files`; `mcpPaths` are the files with role `mcp`. */
export function declareSecurity(files: readonly SubmissionFile[], mcpPaths: ReadonlySet<string>): DeclaredSecurity {
  let network = false;
  const scripts: string[] = [];
  const mcpServers = new Set<string>();
  for (const file of files) {
    const script = isScript(file.path, file.content);
    if (script) scripts.push(file.path);
    if (!network && findNetworkUse(prepareScanText(file.path, file.content), script) !== undefined) network = true;
    if (!mcpPaths.has(file.path)) continue;
    for (const [name, server] of Object.entries(readMcpServers(file.content))) {
      mcpServers.add(name);
      if (typeof server === 'object' && server !== null && mcpServerNetworkUse(server as { command?: unknown; url?: unknown }) !== undefined) network = true;
    }
  }
  return { network, scripts, mcpServers: [...mcpServers].sort() };
}

function readMcpServers(content: string): Record<string, unknown> {
  try {
    const servers = (JSON.parse(content) as { mcpServers?: unknown }).mcpServers;
    return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
  } catch {
    return {}; // `parse` reports it
  }
}
