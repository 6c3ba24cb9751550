/**
 * The spec's `verification` object of a published record ("Verification" table).
 */
import { NOTICE_PREFIX, type CheckResult } from './run.js';

/** Spec "Verification". `level` is `verified-install`; `agent_tests` is `not-run`. */
export interface Verification {
  level: 'verified-install';
  /** `verified` when no check fails, else `failed` (DESIGN.md section 4). */
  status: 'verified' | 'failed';
  label: string;
  verified: boolean;
  /** ISO 8601 UTC timestamp, e.g. `2026-11-22T10:00:00.000Z`. */
  checked_at: string;
  /** The git commit the checks ran on (`<sha>` or `<sha>+dirty`), or `working-tree` outside git. */
  commit: string;
  /** True when the published files are exactly the files the checks ran on. */
  content_current: boolean;
  agent_tests: 'not-run';
  counts: { pass: number; fail: number; skip: number; not_applicable: number };
  meaning: string;
  checks: CheckResult[];
}

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
