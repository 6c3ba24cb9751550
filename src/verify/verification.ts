/**
 * The spec's `verification` object of a published record ("Verification" table), assembled
 * from check results; its shape is the published format's (`tree-format/verification.ts`).
 */
import type { CheckResult, Verification } from '../tree-format/verification.js';
import { NOTICE_PREFIX } from './run.js';

/** What the checks ran on. */
export interface VerificationContext {
  checkedAt: Date;
  commit: string;
  contentCurrent: boolean;
}

/** The `meaning` text: what "verified-install" promises and what it does not. */
export const VERIFICATION_MEANING =
  'Verified install: automated checks on the files only (schema and listing, parsing, adapters, install paths for every agent, MCP configuration, safety scan, references, size, licence, starter build). No AI agent was run.';

/** Assembles the `verification` object from check results. Pure. */
export function summariseVerification(checks: CheckResult[], context: VerificationContext): Verification {
  const counts = { pass: 0, fail: 0, skip: 0, not_applicable: 0 };
  for (const check of checks) {
    if (check.status === 'n/a') counts.not_applicable++;
    else counts[check.status]++;
  }
  const verified = counts.fail === 0;
  const ran = counts.pass + counts.fail;
  return {
    level: 'verified-install',
    status: verified ? 'verified' : 'failed',
    label: verified ? `Verified install: ${counts.pass} of ${ran} automated checks pass` : `Checks failed: ${counts.fail} of ${ran} automated checks fail`,
    verified,
    checked_at: context.checkedAt.toISOString(),
    commit: context.commit,
    content_current: context.contentCurrent,
    agent_tests: 'not-run',
    counts,
    meaning: VERIFICATION_MEANING,
    checks,
  };
}

/** The notices of a check: its `details` lines prefixed `notice: `, without the prefix. */
export function noticesOf(check: Pick<CheckResult, 'details'>): string[] {
  return check.details.filter((d) => d.startsWith(NOTICE_PREFIX)).map((d) => d.slice(NOTICE_PREFIX.length));
}

/**
 * The record's `security.verdict` (spec "Security": `clean` or `flagged`) from the `safety`
 * check (docs/authoring.md "What the checks look for"): `flagged` when it fails or passes with
 * notices, `clean` when it passes with none; undefined when it did not run (`skip`, `n/a`, or
 * not among `checks`).
 */
export function securityVerdict(checks: readonly CheckResult[]): 'clean' | 'flagged' | undefined {
  const safety = checks.find((c) => c.id === 'safety');
  if (safety === undefined || (safety.status !== 'pass' && safety.status !== 'fail')) return undefined;
  return safety.status === 'fail' || noticesOf(safety).length > 0 ? 'flagged' : 'clean';
}
