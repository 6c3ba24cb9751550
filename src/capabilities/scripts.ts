/**
 * Which files of a loadout are scripts (spec "Security": `scripts`; issue 54, point 1,
 * `scripts`), what runs them, which other files tell the agent to run them, and which
 * environment variables they read. A file is a script when it starts with a shebang, or has a
 * shell or PowerShell extension, or a Python, JavaScript, TypeScript, Ruby or Perl extension
 * outside a folder of templates or examples (a code template that the agent copies is not run).
 * Pure.
 */

const ALWAYS = /\.(?:sh|bash|zsh|ksh|fish|ps1|psm1|bat|cmd)$/iu;
const CODE = /\.(?:py|js|mjs|cjs|ts|mts|cts|rb|pl)$/iu;
const NOT_RUN = /(?:^|\/)(?:templates?|assets|examples?|samples?|snippets|fixtures|boilerplate)\//iu;

/** True when the loadout file `path` with `text` is executable content. Pure. */
export function isScript(path: string, text: string | undefined): boolean {
  if (text?.startsWith('#!') === true) return true;
  if (ALWAYS.test(path)) return true;
  return CODE.test(path) && !NOT_RUN.test(path);
}

/** Interpreters by extension, for a script without a shebang. */
const BY_EXTENSION: Readonly<Record<string, string>> = { sh: 'sh', bash: 'bash', zsh: 'zsh', ksh: 'ksh', fish: 'fish', ps1: 'pwsh', psm1: 'pwsh', bat: 'cmd', cmd: 'cmd', py: 'python', js: 'node', mjs: 'node', cjs: 'node', ts: 'node', mts: 'node', cts: 'node', rb: 'ruby', pl: 'perl' };

/**
 * The interpreter of the script `path` with `text`: its shebang's program (`#!/usr/bin/env
 * python3` → `python3`, `#!/bin/bash` → `bash`), else its extension's, else null. Pure.
 */
export function scriptInterpreter(path: string, text: string | undefined): string | null {
  const shebang = /^#!\s*(\S+)(?:[ \t]+(?:-\S+[ \t]+)*(\S+))?/u.exec(text ?? '');
  if (shebang !== null) {
    const program = (shebang[1] ?? '').split('/').pop() ?? '';
    return program === 'env' ? (shebang[2] ?? null) : program || null;
  }
  const extension = /\.([A-Za-z0-9]+)$/u.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? null : (BY_EXTENSION[extension] ?? null);
}

/**
 * True when `text` (another file of the loadout, at `from`) names the script `path`: by its path
 * in the loadout, or by its path relative to `from`'s folder (`scripts/check.sh` in
 * `skills/x/SKILL.md` for `skills/x/scripts/check.sh`), with or without `./`. Pure.
 */
export function namesScript(text: string, from: string, path: string): boolean {
  const folder = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const relative = folder !== '' && path.startsWith(folder) ? path.slice(folder.length) : undefined;
  return [path, relative].some((name) => name !== undefined && name !== '' && containsPath(text, name));
}

/** `name` in `text` as a whole path: not preceded by a path character (`xscripts/a.sh` is another file). */
function containsPath(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const after = text[at + name.length] ?? '';
    if (!/[\w.-]/u.test(after) && (before === '' || before === '/' ? before === '' || text.slice(Math.max(0, at - 2), at) === './' : !/[\w.-]/u.test(before))) return true;
  }
  return false;
}

/**
 * Environment variables a script reads by name: `process.env.NAME`, `process.env['NAME']`,
 * `os.environ['NAME']`, `os.environ.get('NAME')`, `os.getenv('NAME')`, `ENV['NAME']`, `$env:NAME`,
 * and in shell scripts `${NAME:?…}` (the form that stops when the variable is unset). Sorted,
 * without duplicates. Linear in the text's length. Pure.
 */
export function scriptEnvReads(text: string): string[] {
  const names = new Set<string>();
  const patterns = [
    /\bprocess\.env\.([A-Za-z_]\w{0,127})/gu,
    /\bprocess\.env\[\s*["'`]([A-Za-z_]\w{0,127})["'`]\s*\]/gu,
    /\bos\.environ\[\s*["']([A-Za-z_]\w{0,127})["']\s*\]/gu,
    /\bos\.(?:environ\.get|getenv)\(\s*["']([A-Za-z_]\w{0,127})["']/gu,
    /\bENV\[\s*["']([A-Za-z_]\w{0,127})["']\s*\]/gu,
    /\$env:([A-Za-z_]\w{0,127})/gu,
    /\$\{([A-Za-z_]\w{0,127}):\?/gu,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) if (match[1] !== undefined) names.add(match[1]);
  return [...names].sort();
}
