/**
 * Variable forms in a loadout's MCP servers that some agent cannot express (issue 33, point 3):
 * the installer writes each agent's own syntax (`layout/mcp-variables.ts`), and where an agent
 * has none for what the loadout wrote (Codex and Antigravity expand nothing; Cursor and Gemini
 * CLI have no default), the install leaves the server out or leaves a manual step. The `mcp`
 * check lists these as notes in its details (not findings: the install handles each, and a
 * loadout that renames a variable, as dbt-analytics does, is still a good loadout), naming the
 * agents, so an author can write a form more agents take (`NAME: ${NAME}`, passed through by
 * Codex's `env_vars`). Forms only one agent reads (`$VAR`: Gemini CLI; `${input:id}`: VS Code)
 * are noted too.
 */
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { convertMcpServers, type McpServerConfig } from '../../layout/mcp-formats.js';
import type { McpServerEntry } from './servers.js';

/** Strings of a server's JSON, with a path such as `env.TOKEN` or `args[1]`. */
function strings(value: unknown, at: string): { at: string; value: string }[] {
  if (typeof value === 'string') return [{ at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, at === '' ? k : `${at}.${k}`));
  return [];
}

/** Notes for one server (`<file>:<line>: server "x" …`): each variable form some agent cannot express, with the agents. Pure. */
export function checkVariableForms(server: McpServerEntry): string[] {
  const notes: string[] = [];
  const notice = (message: string, hint: string): void => void notes.push(`${server.file}:${server.line}: server "${server.name}" ${message}. ${hint}`);
  const byForm = new Map<string, string[]>();
  for (const agent of PUBLISHED_AGENTS) {
    for (const u of convertMcpServers({ [server.name]: server.config as McpServerConfig }, agent).unexpressible) {
      const form = `${u.where} "${u.value}"`;
      byForm.set(form, [...(byForm.get(form) ?? []), `${agent}: ${u.why}`]);
    }
  }
  for (const [form, agents] of byForm) notice(`uses a variable form ${agents.map((a) => a.slice(0, a.indexOf(':'))).join(', ')} cannot express: ${form} (${agents.join('; ')})`, 'The install leaves a manual step there; a variable passed under its own name ("NAME": "${NAME}"), outside args and urls, is taken by every agent but Antigravity');
  for (const { at, value } of strings(server.config, '')) {
    if (/(?<![$\\])\$[A-Za-z_]\w*/u.test(value.replace(/\$\{[^}]*\}/gu, ''))) notice(`writes $VAR in ${at} ("${value}"), which only Gemini CLI expands (expected \${VAR})`, 'Write ${VAR}: the installer translates it for each agent');
    if (/\$\{input:/u.test(value)) notice(`writes \${input:…} in ${at} ("${value}"), which only VS Code reads (expected \${VAR})`, 'Write ${VAR}: the installer makes it a VS Code input where the variable is a secret');
  }
  return notes;
}
