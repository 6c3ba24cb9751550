/**
 * The status document of `GET /api/v1/submissions/<id>` (DESIGN.md section 5):
 * `{id, loadout_id, status, created_at, updated_at, verification, capabilities, pr_url}`. It is built from
 * an allow-list of fields, so the contact e-mail and the client address never leave.
 */
import type { StoredSubmission } from '../storage/submission-store.js';
import type { SubmissionStatusDocument } from '../tree-format/submission-status.js';

/** Builds the status document of `stored`. Pure. */
export function statusDocument(stored: StoredSubmission): SubmissionStatusDocument {
  return {
    id: stored.id,
    loadout_id: stored.loadoutId,
    status: stored.status,
    created_at: stored.createdAt,
    updated_at: stored.updatedAt,
    verification: stored.verification,
    capabilities: stored.capabilities,
    pr_url: stored.prUrl,
  };
}
