/**
 * Risky shell commands (spec "Verification"; DESIGN.md section 4 "risky shell such as
 * `curl … | sh`"): piping a download into an interpreter, `rm -rf` of `/`, `~` or `$HOME`,
 * `chmod 777`, `sudo`, turning off TLS verification, and running base64-decoded text.
 * Each rule is a regular expression applied to a whole file; a cheap substring test skips
 * files that cannot match (one pass finds every rule's needles).
 *
 * Blocking or notice (docs/authoring.md "What the checks look for"): a match fails the check,
 * except that
 * - the system package manager (`apt-get install`, `brew install`, … with or without `sudo`)
 *   is always a notice: installing a tool the way its vendor documents it is for a reader to
 *   judge, not a reason to refuse the loadout;
 * - a match that Markdown shows as an example of what not to do (see `isCounterExample`) is a
 *   notice;
 * - prose that says a tool needs administrator rights ("needs passwordless sudo") is a notice
 *   ({@link findAdminRights}).
 */
import type { Finding, Severity } from '../check.js';
import type { ScanText } from './scan-text.js';
import { networkReading } from './network.js';
import { isCounterExample } from './warnings.js';
import { NeedleSet } from '../text/needles.js';

interface ShellRule {
  /** Stable id (`shell/<what>`), named in findings and in the README's table of rules. */
  id: string;
  /** Lower-case substrings of which at least one must occur for the rule to run. */
  needles: string[];
  pattern: RegExp;
  reason: string;
  /** Set for rules whose every match is a notice. */
  severity?: Severity;
}

