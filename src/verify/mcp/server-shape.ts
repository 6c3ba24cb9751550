/**
 * The shape of one MCP server entry (Claude Code `.mcp.json`, Cursor `mcp.json`, Gemini CLI
 * `settings.json` `mcpServers`): a local server has `command`, optional `args` and `env`; a
 * remote server has `url` and `type`. Secrets are placeholders.
 */
import type { Finding } from '../check.js';
import type { McpServerEntry } from './servers.js';
import { isPlaceholder, referencedVariables, SECRET_KEY } from './secrets.js';

const REMOTE_TYPES = ['http', 'sse', 'streamable-http'];
const SECRET_OPTION = /^--?(?:api[_-]?key|apikey|key|token|secret|password|passwd|pass|auth|access[_-]?token|client[_-]?secret)$/iu;

/** Findings for one server. `requiredEnv` is `requires.env` of the record. Pure. */
export function checkServer(server: McpServerEntry, requiredEnv: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  const { config, name } = server;
  const at = (key: string, message: string): void => {
    findings.push({ file: server.file, line: server.lineOfKey(key), message: `server "${name}" ${message}` });
  };
  const hasCommand = config['command'] !== undefined;
  const hasUrl = config['url'] !== undefined;
  if (hasCommand && hasUrl) at('url', 'has both "command" and "url" (expected a local server with command, or a remote one with url)');
  if (!hasCommand && !hasUrl) findings.push({ file: server.file, line: server.line, message: `server "${name}" has neither "command" nor "url" (expected "command" with "args" and "env", or "url" with "type")` });
  if (hasCommand) {
    if (typeof config['command'] !== 'string' || config['command'].trim() === '') at('command', 'has a "command" that is not a non-empty string (expected the program to run, e.g. "npx")');
    const args = config['args'];
    if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string'))) at('args', 'has "args" that is not an array of strings (expected e.g. ["-y", "package"])');
    else if (Array.isArray(args)) checkArgs(args as string[], (m) => at('args', m));
  }
  if (hasUrl) {
    const url = config['url'];
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/u.test(url)) at('url', `has "url" ${JSON.stringify(url)} (expected an http or https URL)`);
    else if (/^https?:\/\/[^/\s:]*:[^/\s@]*@/u.test(url)) at('url', 'has a password in its "url" (expected credentials in a header placeholder)');
    else {
      const secret = secretQueryParameter(url);
      if (secret !== undefined) at('url', `has a literal secret in its "url" query (${secret}=…) (expected a placeholder such as "\${API_TOKEN}", or the secret in a header)`);
    }
    const type = config['type'];
    if (type === undefined) at('url', `has "url" but no "type" (expected "type": one of ${REMOTE_TYPES.join(', ')})`);
    else if (typeof type !== 'string' || !REMOTE_TYPES.includes(type)) at('type', `has "type" ${JSON.stringify(type)} (expected one of ${REMOTE_TYPES.join(', ')} for a remote server)`);
  } else if (config['type'] !== undefined && config['type'] !== 'stdio') {
    at('type', `has "type" ${JSON.stringify(config['type'])} but no "url" (expected "stdio" for a local server)`);
  }
  for (const key of ['env', 'headers'] as const) {
    const value = config[key];
    if (value === undefined) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
      at(key, `has "${key}" that is not an object of strings (expected { "NAME": "\${NAME}" })`);
      continue;
    }
    for (const [k, v] of Object.entries(value as Record<string, string>)) {
      if (SECRET_KEY.test(k) && !isPlaceholder(v)) at(k, `has a literal secret in ${key}.${k} (expected a placeholder such as "\${${key === 'env' ? k : 'API_TOKEN'}}")`);
      for (const variable of referencedVariables(v)) {
        if (!requiredEnv.has(variable)) at(k, `refers to \${${variable}} in ${key}.${k}, which requires.env does not list (expected "${variable}" in requires.env)`);
      }
    }
  }
  return findings;
}

function checkArgs(args: string[], report: (message: string) => void): void {
  args.forEach((arg, i) => {
    const eq = /^(--?[\w-]+)=(.*)$/u.exec(arg);
    const option = eq?.[1] ?? (i > 0 ? args[i - 1] : undefined);
    const value = eq?.[2] ?? arg;
    if (option !== undefined && SECRET_OPTION.test(option) && (eq !== null || i > 0) && !isPlaceholder(value) && !value.startsWith('-')) {
      report(`passes a literal secret as ${option} in "args" (expected a placeholder such as "\${API_TOKEN}")`);
    }
  });
}

/** The name of a query parameter of `url` that holds a literal secret (`?api_key=abc123`), or undefined. */
function secretQueryParameter(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  for (const [name, value] of new URL(url).searchParams) if (SECRET_KEY.test(name) && !isPlaceholder(value)) return name;
  return undefined;
}
