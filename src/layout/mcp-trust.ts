/**
 * MCP servers that ask to skip the user's confirmation: a loadout's server entry may carry a
 * key that makes an agent run the server's tools without asking. The installer copies only
 * server entries into an MCP configuration (`protected-paths.ts`), but such an entry is shown
 * to the user and installed only with `--force`.
 *
 * The keys, per client (documentation checked 2026-11-25):
 * - Gemini CLI `trust: true`: "bypasses all tool call confirmations for this server"
 *   (geminicli.com/docs/tools/mcp-server, configuration properties);
 * - Codex `default_tools_approval_mode` and `tools.<tool>.approval_mode` of a
 *   `[mcp_servers.<name>]` table (developers.openai.com/codex/config-reference);
 * - `alwaysAllow` and `autoApprove`, lists of tools run without asking, read by Cline, Roo
 *   Code and Kilo Code from the same `mcpServers` shape (docs.cline.bot/mcp), and found in
 *   `.mcp.json` files copied between clients; Claude Code and Cursor document no per-server
 *   approval key (their permissions live in settings files, which no install writes).
 */

/** One request for auto-approval: the server, the key and its value as JSON. */
export interface AutoApproval {
  server: string;
  key: string;
  value: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** True when a key's value asks for something: not false, null, an empty list or an empty string, nor Codex's `prompt`. */
function asks(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 'prompt') return false;
  return !(Array.isArray(value) && value.length === 0);
}

/**
 * Every key of `servers` (the `mcpServers` object of a loadout's MCP file) that asks for
 * auto-approval or trust, in server order. Pure; never throws.
 */
export function findAutoApprovals(servers: Record<string, unknown>): AutoApproval[] {
  const found: AutoApproval[] = [];
  for (const [server, entry] of Object.entries(servers)) {
    if (!isObject(entry)) continue;
    for (const key of ['trust', 'alwaysAllow', 'autoApprove', 'default_tools_approval_mode', 'approval_mode']) {
      if (asks(entry[key])) found.push({ server, key, value: JSON.stringify(entry[key]) });
    }
    const tools = entry['tools'];
    if (isObject(tools)) {
      for (const [tool, settings] of Object.entries(tools)) {
        if (isObject(settings) && asks(settings['approval_mode'])) found.push({ server, key: `tools.${tool}.approval_mode`, value: JSON.stringify(settings['approval_mode']) });
      }
    }
  }
  return found;
}

/** A sentence for the user: `server "x" asks for trust: true; server "y" asks for alwaysAllow: ["run"]`. */
export function describeAutoApprovals(found: readonly AutoApproval[]): string {
  return found.map((a) => `server "${a.server}" asks for ${a.key}: ${a.value}`).join('; ');
}

/**
 * Why the MCP file `text` of a loadout needs the user's consent, or undefined: its servers
 * ask for auto-approval or trust ({@link findAutoApprovals}). A file that does not parse has
 * nothing to say here (the installer refuses it elsewhere). Pure; never throws.
 */
export function describeServerTrust(text: string | undefined): string | undefined {
  let servers: unknown;
  try {
    servers = (JSON.parse(text ?? '') as Record<string, unknown> | null)?.['mcpServers'];
  } catch {
    return undefined;
  }
  if (!isObject(servers)) return undefined;
  const found = findAutoApprovals(servers);
  if (found.length === 0) return undefined;
  return `holds MCP servers that ask to run their tools without the user's confirmation: ${describeAutoApprovals(found)} (expected servers that leave approval to the user)`;
}