/** What may stand before a program's name: sudo, env, and a bin folder (`| sudo env /usr/bin/bash`). */
const BIN = String.raw`(?:\/(?:usr\/)?(?:local\/)?bin\/)?`;
const LAUNCH = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:${BIN}env\s+(?:-\S+\s+)*)?${BIN}`;
/**
 * An interpreter given its program inline reads the download as data, not as code: a shell's
 * `-c` (alone or in a cluster: `-ec`; `-e` alone is errexit), `python -c`, `node -e`/`-p`,
 * `perl -e`/`-E`, `ruby -e`, `pwsh -c`, and `python -m json.tool`.
 */
const SHELL_INLINE = String.raw`(?!\s+-(?=[a-zA-Z]*c)[a-zA-Z]+\b)`;
const PROGRAM_INLINE = String.raw`(?!\s+-[a-zA-Z]*[ceEp]\b)(?!\s*-m\s+json)`;
const SHELLS = String.raw`${LAUNCH}(?:ba|z|k|da|fi|a)?sh\b`;
const INTERPRETERS = String.raw`(?:${SHELLS}${SHELL_INLINE}|${LAUNCH}(?:python[0-9.]*|perl|ruby|node|pwsh|powershell)\b${PROGRAM_INLINE}|iex\b|invoke-expression\b)`;
/** A character of one command of a pipeline; a backslash before a line break continues the line. */
const COMMAND_CHAR = String.raw`(?:[^\n|\\]|\\[\s\S])`;
/**
 * A pipe (not `||`), then any further stages (`| tee log |`), up to the last stage's start.
 * `char` is the command character of the stages: a rule passes one that stops at its own
 * start (see {@link commandCharUntil}).
 */
const pipeTo = (char: string): string => String.raw`\|(?!\|)(?:${char}*\|(?!\|))*?(?:\s|\\\n)*`;
/**
 * A command character that is not the start of another match of `start`. A rule whose match
 * runs on from its start to a later part of the line (`curl … | sh`) would otherwise scan the
 * same line again from every start (`curl curl curl …`), which is quadratic; stopping at the
 * next start finds the same lines, since the last start before the later part matches too.
 */
const commandCharUntil = (start: string): string => String.raw`(?:(?!${start})${COMMAND_CHAR})`;
/** A line's character that is not the start of another match of `start` (as {@link commandCharUntil}). */
const lineCharUntil = (start: string): string => String.raw`(?:(?!${start})[^\n])`;
/** base64's decode flag, alone or in a cluster (`-d`, `-di`, `--decode`, `-D` on macOS). */
const DECODE = String.raw`(?:-(?=[a-zA-Z]*[dD])[a-zA-Z]+|--decode)\b`;
const DOWNLOADERS = String.raw`(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)`;
const DOWNLOAD_CHAR = commandCharUntil(String.raw`(?<!\w)${DOWNLOADERS}\b`);
const BASE64_CHAR = commandCharUntil(String.raw`\bbase64\b`);
/** Options before base64's decode flag: the first decode flag ends them, so the match does not try each later one in turn. */
const BASE64_OPTIONS = String.raw`\s+(?:(?!${DECODE})-[a-zA-Z]+\s+)*`;
const HOME_OR_ROOT = String.raw`["']?(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)["']?(?=$|[\s;&|)\x60])`;
/**
 * System package managers: Debian/Ubuntu, Fedora/RHEL, SUSE, Arch, Alpine, Homebrew,
 * MacPorts, Snap, FreeBSD, Chocolatey, winget, Scoop. Language registries (npm, pip, …) are
 * network use instead (`network.ts`).
 */
export const SYSTEM_PACKAGE_MANAGERS = String.raw`(?:apt-get|apt|aptitude|dnf|yum|zypper|pacman|apk|brew|port|snap|pkg|choco|winget|scoop)`;
/**
 * The start of a word, where the pattern's next character is a word character: the same
 * positions as `\b`, but V8 scans for a lookbehind far faster than for `\b` under the `iu`
 * flags (DESIGN.md section 7: 1,000 loadouts verified under 3 s; `bench/verify.ts` measures it).
 */
const AT_WORD = String.raw`(?<!\w)`;

/** `sudo` and its flags (`sudo -E`), before a command. */
const SUDO = String.raw`sudo[ \t]+(?:-[a-zA-Z]+[ \t]+)*`;

const RULES: ShellRule[] = [
  {
    id: 'shell/pipe-to-interpreter',
    needles: ['curl', 'wget', 'iwr', 'irm', 'invoke-'],
    pattern: new RegExp(String.raw`${AT_WORD}${DOWNLOADERS}\b${DOWNLOAD_CHAR}*${pipeTo(DOWNLOAD_CHAR)}${INTERPRETERS}`, 'giu'),
    reason: 'pipes a download into an interpreter, which runs code nobody reviewed',
  },
  {
    id: 'shell/run-downloaded-script',
    needles: ['curl', 'wget'],
    pattern: new RegExp(String.raw`${AT_WORD}(?:ba|z)?sh\s+(?:-c\s+["']?\$\(|<\()\s*(?:curl|wget)\b`, 'giu'),
    reason: 'runs a downloaded script in a shell, which runs code nobody reviewed',
  },
  {
    id: 'shell/invoke-expression-download',
    needles: ['iex', 'invoke-expression'],
    pattern: /(?<!\w)(?:iex|invoke-expression)\b[\s(]*(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient)/giu,
    reason: 'runs a download with Invoke-Expression, which runs code nobody reviewed',
  },
  {
    id: 'shell/rm-root-or-home',
    needles: ['rm '],
    pattern: new RegExp(String.raw`${AT_WORD}rm\s+(?=(?:-[\w-]+\s+)*?(?:-(?=[a-z]*r)[a-z]+|--recursive)\s)(?:-[\w-]+\s+)*(?:--\s+)?${HOME_OR_ROOT}`, 'giu'),
    reason: 'deletes the root or home folder recursively (rm -rf /, ~ or $HOME)',
  },
  {
    id: 'shell/rm-root-or-home',
    needles: ['--no-preserve-root'],
    pattern: /(?<!\w)rm\b[^\n]*--no-preserve-root/giu,
    reason: 'deletes with --no-preserve-root',
  },
  {
    id: 'shell/chmod-777',
    needles: ['chmod'],
    pattern: /(?<!\w)chmod\s+(?:-[a-z]+\s+)*(?:0?777|(?:a|ugo)[+=]rwx)\b/giu,
    reason: 'makes files writable by everyone (chmod 777)',
  },
  {
    id: 'shell/sudo',
    needles: ['sudo'],
    // A command follows, not a sentence about sudo ("sudo is not needed here"), nor the system package manager (below).
    pattern: new RegExp(
      String.raw`(?:^[ \t]*(?:[$#>][ \t]+)?|&&[ \t]*|\|\|[ \t]*|[;|(\x60][ \t]*|\$\([ \t]*)sudo[ \t]+(?=[\w./~$-])(?!(?:is|was|are|isn't|can|cannot|could|may|might|must|should|will|would|access|privileges?|rights|permissions?|password|or|and|if|when|only|not)\b)(?!(?:-[a-zA-Z]+[ \t]+)*${SYSTEM_PACKAGE_MANAGERS}\b)`,
      'gimu',
    ),
    reason: 'runs a command as root with sudo',
  },
  {
    id: 'shell/system-package-install',
    needles: ['sudo', 'apt ', 'apt-get', 'aptitude', 'dnf ', 'yum ', 'zypper', 'pacman', 'apk add', 'brew ', 'port install', 'snap install', 'pkg install', 'choco ', 'winget', 'scoop '],
    // With sudo, any use of the package manager; without, an install. The command starts a line, a span or a command of a list.
    pattern: new RegExp(
      String.raw`(?:^|(?<=[\s;&|(\x60]))(?:${SUDO}${SYSTEM_PACKAGE_MANAGERS}\b[^\n\x60;&|]*|${SYSTEM_PACKAGE_MANAGERS}[ \t]+(?:-\S+[ \t]+)*(?:install|add|-S[a-z]*)\b[^\n\x60;&|]*)`,
      'gimu',
    ),
    reason: 'installs system packages with the system package manager, which reaches the network and usually needs root',
    severity: 'notice',
  },
  {
    id: 'shell/tls-off',
    needles: ['curl'],
    pattern: /(?<!\w)curl\b(?:(?!(?<!\w)curl\b)[^\n|;])*?\s(?:-(?=[a-zA-Z]*k)[a-zA-Z]+|--insecure)\b/gu,
    reason: 'turns off TLS certificate verification (curl -k / --insecure)',
  },
  {
    id: 'shell/tls-off',
    needles: ['no-check-certificate', 'tls_reject_unauthorized', 'rejectunauthorized', 'ssl_no_verify', 'strict-ssl', 'insecureskipverify', 'verify=false', 'verify = false', 'unverified_context', 'skipcertificatecheck', 'pythonhttpsverify', 'trusted-host', 'cert_none'],
    pattern:
      /--no-check-certificate\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*["']?0\b|\brejectUnauthorized\s*[:=]\s*false\b|\bGIT_SSL_NO_VERIFY\s*=\s*["']?(?:1|true)\b|\bstrict-ssl(?:\s*=\s*|\s+)false\b|\bInsecureSkipVerify\s*:\s*true\b|\bverify\s*=\s*False\b|_create_unverified_context\b|-SkipCertificateCheck\b|\bPYTHONHTTPSVERIFY\s*=\s*["']?0\b|--trusted-host\b|\bverify_mode\s*=\s*ssl\.CERT_NONE\b/gu,
    reason: 'turns off TLS certificate verification',
  },
  {
    id: 'shell/tls-off',
    // git reads its keys and booleans in any case: http.sslVerify, http.sslverify "false", …
    needles: ['sslverify'],
    pattern: /(?<!\w)http\.sslverify["']?(?:\s*=\s*|\s+)["']?(?:false|no|off|0)\b/giu,
    reason: 'turns off TLS certificate verification (git http.sslVerify)',
  },
  {
    id: 'shell/base64-exec',
    needles: ['base64', 'atob', 'b64decode', 'frombase64string', 'encodedcommand', '-enc '],
    pattern: new RegExp(
      [
        String.raw`\bbase64${BASE64_OPTIONS}${DECODE}${BASE64_CHAR}*${pipeTo(BASE64_CHAR)}${INTERPRETERS}`,
        String.raw`(?:\b(?:eval|exec|source|(?:ba|z)?sh)|(?:^|\s)\.)\s+["']?(?:\$\(|<\()[^\n)]*\bbase64${BASE64_OPTIONS}${DECODE}`,
        String.raw`\b(?:ba|z)?sh\s+-c\s+["']?\$\([^\n)]*\bbase64${BASE64_OPTIONS}${DECODE}`,
        String.raw`\b(?:eval|exec)\s*\(\s*(?:base64\.b64decode|atob|Buffer\.from\([^)]*["']base64["']\)|codecs\.decode)`,
        String.raw`\bFromBase64String\b${lineCharUntil(String.raw`\bFromBase64String\b`)}*\b(?:iex|Invoke-Expression)\b|\b(?:iex|Invoke-Expression)\b${lineCharUntil(String.raw`\b(?:iex|Invoke-Expression)\b`)}*\bFromBase64String\b`,
        String.raw`\b(?:pwsh|powershell)(?:\.exe)?\b${lineCharUntil(String.raw`\b(?:pwsh|powershell)\b`)}*\s-(?:EncodedCommand|enc|ec|e)\s+[A-Za-z0-9+/=]{16,}`,
      ].join('|'),
      'giu',
    ),
    reason: 'runs base64-decoded text, which hides what it runs',
  },
];

/** Every needle of every rule, found in one pass over a file. */
export const SHELL_NEEDLES = new NeedleSet(RULES.flatMap((r) => r.needles));

/** Findings for risky shell commands in one file. Pure. */
export function findRiskyShell(scan: ScanText): Finding[] {
  const findings: Finding[] = [];
  const present = scan.view.needles(SHELL_NEEDLES);
  if (present.size === 0) return findings;
  const seen = new Set<string>();
  // A program's strings are messages ("install it with: brew install x"), not commands; only its risky calls count.
  const program = networkReading(scan.path, scan.text) === 'program';
  for (const rule of RULES) {
    if (!rule.needles.some((n) => present.has(n)) || (program && rule.severity === 'notice')) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(scan.text); m !== null; m = rule.pattern.exec(scan.text)) {
      if (m[0].length === 0) rule.pattern.lastIndex++;
      const start = m.index + leadingSpace(m[0]);
      const line = scan.lines.lineOf(start);
      const key = `${line}\u0000${rule.reason}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const column = scan.lines.columnOf(start);
      if (rule.severity === 'notice') {
        findings.push({ file: scan.path, line, column, rule: rule.id, severity: 'notice', message: `${quote(m[0])} ${rule.reason}` });
      } else if (isCounterExample(scan, line, { start: m.index, end: m.index + m[0].length })) {
        findings.push({ file: scan.path, line, column, rule: rule.id, severity: 'notice', message: `${quote(m[0])} ${rule.reason}, shown as an example of what not to do` });
      } else {
        findings.push({ file: scan.path, line, column, rule: rule.id, message: `${quote(m[0])} ${rule.reason} (expected no risky shell commands)` });
      }
    }
  }
  return findings;
}

function leadingSpace(s: string): number {
  return s.length - s.trimStart().length;
}

/** The matched command, trimmed and shortened for a one-line message. */
export function quote(match: string): string {
  const oneLine = match.replace(/\s+/gu, ' ').trim().replace(/^[;&|(`$]+\s*/u, '');
  return `"${oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine}"`;
}
