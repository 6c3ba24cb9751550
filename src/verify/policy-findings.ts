/**
 * A maintainer's policy as findings of the checks (issue 55, point 2: "`verify --policy` lets a
 * catalogue refuse submissions and builds that break a maintainer's policy"): the one judge
 * (`policy/evaluate.ts`) over the loadout's capability list (`CheckContext.capabilities`), each
 * violation a blocking finding of rule `policy/<rule>` on the line that brings it, told by the
 * check whose subject it is: `listing` the loadout's id and agents (`loadouts.allow`,
 * `loadouts.deny`, `agents`), `mcp` its servers (`mcp.*`, `deny.unpinned-packages`), `safety`
 * the rest of `deny`. The rules about where an install comes from and when (`catalogues`,
 * `signing`, `min_release_age`) judge installs, not a catalogue's loadouts. A check the policy
 * finds against fails; `verify`, `build` and the submissions API then refuse the loadout as for
 * any failing check, and SARIF and the pull request name the rule.
 */
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import type { CheckId } from '../catalogue/vocabulary.js';
import { listSupportedAgents } from '../layout/compatibility.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { Policy, PolicyRule, PolicyViolation } from '../policy/policy.js';
import { judge, plural, type CheckContext, type CheckOutcome, type Finding } from './check.js';
import { frontMatterLine } from './consent-findings.js';
import { mcpServerEntries } from './mcp/servers.js';

/** The check that tells the findings of each rule a catalogue's loadout is judged by (the others judge installs only). */
export const POLICY_RULE_CHECKS: Partial<Record<PolicyRule, CheckId>> = {
  'loadouts.allow': 'listing',
  'loadouts.deny': 'listing',
  agents: 'listing',
  'mcp.packages.allow': 'mcp',
  'mcp.hosts.allow': 'mcp',
  'mcp.require_pinned': 'mcp',
  'deny.unpinned-packages': 'mcp',
  'deny.hooks': 'safety',
  'deny.scripts': 'safety',
  'deny.permission-bypass': 'safety',
  'deny.wildcard-grants': 'safety',
};

/** The violations of `policy` by the loadout of `context` (none while its manifest is not valid). */
export function policyViolations(context: CheckContext, policy: Policy): PolicyViolation[] {
  const { manifest } = context;
  const capabilities = context.capabilities();
  if (manifest === undefined || capabilities === undefined) return [];
  return evaluatePolicy(policy, { loadout: manifest.id, agent: null, capabilities, supports: listSupportedAgents(manifest) });
}

/** The line of what `violation` is about, in its file. */
function lineOf(context: CheckContext, violation: PolicyViolation): number | undefined {
  if (violation.file === undefined) return context.manifestYaml?.lineOf(violation.rule === 'agents' ? '/compatibility' : '/id');
  const file = violation.file;
  if (violation.server !== undefined) return mcpServerEntries(context).find((s) => s.file === file && s.name === violation.server)?.line;
  const key = violation.capability?.split(' ')[0];
  if (key === 'hook') return frontMatterLine(context.text(file) ?? '', 'hooks');
  if (key === 'allowed-tools' || key === 'permissionMode') return frontMatterLine(context.text(file) ?? '', key);
  return 1;
}

/**
 * `outcome` of the check `check` with the policy's findings of that check added, judged again:
 * a check that passed fails when one is added, and its summary counts them. A check that did not
 * run (`skip`) is left as it is. Pure apart from `context`.
 */
export function withPolicyFindings(check: CheckId, outcome: CheckOutcome, context: CheckContext, violations: readonly PolicyViolation[]): CheckOutcome {
  if (outcome.status === 'skip') return outcome;
  const findings = violations
    .filter((v) => POLICY_RULE_CHECKS[v.rule] === check)
    .map((v): Finding => ({ file: v.file ?? MANIFEST_FILE, line: lineOf(context, v) ?? 1, rule: `policy/${v.rule}`, message: v.message, hint: 'The catalogue\'s policy refuses it (verify --policy, docs/policy.md): remove what it names, or ask the maintainers.' }));
  if (findings.length === 0) return outcome;
  const all = [...outcome.findings, ...findings];
  const refused = `${plural(findings.length, 'policy violation')} (${[...new Set(findings.map((f) => f.rule))].join(', ')})`;
  if (outcome.status === 'fail') return { ...outcome, summary: `${outcome.summary}; ${refused}`, findings: all };
  return judge(all, outcome.summary, () => `${outcome.summary}; ${refused}`);
}
