/**
 * The status document of a submission, `GET /api/v1/submissions/<id>` (DESIGN.md section 5):
 * `{id, loadout_id, status, created_at, updated_at, verification, capabilities, pr_url}`
 * (`capabilities`: issue 54, point 4). The submissions
 * API writes it (`submissions/status.ts`, from an allow-list of fields) and the status page
 * renders it (`pages/status.ts`).
 */

/** The public status of a submission. Times are ISO 8601 UTC. */
export interface SubmissionStatusDocument {
  id: string;
  loadout_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  verification: Record<string, unknown>;
  /** What the submitted loadout can run (`capabilities.ts`), as its checks derived it; null when they made none or for a submission stored before capability lists. */
  capabilities: Record<string, unknown> | null;
  pr_url: string | null;
}
