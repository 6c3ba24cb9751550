/**
 * Which submissions a bot command works on: the ones named, or every one in the command's
 * state, oldest first (then by id), so that runs are repeatable.
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { StoredSubmission, SubmissionStore } from '../storage/submission-store.js';

/**
 * The submissions `ids` names, in that order, or (when `ids` is empty) every one whose status
 * is `status`, oldest first.
 * @throws LoadoutError `not_found` for an unknown id, before any work is done.
 */
export async function selectSubmissions(store: SubmissionStore, ids: readonly string[], status: string): Promise<StoredSubmission[]> {
  if (ids.length === 0) return (await store.list(status)).sort(oldestFirst);
  const found: StoredSubmission[] = [];
  for (const id of ids) {
    const submission = await store.get(id);
    if (submission === undefined) throw new LoadoutError('not_found', `no submission ${id}`, { hint: `Run \`loadout submissions list --status ${status}\`.` });
    found.push(submission);
  }
  return found;
}

/** Oldest first, then by id: the order in which submissions are handled. */
function oldestFirst(a: StoredSubmission, b: StoredSubmission): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
