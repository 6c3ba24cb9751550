/**
 * Which files of a loadout are scripts, so that `security.scripts` can be checked (spec
 * "Security": `scripts`). A file is a script when it starts with a shebang, or has a shell or
 * PowerShell extension, or a Python, JavaScript, TypeScript, Ruby or Perl extension outside a
 * folder of templates or examples (a code template that the agent copies is not run).
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
