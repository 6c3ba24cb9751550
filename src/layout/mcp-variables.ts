/**
 * Environment variables in MCP configuration, per agent. Loadouts write one form, `${VAR}` or
 * `${VAR:-default}` (the `.mcp.json` form, DESIGN.md section 3); each agent reads its own, so
 * the layout writes each agent's (DESIGN.md "Fidelity"). The table, from the vendors'
 * documentation (checked 2026-11-26):
 *
 * | agent | syntax it expands | where | default | source |
 * |---|---|---|---|---|
 * | Claude Code | `${VAR}`, `${VAR:-default}` | command, args, env, url, headers | yes | code.claude.com/docs/en/mcp, "Environment variable expansion in `.mcp.json`" |
 * | Cursor | `${env:VAR}` (also `${userHome}`, `${workspaceFolder}`) | command, args, env, url, headers | no | cursor.com/docs/context/mcp, "Config interpolation" |
 * | VS Code / Copilot | `${env:VAR}`; secrets as `inputs` (`promptString`, `password: true`) read by `${input:id}` | every string of a server | an input's `default` | code.visualstudio.com/docs/copilot/reference/mcp-configuration, "Input variables for sensitive data" |
 * | Gemini CLI | `$VAR`, `${VAR}` | every string of settings.json | no | geminicli.com/docs/cli/configuration, "environment variables in settings" |
 * | Codex | none: `env` values are literal; `env_vars = ["VAR"]` passes a variable through, `bearer_token_env_var` and `env_http_headers` read a header from one | env, headers | no | developers.openai.com/codex/mcp and /codex/config-reference (`mcp_servers.<id>.env_vars`) |
 * | Antigravity | none documented; `${VAR}` reaches the server as text (google-antigravity/antigravity-cli#233, open) | — | no | antigravity.google/docs/mcp |
 *
 * Pure: strings in, strings out.
 */
import type { Agent } from '../catalogue/vocabulary.js';

/** One reference to a variable in a loadout's string: `${NAME}`, `${NAME:-fallback}` or `${env:NAME}`. */
export interface VariableReference {
  name: string;
  /** The `:-` default, when given. */
  fallback?: string;
  /** Index of `$` in the string, and the reference's length in characters. */
  index: number;
  length: number;
}

/**
 * The head of a reference: `${`, an optional `env:`, the name, then `}` or the `:-` that opens a
 * default. The default runs to the first `}`, found by {@link findVariables} with `indexOf`:
 * `\$\{…(?::-([^}]*))?\}` ran each attempt to the end of a value without `}`, and
 * `${a:-` repeated 5,000 times (25 KB) held an install for 4 s per agent (issue 53, point 8).
 */
const HEAD = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(:-|\})/gu;

/**
 * Every variable reference in `value`, in order: `${NAME}`, `${NAME:-default}` (default up to
 * the first `}`) and the `${env:NAME}` some authors write. In time linear in `value`: the first
 * `}` after a default is looked for once for all the defaults that share it.
 */
export function findVariables(value: string): VariableReference[] {
  const found: VariableReference[] = [];
  if (!value.includes('${')) return found;
  // The first `}` at or after the last default looked for (-1: none is left).
  let close = -2;
  HEAD.lastIndex = 0;
  for (let m = HEAD.exec(value); m !== null; m = HEAD.exec(value)) {
    const name = m[1] ?? '';
    if (m[2] === '}') {
      found.push({ name, index: m.index, length: m[0].length });
      continue;
    }
    const from = m.index + m[0].length;
    if (close !== -1 && close < from) close = value.indexOf('}', from);
    // No `}` is left, so no reference either.
    if (close === -1) break;
    found.push({ name, fallback: value.slice(from, close), index: m.index, length: close + 1 - m.index });
    HEAD.lastIndex = close + 1;
  }
  return found;
}

/** The name when `value` is exactly one reference without a default (`${NAME}`), else undefined. */
export function wholeVariable(value: string): string | undefined {
  const [only, ...rest] = findVariables(value);
  return only !== undefined && rest.length === 0 && only.fallback === undefined && only.length === value.length ? only.name : undefined;
}

/** `value` with each reference replaced by `write(reference)`. */
export function replaceVariables(value: string, write: (reference: VariableReference) => string): string {
  let out = '';
  let at = 0;
  for (const ref of findVariables(value)) {
    out += value.slice(at, ref.index) + write(ref);
    at = ref.index + ref.length;
  }
  return out + value.slice(at);
}

/**
 * True when a variable holds a secret, so VS Code asks for it as a password input rather than
 * reading the environment: its name says key, token, secret, password or credential, or it is
 * a database connection string (`DATABASE_URL`, `POSTGRES_URL`, `…_DSN`), which carries a
 * password. A name rule, since a loadout declares no more than the name (`requires.env`).
 */
export function isSecretVariable(name: string): boolean {
  return /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|PRIVATE_KEY|ACCESS_KEY|DSN)(?:_|$)/iu.test(name) || /(?:DATABASE|POSTGRES|PG|MYSQL|MONGO|MONGODB|REDIS|DB)_?(?:URL|URI|CONNECTION|CONNECTION_STRING)$/iu.test(name);
}

/** How an agent writes a reference in a string: its own syntax, or undefined when it expands none (Codex, Antigravity). */
export const VARIABLE_SYNTAX: Record<Agent, ((reference: VariableReference) => string) | undefined> = {
  // ${VAR} and ${VAR:-default} as written.
  'claude-code': (r) => (r.fallback === undefined ? `\${${r.name}}` : `\${${r.name}:-${r.fallback}}`),
  // ${env:VAR}; no default syntax (the default becomes a manual step).
  cursor: (r) => `\${env:${r.name}}`,
  // ${VAR}; no default syntax.
  'gemini-cli': (r) => `\${${r.name}}`,
  // ${env:VAR}, or ${input:VAR} for a secret or a variable with a default (see mcp-formats.ts).
  copilot: (r) => (isSecretVariable(r.name) || r.fallback !== undefined ? `\${input:${r.name}}` : `\${env:${r.name}}`),
  codex: undefined,
  'antigravity-cli': undefined,
};

/** The agents that have a syntax for a default (`${VAR:-default}` or an input's `default`). */
export const AGENTS_WITH_DEFAULTS: readonly Agent[] = ['claude-code', 'copilot'];
