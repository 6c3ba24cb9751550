/**
 * The submission store (STYLE.md Layout 4: a swappable back end behind a small interface):
 * submissions, their files and their events, written in one transaction each, through
 * Kysely, so the same code runs on SQLite and PostgreSQL.
 */
import type { Transaction } from 'kysely';
import type { Db, SubmissionsTable, Tables } from './tables.js';

/** A file of a submission: a normalised relative path and its UTF-8 text. */
export interface SubmissionFile {
  path: string;
  content: string;
}

/** What is stored for a submission. Times are ISO 8601 UTC strings. */
export interface StoredSubmission {
  id: string;
  loadoutId: string;
  status: string;
  submitter: string;
  contactEmail: string | null;
  clientAddress: string;
  /** The submission fields, without credentials and without the contact e-mail. */
  request: Record<string, unknown>;
  manifest: string;
  verification: Record<string, unknown>;
  prUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A new submission and its files. `updatedAt` starts equal to `createdAt`. */
export type NewSubmission = Omit<StoredSubmission, 'prUrl' | 'updatedAt'> & { files: SubmissionFile[] };

/** A status change: from (null for arrival) → to, by `actor`, at `at`. */
export interface SubmissionEvent {
  seq: number;
  at: string;
  actor: string;
  from: string | null;
  to: string;
  note: string | null;
}

/** A form-token nonce to record in the same transaction as the submission. */
export interface NonceUse {
  nonce: string;
  /** ISO time after which the row may be deleted (the token's expiry). */
  expiresAt: string;
}

/** The new content of a submission that its submitter sends again. */
export type SubmissionReplacement = Pick<StoredSubmission, 'status' | 'contactEmail' | 'clientAddress' | 'request' | 'manifest' | 'verification'> & { files: SubmissionFile[] };

/** Reading and writing submissions. Every write is one transaction: all of it or nothing. */
export interface SubmissionStore {
  /**
   * Stores a submission, its files and its arrival event; with `nonce`, records the form
   * token's nonce first. Resolves `nonce_used` (and stores nothing) when the nonce is already
   * recorded, so two concurrent uses of one form token let exactly one through.
   */
  create(submission: NewSubmission, actor: string, nonce?: NonceUse): Promise<'stored' | 'nonce_used'>;
  /** Replaces the content and files of submission `id` and records the event (a resubmission). */
  replace(id: string, replacement: SubmissionReplacement, actor: string, at: string): Promise<void>;
  /**
   * Moves submission `id` from one of `from` to `to` and records the event.
   * @returns the updated submission, or undefined when it is not in one of `from`.
   */
  transition(id: string, change: { from: readonly string[]; to: string; actor: string; at: string; note?: string; prUrl?: string }): Promise<StoredSubmission | undefined>;
  get(id: string): Promise<StoredSubmission | undefined>;
  files(id: string): Promise<SubmissionFile[]>;
  events(id: string): Promise<SubmissionEvent[]>;
  /** Submissions for `loadoutId` whose status is one of `statuses`, oldest first. */
  findByLoadoutId(loadoutId: string, statuses: readonly string[]): Promise<StoredSubmission[]>;
  /** All submissions (or those in `status`), newest first. */
  list(status?: string): Promise<StoredSubmission[]>;
}

/** The Kysely implementation of {@link SubmissionStore}. */
export function createSubmissionStore(db: Db): SubmissionStore {
  return {
    async create(submission, actor, nonce) {
      return db.transaction().execute(async (trx) => {
        if (nonce !== undefined) {
          const inserted = await trx
            .insertInto('form_token_nonces')
            .values({ nonce: nonce.nonce, used_at: submission.createdAt, expires_at: nonce.expiresAt })
            .onConflict((oc) => oc.column('nonce').doNothing())
            .returning('nonce')
            .executeTakeFirst();
          if (inserted === undefined) return 'nonce_used' as const;
        }
        await trx.insertInto('submissions').values(toRow(submission)).execute();
        await insertFiles(trx, submission.id, submission.files);
        await insertEvent(trx, submission.id, 1, { at: submission.createdAt, actor, from: null, to: submission.status, note: null });
        return 'stored' as const;
      });
    },

    async replace(id, replacement, actor, at) {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        await trx
          .updateTable('submissions')
          .set({
            status: replacement.status,
            contact_email: replacement.contactEmail,
            client_address: replacement.clientAddress,
            request: JSON.stringify(replacement.request),
            manifest: replacement.manifest,
            verification: JSON.stringify(replacement.verification),
            updated_at: at,
          })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('submission_files').where('submission_id', '=', id).execute();
        await insertFiles(trx, id, replacement.files);
        await insertEvent(trx, id, await nextSeq(trx, id), { at, actor, from: before.status, to: replacement.status, note: 'resubmitted' });
      });
    },

