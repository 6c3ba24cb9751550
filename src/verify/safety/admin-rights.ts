/**
 * Prose that says something needs administrator rights: "the tool needs `sudo`", "give the
 * deploy user passwordless sudo", "run the terminal as administrator", "requires root access"
 * (docs/authoring.md "What the checks look for"). A reader should know, so each such line is a
 * notice; it never fails the check, since saying so is not running anything. Commands that run
 * as root are the `shell/sudo` rule's (`shell-rules.ts`), and a sentence that forbids or denies
 * the need ("sudo is not needed", "never run as root") gives nothing.
 */
import type { Finding } from '../check.js';
import { NeedleSet } from '../text/needles.js';
import type { ScanText } from './scan-text.js';
import { isWarned } from './warnings.js';

/**
 * Mentions of administrator rights. "as root" is not "as root directory"; "elevated access"
 * is left out, since application permission models use it for their own roles.
 */
const ADMIN_RIGHTS =
  /\b(?:(?:passwordless\s+)?sudo|superuser|(?:root|administrator|admin(?:istrative)?)\s+(?:access|privileges?|rights|permissions?|shell|prompt|terminal|account)|elevated\s+(?:privileges?|shell|prompt|terminal|command prompt|powershell)|as\s+(?:an?\s+)?(?:administrator|admin)|as\s+root(?!\s+(?:directory|dir|folder|level|element|node|path|of|component|cause|module|package|project|span|logger))|root\s+user)\b/giu;

/** What a clause says of a bare "sudo" when it says that something needs it ("needs `sudo`", "run it with sudo", "sudo access"). */
const NEEDS = /\b(?:needs?|requires?|required|requiring|with|via|using|use|under|grant(?:s|ed)?|give|passwordless|access|privileges?|rights|permissions?|elevat\w*)\b/iu;

/** A clause that denies or stops the need ("is not needed", "without sudo", "prevent containers from running as root"). */
const DENIED = /\b(?:no|not|without|never|nor|unnecessary|unprivileged|non-?root|rootless|prevent(?:s|ing)?|block(?:s|ing)?|stop(?:s|ping)?|disallow(?:s|ing)?|forbid(?:s|ding)?|drop(?:s|ping)?)\b|n't\b|NonRoot/iu;

/** Needles: a file without any of these has no line for this rule. */
export const ADMIN_NEEDLES = new NeedleSet(['sudo', 'root', 'admin', 'superuser', 'elevated']);

/**
 * Notices for prose lines of a Markdown file that mention administrator rights, one per line,
 * outside fenced code blocks and outside lines in `skipLines` (lines where a shell rule already
 * reported the command). Other files give none: what a script runs as root, `shell/sudo` sees.
 * Pure.
 */
export function findAdminRights(scan: ScanText, skipLines: ReadonlySet<number> = new Set()): Finding[] {
  if (!scan.markdown || scan.view.needles(ADMIN_NEEDLES).size === 0) return [];
  const text = scan.view.withoutBlocks;
  const findings: Finding[] = [];
  const seen = new Set<number>();
  ADMIN_RIGHTS.lastIndex = 0;
  for (let m = ADMIN_RIGHTS.exec(text); m !== null; m = ADMIN_RIGHTS.exec(text)) {
    const line = scan.lines.lineOf(m.index);
    if (seen.has(line) || skipLines.has(line)) continue;
    const match = { start: m.index, end: m.index + m[0].length };
    const lineText = scan.lines.lineText(line);
    const at = m.index - scan.lines.startOf(line);
    const clause = clauseAt(lineText, at);
    if (DENIED.test(clause) || (/^(?:passwordless\s+)?sudo$/iu.test(m[0]) && !NEEDS.test(clause)) || isWarned(scan, line, match)) continue;
    seen.add(line);
    findings.push({ file: scan.path, line, column: at + 1, rule: 'shell/admin-rights', severity: 'notice', message: `"${m[0]}": says that something needs administrator rights (sudo, root or administrator); review what would run with them` });
  }
  return findings;
}

/** The clause of `line` around offset `at`: clauses end at `.`, `;`, `!` or `?` before a space. */
function clauseAt(line: string, at: number): string {
  let start = 0;
  for (const m of line.matchAll(/[.;!?](?=\s|$)/gu)) {
    if (m.index >= at) return line.slice(start, m.index);
    start = m.index + 1;
  }
  return line.slice(start);
}
