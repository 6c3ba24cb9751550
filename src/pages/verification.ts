/**
 * The verification table, shared by the loadout page and the submission status page: one row
 * per check with its status, summary and details. A details line that starts with `notice:`
 * is a notice (something worth knowing that does not fail the check) and is shown apart,
 * marked as such; every other line is shown as it is. Everything is escaped.
 */
import { escapeHtml } from './html.js';

/** The parts of a check result the table reads (`verify/run.ts` CheckResult, or the JSON of a status document). */
export interface CheckRow {
  id: string;
  name?: string;
  status: string;
  summary: string;
  details: string[];
}

/** The parts of a `verification` object the table reads. */
export interface VerificationView {
  label: string;
  verified: boolean;
  meaning: string;
  checked_at: string;
  commit: string;
  counts: { pass: number; fail: number; skip: number; not_applicable: number };
  checks: CheckRow[];
}

const NOTICE = /^notice:\s*/iu;

/** Splits a check's details into notices (prefix removed) and the other lines. Pure. */
export function splitNotices(details: readonly string[]): { notices: string[]; lines: string[] } {
  const notices: string[] = [];
  const lines: string[] = [];
  for (const line of details) (NOTICE.test(line) ? notices : lines).push(line.replace(NOTICE, ''));
  return { notices, lines };
}

/**
 * Reads a `verification` object of unknown shape (a status document's JSON) into a view, or
 * undefined when it lacks the fields the table needs. Pure.
 */
export function readVerification(value: unknown): VerificationView | undefined {
  const v = value as Partial<Record<keyof VerificationView, unknown>> | null;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.checks)) return undefined;
  const counts = (v.counts ?? {}) as Record<string, unknown>;
  const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  const str = (x: unknown): string => (typeof x === 'string' ? x : '');
  const checks: CheckRow[] = v.checks.map((c: unknown) => {
    const r = (c ?? {}) as Record<string, unknown>;
    return { id: str(r['id']), name: str(r['name']), status: str(r['status']), summary: str(r['summary']), details: Array.isArray(r['details']) ? r['details'].map(String) : [] };
  });
  return {
    label: str(v.label),
    verified: v.verified === true,
    meaning: str(v.meaning),
    checked_at: str(v.checked_at),
    commit: str(v.commit),
    counts: { pass: num(counts['pass']), fail: num(counts['fail']), skip: num(counts['skip']), not_applicable: num(counts['not_applicable']) },
    checks,
  };
}

const STATUS_CLASS: Record<string, string> = { pass: 'check-pass', fail: 'check-fail' };

/** The badge of a verification: `Verified` or `Checks failed`. */
export function verificationBadge(verified: boolean): string {
  return verified ? '<span class="badge ok">✓ Verified</span>' : '<span class="badge bad">✗ Checks failed</span>';
}

/** The verification section's content (no heading): label, meaning, and the table. Pure. */
export function renderVerificationTable(v: VerificationView): string {
  const rows = v.checks
    .map((c) => {
      const { notices, lines } = splitNotices(c.details);
      const noticeList = notices.length === 0 ? '' : `<ul class="notices">${notices.map((n) => `<li class="notice"><span class="badge note">Notice</span> ${escapeHtml(n)}</li>`).join('')}</ul>`;
      const detailList = lines.length === 0 ? '' : `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
      return `<tr><th scope="row"><code>${escapeHtml(c.id)}</code>${c.name === undefined || c.name === '' ? '' : `<br><span class="small muted">${escapeHtml(c.name)}</span>`}</th><td data-label="Status" class="${STATUS_CLASS[c.status] ?? ''}">${escapeHtml(c.status)}</td><td data-label="Summary">${escapeHtml(c.summary)}${noticeList}${detailList}</td></tr>`;
    })
    .join('\n');
  const { pass, fail, skip, not_applicable: na } = v.counts;
  return `<p>${verificationBadge(v.verified)} ${escapeHtml(v.label)}</p>
<p class="small muted">${escapeHtml(v.meaning)}</p>
<p class="small muted">${pass} pass · ${fail} fail · ${skip} skipped · ${na} not applicable · checked ${escapeHtml(v.checked_at)} on <code>${escapeHtml(v.commit)}</code></p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Checks"><table class="stack">
<thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Summary and details</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}