    async transition(id, change) {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirst();
        if (before === undefined || !change.from.includes(before.status)) return undefined;
        // The status condition makes two concurrent transitions from the same state let one through.
        const updated = await trx
          .updateTable('submissions')
          .set({ status: change.to, updated_at: change.at, ...(change.prUrl === undefined ? {} : { pr_url: change.prUrl }) })
          .where('id', '=', id)
          .where('status', '=', before.status)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return undefined;
        await insertEvent(trx, id, await nextSeq(trx, id), { at: change.at, actor: change.actor, from: before.status, to: change.to, note: change.note ?? null });
        const row = await trx.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return fromRow(row);
      });
    },

    async get(id) {
      const row = await db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : fromRow(row);
    },

    async files(id) {
      return db.selectFrom('submission_files').select(['path', 'content']).where('submission_id', '=', id).orderBy('path').execute();
    },

    async events(id) {
      const rows = await db.selectFrom('submission_events').selectAll().where('submission_id', '=', id).orderBy('seq').execute();
      return rows.map((r) => ({ seq: Number(r.seq), at: r.at, actor: r.actor, from: r.from_status, to: r.to_status, note: r.note }));
    },

    async findByLoadoutId(loadoutId, statuses) {
      if (statuses.length === 0) return [];
      const rows = await db.selectFrom('submissions').selectAll().where('loadout_id', '=', loadoutId).where('status', 'in', [...statuses]).orderBy('created_at').execute();
      return rows.map(fromRow);
    },

    async list(status) {
      let query = db.selectFrom('submissions').selectAll().orderBy('created_at', 'desc').orderBy('id');
      if (status !== undefined) query = query.where('status', '=', status);
      return (await query.execute()).map(fromRow);
    },
  };
}

async function insertFiles(trx: Transaction<Tables>, id: string, files: readonly SubmissionFile[]): Promise<void> {
  if (files.length === 0) return;
  await trx.insertInto('submission_files').values(files.map((f) => ({ submission_id: id, path: f.path, content: f.content }))).execute();
}

async function insertEvent(trx: Transaction<Tables>, id: string, seq: number, event: Omit<SubmissionEvent, 'seq'>): Promise<void> {
  await trx
    .insertInto('submission_events')
    .values({ submission_id: id, seq, at: event.at, actor: event.actor, from_status: event.from, to_status: event.to, note: event.note })
    .execute();
}

async function nextSeq(trx: Transaction<Tables>, id: string): Promise<number> {
  const row = await trx.selectFrom('submission_events').select((eb) => eb.fn.max('seq').as('seq')).where('submission_id', '=', id).executeTakeFirst();
  return Number(row?.seq ?? 0) + 1;
}

function toRow(s: NewSubmission): SubmissionsTable {
  return {
    id: s.id,
    loadout_id: s.loadoutId,
    status: s.status,
    submitter: s.submitter,
    contact_email: s.contactEmail,
    client_address: s.clientAddress,
    request: JSON.stringify(s.request),
    manifest: s.manifest,
    verification: JSON.stringify(s.verification),
    pr_url: null,
    created_at: s.createdAt,
    updated_at: s.createdAt,
  };
}

function fromRow(r: SubmissionsTable): StoredSubmission {
  return {
    id: r.id,
    loadoutId: r.loadout_id,
    status: r.status,
    submitter: r.submitter,
    contactEmail: r.contact_email,
    clientAddress: r.client_address,
    request: JSON.parse(r.request) as Record<string, unknown>,
    manifest: r.manifest,
    verification: JSON.parse(r.verification) as Record<string, unknown>,
    prUrl: r.pr_url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
