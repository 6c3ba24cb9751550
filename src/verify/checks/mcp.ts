/**
 * `mcp`: every MCP configuration file has a top-level `mcpServers` object whose servers are
 * well formed (a local server: `command` string, optional `args` array of strings and `env`
 * object of strings; a remote one: an http(s) `url` with `type` `http`, `sse` or
 * `streamable-http`, optional `headers`), secrets in `env`, `headers` and secret options in
 * `args` are placeholders, never literals, the variables they refer to are in
 * `requires.env`, and server names match `requires.mcp` both ways (spec "Verification";
 * DESIGN.md sections 3 and 4; Claude Code `.mcp.json` documentation). A value some agent's file
 * cannot hold is a finding naming the agent, blocking when the install for that agent fails
 * (`verify/mcp/values.ts`). Notes name variable forms some agent cannot express
 * (`verify/mcp/variables.ts`). `n/a` without MCP files.
 */
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { judge, notApplicable, plural, skip, type Check, type CheckContext, type Finding } from '../check.js';
import { readMcpFiles } from '../mcp/servers.js';
import { checkServer } from '../mcp/server-shape.js';
import { checkServerValues } from '../mcp/values.js';
import { checkVariableForms } from '../mcp/variables.js';
import { consentFindings } from '../consent-findings.js';

export const mcp: Check = {
  id: 'mcp',
  name: 'MCP configuration',
  run(context) {
    const manifest = context.manifest;
    if (manifest === undefined) return skip('not run: loadout.yaml is not valid');
    const files = readMcpFiles(context);
    if (files.length === 0) return notApplicable('no MCP configuration');
    const findings: Finding[] = [];
    const requiredEnv = new Set(manifest.requires?.env ?? []);
    const names = new Map<string, string>();
    const notes: string[] = [];
    for (const file of files) {
      if (!file.parsed) continue; // `parse` reports it
      if (file.servers.length === 0) {
        findings.push({ file: file.file, line: 1, message: 'has no "mcpServers" object with servers (expected { "mcpServers": { "<name>": { … } } })' });
        continue;
      }
      for (const server of file.servers) {
        const other = names.get(server.name);
        if (other !== undefined) findings.push({ file: server.file, line: server.line, message: `server "${server.name}" is also declared in ${other} (expected each server once)` });
        names.set(server.name, server.file);
        findings.push(...checkServer(server, requiredEnv), ...checkServerValues(server));
        notes.push(...checkVariableForms(server));
      }
    }
    findings.push(...compareRequires(context, names));
    // Keys that run a server's tools without asking need the user's consent (capabilities/consent.ts).
    const servers = files.flatMap((f) => f.servers);
    findings.push(...consentFindings(context, ['auto-approval'], (request) => servers.find((s) => s.file === request.file && s.name === request.subject)?.lineOfKey(request.key.split('.')[0] ?? request.key)));
    const outcome = judge(findings, `${plural(names.size, 'server')} well formed, secrets as placeholders, names match requires.mcp`, (n) => plural(n, 'MCP problem'));
    return notes.length === 0 ? outcome : { ...outcome, summary: `${outcome.summary}; ${plural(notes.length, 'variable form')} some agent cannot express (a manual step there)`, notes };
  },
};

function compareRequires(context: CheckContext, servers: ReadonlyMap<string, string>): Finding[] {
  const findings: Finding[] = [];
  const required = context.manifest?.requires?.mcp ?? [];
  required.forEach((name, index) => {
    if (!servers.has(name)) {
      const pointer = `/requires/mcp/${index}`;
      findings.push({ file: MANIFEST_FILE, line: context.manifestYaml?.lineOf(pointer), pointer, message: `requires.mcp names "${name}", but no MCP file of the loadout declares that server (expected one of ${[...servers.keys()].join(', ') || 'none'})` });
    }
  });
  for (const [name, file] of servers) {
    if (!required.includes(name)) {
      const line = readMcpFiles(context).flatMap((f) => f.servers).find((s) => s.name === name)?.line;
      findings.push({ file, line, message: `server "${name}" is not listed in requires.mcp (expected requires.mcp to name every server: add "${name}")` });
    }
  }
  return findings;
}
