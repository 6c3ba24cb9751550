/**
 * Telling a placeholder from a literal secret in MCP configuration. Agents expand
 * `${VAR}` (Claude Code, Cursor, Gemini CLI), `${env:VAR}` (Cursor, VS Code) and
 * `${input:id}` (VS Code); documentation writes `<your-token>` or `YOUR_API_KEY`.
 */

/** Keys (env names, header names, option names) whose value is a secret. */
export const SECRET_KEY = /(?:^|[_-])(?:api[_-]?key|apikey|key|token|secret|password|passwd|pass|pwd|auth|authorization|credentials?|private[_-]?key|access[_-]?key|client[_-]?secret|session|cookie)$|^authorization$|^x-api-key$/iu;

const PLACEHOLDER = [
  /^\$\{(?:env:|input:)?[A-Za-z_][\w.-]*\}$/u, // ${VAR}, ${env:VAR}, ${input:id}
  /^\$[A-Za-z_]\w*$/u, // $VAR
  /^\{\{\s*[\w.-]+\s*\}\}$/u, // {{VAR}}
  /^%[A-Za-z_]\w*%$/u, // %VAR% (Windows)
  /^<[^<>]+>$/u, // <your-token>
  /^\[[^[\]]+\]$/u, // [token]
  /^(?:your|my|insert|replace|enter|add)[\s_-]/iu,
  /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/u, // YOUR_API_KEY
  /^(?:x+|\*+|\.{3}|…|changeme|change-me|placeholder|redacted|todo|tbd|none|null|empty)$/iu,
];

/** True when `value` is a placeholder, or contains only placeholders around fixed text ("Bearer ${TOKEN}"). */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (PLACEHOLDER.some((re) => re.test(v))) return true;
  // "Bearer ${TOKEN}", "token=${env:TOKEN}": every secret-looking part is a reference.
  const withoutRefs = v.replace(/\$\{(?:env:|input:)?[\w.-]+\}|\$[A-Za-z_]\w*|\{\{\s*[\w.-]+\s*\}\}|<[^<>]+>/gu, '');
  return withoutRefs !== v && /^[\s\w:=.-]{0,20}$/u.test(withoutRefs) && !/[A-Za-z0-9]{12,}/u.test(withoutRefs);
}

/** Environment variable names that a value refers to: `${VAR}`, `${env:VAR}`, `$VAR`. */
export function referencedVariables(value: string): string[] {
  const names: string[] = [];
  for (const m of value.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/gu)) names.push(m[1] ?? m[2] ?? '');
  return names.filter((n) => n !== '');
}
