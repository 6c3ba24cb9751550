/**
 * What each rule of the checks finds, in one line: the short description that code scanning shows
 * beside a finding (`loadout verify --format sarif`, sarif.ts). A rule is a finding's `rule`
 * (`Finding.rule`): the `safety` check's own rules, as docs/authoring.md "What the checks look
 * for" tables them, the consent rules, a maintainer's policy's rules (`policy/<rule>`,
 * policy-findings.ts) and `checks/timeout` of the time budget (budget.ts). A check without finer
 * rules reports under its own id, described by the check's name.
 * `test/verify/rules.test.ts` fails when a rule id written in `src/verify/` has no line here.
 */
import type { Severity } from './check.js';

/** One rule: what it finds, and the weight its findings usually have (a blocking rule may give notices, docs/authoring.md). */
export interface RuleDescription {
  /** One sentence, without a final stop. */
  description: string;
  severity: Severity;
}

/** Every finer rule by its id (docs/authoring.md, "What the checks look for"). */
export const RULES: Readonly<Record<string, RuleDescription>> = {
  credentials: { description: 'A secret (token, private key, password in a URL or connection string) in a file or in loadout.yaml', severity: 'blocking' },
  'hidden-text/invisible-characters': { description: 'Bidirectional controls, zero-width or tag characters that hide or reorder text', severity: 'blocking' },
  'hidden-text/comment-instructions': { description: 'An HTML comment that gives the agent instructions a reader of the rendered file never sees', severity: 'blocking' },
  'shell/pipe-to-interpreter': { description: 'A download piped into an interpreter and run unread (curl … | sh)', severity: 'blocking' },
  'shell/run-downloaded-script': { description: 'A downloaded script run unread (bash <(curl …))', severity: 'blocking' },
  'shell/invoke-expression-download': { description: 'A download run by Invoke-Expression unread (iex (iwr …))', severity: 'blocking' },
  'shell/tls-off': { description: 'TLS certificate verification turned off (curl -k, verify=False, NODE_TLS_REJECT_UNAUTHORIZED=0 …)', severity: 'blocking' },
  'shell/rm-root-or-home': { description: 'rm -rf of /, ~ or $HOME', severity: 'blocking' },
  'shell/chmod-777': { description: 'Files made writable by everyone (chmod 777)', severity: 'blocking' },
  'shell/base64-exec': { description: 'Base64-decoded text run as a program, which hides what it runs', severity: 'blocking' },
  'shell/sudo': { description: 'A command run with sudo, other than the system package manager', severity: 'blocking' },
  'shell/system-package-install': { description: 'The system package manager installs a tool (apt, dnf, brew, winget …)', severity: 'notice' },
  'shell/admin-rights': { description: 'Prose that says something needs sudo, root or administrator rights', severity: 'notice' },
  'network/undeclared': { description: 'Network use while loadout.yaml says security.network: false', severity: 'blocking' },
  'scripts/unlisted': { description: 'A script that security.scripts of loadout.yaml does not list', severity: 'blocking' },
  'scripts/unknown-listed': { description: 'security.scripts lists a path that is no file of the loadout', severity: 'blocking' },
  'consent/hook': { description: 'A hook the agent would run on its events, which needs the user\'s consent', severity: 'blocking' },
  'consent/permission-mode': { description: 'A permission mode that lets a subagent act without asking, which needs the user\'s consent', severity: 'blocking' },
  'consent/wildcard-grant': { description: 'A tool grant without limits (Bash, *), which needs the user\'s consent', severity: 'blocking' },
  'consent/auto-approval': { description: 'An MCP server whose tools run without asking, which needs the user\'s consent', severity: 'blocking' },
  'checks/timeout': { description: "The checks of the loadout ran out of their time budget (LOADOUT_CHECKS_BUDGET_MS)", severity: 'blocking' },
  'policy/loadouts.allow': { description: 'A loadout id the policy\'s loadouts.allow does not match (verify --policy, docs/policy.md)', severity: 'blocking' },
  'policy/loadouts.deny': { description: 'A loadout id the policy\'s loadouts.deny matches', severity: 'blocking' },
  'policy/agents': { description: 'A loadout that supports none of the agents the policy allows', severity: 'blocking' },
  'policy/mcp.packages.allow': { description: 'An MCP server that starts a package (npm, PyPI, OCI) or local program the policy does not allow, or at a version outside its range', severity: 'blocking' },
  'policy/mcp.hosts.allow': { description: 'A remote MCP server at a host the policy does not allow', severity: 'blocking' },
  'policy/mcp.require_pinned': { description: 'An MCP server whose package names no single release, where the policy requires pinned packages', severity: 'blocking' },
  'policy/deny.hooks': { description: 'A hook, which the policy denies', severity: 'blocking' },
  'policy/deny.scripts': { description: 'A script, which the policy denies', severity: 'blocking' },
  'policy/deny.permission-bypass': { description: 'A permission mode or auto-approval that bypasses the user, which the policy denies', severity: 'blocking' },
  'policy/deny.wildcard-grants': { description: 'A tool grant without limits (Bash, *), which the policy denies', severity: 'blocking' },
  'policy/deny.unpinned-packages': { description: 'An MCP server whose package names no single release, which the policy denies', severity: 'blocking' },
};

/**
 * The description of `rule` found by the check `checkName` names: the rule's own line, else
 * (a check without finer rules, whose findings are all blocking) the check's name.
 */
export function describeRule(rule: string, checkName: string): RuleDescription {
  return RULES[rule] ?? { description: checkName, severity: 'blocking' };
}
