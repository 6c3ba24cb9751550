/**
 * Content problems are data, not exceptions (STYLE.md, Errors 8): every reader and check
 * returns a list of diagnostics, and one reporter (`src/cli/report.ts`) prints them.
 */
export interface Diagnostic {
  /** Loadout id (its folder name), or the submission's id. */
  loadout: string;
  /** Path shown to the user: relative to the catalogue root, e.g. `loadouts/x/loadout.yaml`. */
  file: string;
  /** 1-based line in `file`, when known. */
  line?: number;
  /** RFC 6901 JSON pointer into the manifest (or the submission body), when the problem is a field. */
  pointer?: string;
  /** What is wrong, with what was expected. */
  message: string;
  /** What to do about it. */
  hint?: string;
}

/** Formats a diagnostic as `file:line: message (pointer)`, the stderr form of DESIGN.md section 2. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}`;
  const pointer = d.pointer !== undefined && d.pointer !== '' && !d.message.includes(d.pointer) ? ` (at ${d.pointer})` : '';
  const hint = d.hint === undefined ? '' : ` (hint: ${d.hint})`;
  return `${where}: ${d.message}${pointer}${hint}`;
}
