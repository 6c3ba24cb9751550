/**
 * Values of a loadout's MCP servers that some agent's file cannot hold as the loadout wrote them
 * (issue 53, point 13). The installer converts the servers for each agent
 * (`layout/mcp-formats.ts`) and says which values the agent's file cannot hold
 * (`layout/toml-limits.ts`: Codex's TOML has no null, which the install leaves out, and no
 * integer beyond 64 bits, on which the install fails); and it reads the loadout's file as
 * JavaScript does, so an integer of more than 15 to 17 significant digits reaches every agent
 * rounded. Each is a finding naming the file, the line, the agent and the value: blocking when
 * the install for that agent fails, so that verify refuses what install would, else a notice.
 */
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { convertMcpServers, type McpServerConfig } from '../../layout/mcp-formats.js';
import { showPath } from '../../layout/toml-limits.js';
import type { Finding } from '../check.js';
import type { McpServerEntry } from './servers.js';

/** A value in a message: JSON's spelling (digits for a number, `null`). */
const show = (value: unknown): string => (typeof value === 'bigint' ? value.toString() : typeof value === 'number' && Number.isInteger(value) ? BigInt(value).toString() : (JSON.stringify(value) ?? String(value)));

/** Findings for one server: values some agent's file cannot hold, and numbers the installer cannot read exactly. Pure. */
export function checkServerValues(server: McpServerEntry): Finding[] {
  const findings: Finding[] = [];
  for (const agent of PUBLISHED_AGENTS) {
    for (const gap of convertMcpServers({ [server.name]: server.config as McpServerConfig }, agent).unholdable) {
      const where = showPath(gap.path);
      const line = server.lineOfPath(gap.path);
      if (gap.fails) findings.push({ file: server.file, line, message: `server "${server.name}" has ${where} ${show(gap.value)}, which ${agent} cannot hold: ${gap.why}, and the install for ${agent} fails (expected a value ${agent} can hold)` });
      else findings.push({ file: server.file, line, severity: 'notice', message: `server "${server.name}" has ${where} ${show(gap.value)}, which ${agent} cannot hold: ${gap.why}, and the install for ${agent} leaves it out` });
    }
  }
  for (const { path, raw, line } of server.numbers) {
    if (!/^-?\d+$/u.test(raw)) continue;
    const read = Number(raw);
    if (BigInt(raw) === BigInt(read)) continue;
    findings.push({ file: server.file, line, severity: 'notice', message: `server "${server.name}" has ${showPath(path)} ${raw}, which the installer reads as ${BigInt(read)} for every agent (${PUBLISHED_AGENTS.join(', ')}): JSON numbers are read as JavaScript numbers, exact up to ${Number.MAX_SAFE_INTEGER}` });
  }
  return findings;
}
