/**
 * The `verification` object of a published record and its `checks` entries (spec
 * "Verification" table; DESIGN.md section 4): what the verifier writes (`verify/verification.ts`
 * assembles it) and what the build, pages, submissions and the bot read.
 */
import type { CheckId, CheckStatus } from '../catalogue/vocabulary.js';

/** A check's entry in the published record (spec "Verification": `checks`). */
export interface CheckResult {
  id: CheckId;
  name: string;
  status: CheckStatus;
  summary: string;
  /**
   * `file:line: message` lines, paths relative to the catalogue root: the blocking findings,
   * then the notices as `notice: file:line: message` (docs/authoring.md), then notes.
   */
  details: string[];
}

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
