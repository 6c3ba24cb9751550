/**
 * The spec's `verification` object of a published record ("Verification" table).
 */
import type { CheckResult } from './run.js';

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
