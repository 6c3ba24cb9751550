/**
 * The submission store (STYLE.md Layout 4: a swappable back end behind a small interface):
 * submissions, their files and their events, written in one transaction each, through
 * Kysely, so the same code runs on SQLite and PostgreSQL.
 *
 * At most one submission per loadout id is open ({@link OPEN_STATUSES}): the database holds
 * that rule (the unique partial index of migration 0002), and {@link SubmissionStore.submit}
 * decides create, replace or refuse in one transaction against it, so that concurrent requests
 * get the answers they would get one after another on either back end
 * (DESIGN.md section 5: 409 id taken; section 6: one set of queries for both).
 */
import { sql, type Transaction } from 'kysely';
import type { Db, SubmissionsTable, Tables } from './tables.js';

/**
 * States in which a submission holds its loadout id (DESIGN.md section 5): one submission per
 * loadout id at most, enforced by the unique partial index `submissions_open_loadout_id`, whose
 * predicate names the same states (migration 0002; the conflict target below must match it).
 */
export const OPEN_STATUSES = ['pending-review', 'checks-failed', 'accepted', 'pr-opened'] as const;

/** Open states in which the same submitter's new submission replaces the stored one. */
export const REPLACEABLE_STATUSES = ['pending-review', 'checks-failed'] as const;

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
  /** Its capability list as the checks derived it (`tree-format/capabilities.ts`); null when they made none, or for a submission stored before capability lists. */
  capabilities: Record<string, unknown> | null;
  prUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A new submission and its files. `updatedAt` starts equal to `createdAt`; no `capabilities` stores null. */
export type NewSubmission = Omit<StoredSubmission, 'prUrl' | 'updatedAt' | 'capabilities'> & { capabilities?: Record<string, unknown> | null; files: SubmissionFile[] };

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

/** The new content of a submission that its submitter sends again; no `capabilities` stores null. */
export type SubmissionReplacement = Pick<StoredSubmission, 'status' | 'contactEmail' | 'clientAddress' | 'request' | 'manifest' | 'verification'> & { capabilities?: Record<string, unknown> | null; files: SubmissionFile[] };

/** Options of {@link SubmissionStore.submit}. */
export interface SubmitOptions {
  /** The events' actor: `key:<prefix>` or `form`. */
  actor: string;
  /** The form token's nonce, recorded in the same transaction (browser path). */
  nonce?: NonceUse;
  /**
   * True when an open submission for the loadout id by the same `submitter`, in one of
   * {@link REPLACEABLE_STATUSES}, is replaced (API keys); false when any open one refuses
   * (the browser form, whose submitters have no lasting identity).
   */
  replaceOwn: boolean;
}

/**
 * What {@link SubmissionStore.submit} did: stored a new submission (`created`, with the new
 * id), replaced the submitter's open one (`replaced`, with its id), stored nothing because
 * another open submission holds the loadout id (`taken`, with that holder as it was then), or
 * stored nothing because the form token's nonce was used already (`nonce_used`).
 */
export type SubmitResult = { kind: 'created'; id: string } | { kind: 'replaced'; id: string } | { kind: 'taken'; holder: StoredSubmission } | { kind: 'nonce_used' };

/** Reading and writing submissions. Every write is one transaction: all of it or nothing. */
export interface SubmissionStore {
  /**
   * Stores a submission, its files and its arrival event; with `nonce`, records the form
   * token's nonce first. Resolves `nonce_used` (and stores nothing) when the nonce is already
   * recorded, so two concurrent uses of one form token let exactly one through. Does not apply
   * the loadout-id rule: a second open submission for a loadout id fails with the database's
   * unique-violation error. Requests from clients go through {@link submit}.
   */
  create(submission: NewSubmission, actor: string, nonce?: NonceUse): Promise<'stored' | 'nonce_used'>;
  /**
   * Stores a submission from a client, in one transaction: records `options.nonce` (or resolves
   * `nonce_used`), then inserts the submission, its files and its arrival event, unless an open
   * submission holds the loadout id; then it replaces that one when `options.replaceOwn` and the
   * rules allow (same submitter, replaceable state: `submission.id` is then unused), or resolves
   * `taken` and writes nothing, not even the nonce. Safe under concurrency on both databases: the
   * insert waits for a concurrent one of the same loadout id and yields to it
   * (`ON CONFLICT … DO NOTHING` on the unique partial index), and a replacement locks the row.
   * @throws the driver's error when the database fails (nothing is stored then).
   */
  submit(submission: NewSubmission, options: SubmitOptions): Promise<SubmitResult>;
  /** Replaces the content and files of submission `id` and records the event (a resubmission). */
  replace(id: string, replacement: SubmissionReplacement, actor: string, at: string): Promise<void>;
  /**
   * Moves submission `id` from one of `from` to `to` and records the event.
   * @returns the updated submission, or undefined when it is not in one of `from`.
   */
  transition(id: string, change: { from: readonly string[]; to: string; actor: string; at: string; note?: string; prUrl?: string }): Promise<StoredSubmission | undefined>;
  /**
   * Records an event that changes no state (from and to are the submission's current status),
   * such as why the bot skipped it, unless the latest event already says the same (same actor
   * and note), so a scheduled run does not repeat it.
   * @returns true when recorded, false when it repeats the latest event or `id` does not exist.
   */
  note(id: string, event: { actor: string; at: string; note: string }): Promise<boolean>;
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
        if (nonce !== undefined && !(await recordNonce(trx, nonce, submission.createdAt))) return 'nonce_used' as const;
        await trx.insertInto('submissions').values(toRow(submission)).execute();
        await insertFiles(trx, submission.id, submission.files);
        await insertEvent(trx, submission.id, 1, { at: submission.createdAt, actor, from: null, to: submission.status, note: null });
        return 'stored' as const;
      });
    },

    async submit(submission, options) {
      try {
        return await db.transaction().execute(async (trx): Promise<SubmitResult> => {
          if (options.nonce !== undefined && !(await recordNonce(trx, options.nonce, submission.createdAt))) return { kind: 'nonce_used' };
          // Each pass either ends or saw the holder leave its open state (or stop being
          // replaceable) between two statements: a maintainer's move. A few passes settle it.
          for (let pass = 0; pass < SUBMIT_PASSES; pass++) {
            const inserted = await trx
              .insertInto('submissions')
              .values(toRow(submission))
              .onConflict((oc) => oc.column('loadout_id').where(isOpen).doNothing())
              .returning('id')
              .executeTakeFirst();
            if (inserted !== undefined) {
              await insertFiles(trx, submission.id, submission.files);
              await insertEvent(trx, submission.id, 1, { at: submission.createdAt, actor: options.actor, from: null, to: submission.status, note: null });
              return { kind: 'created', id: submission.id };
            }
            const holder = await trx.selectFrom('submissions').selectAll().where('loadout_id', '=', submission.loadoutId).where(isOpen).executeTakeFirst();
            if (holder === undefined) continue;
            const mayReplace = options.replaceOwn && holder.submitter === submission.submitter && (REPLACEABLE_STATUSES as readonly string[]).includes(holder.status);
            // Refusing rolls the transaction back, so the nonce stays unspent as it would if the
            // request had come after the holder.
            if (!mayReplace) throw new Taken(fromRow(holder));
            if (await replaceIfStill(trx, holder.id, submission, options.actor, submission.createdAt)) return { kind: 'replaced', id: holder.id };
          }
          throw new Error(`the open submission for loadout id "${submission.loadoutId}" kept changing during ${SUBMIT_PASSES} attempts to store a submission (a bug, or a maintainer moving it at that very moment)`);
        });
      } catch (error) {
        if (error instanceof Taken) return { kind: 'taken', holder: error.holder };
        throw error;
      }
    },

    async replace(id, replacement, actor, at) {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        await writeReplacement(trx, id, before.status, replacement, actor, at);
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

    async note(id, event) {
      return db.transaction().execute(async (trx) => {
        // Touching the row first locks it (PostgreSQL), so the sequence number read next is current.
        const touched = await trx.updateTable('submissions').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).executeTakeFirst();
        if (Number(touched.numUpdatedRows) !== 1) return false;
        const row = await trx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
        const latest = await trx.selectFrom('submission_events').selectAll().where('submission_id', '=', id).orderBy('seq', 'desc').limit(1).executeTakeFirst();
        if (latest !== undefined && latest.actor === event.actor && latest.note === event.note && latest.to_status === row.status) return false;
        await insertEvent(trx, id, Number(latest?.seq ?? 0) + 1, { at: event.at, actor: event.actor, from: row.status, to: row.status, note: event.note });
        return true;
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

/** Passes of {@link SubmissionStore.submit} before it gives up (see the comment there). */
const SUBMIT_PASSES = 5;

/** `status in (<open states>)` with the states as literals: PostgreSQL matches an `ON CONFLICT` target to a partial index by comparing predicates, which bound parameters would defeat. */
const isOpen = sql<boolean>`status in (${sql.join(OPEN_STATUSES.map((status) => sql.lit(status)))})`;

/** Thrown inside {@link SubmissionStore.submit}'s transaction to roll it back when the loadout id is taken. */
class Taken extends Error {
  constructor(readonly holder: StoredSubmission) {
    super(`loadout id "${holder.loadoutId}" is held by submission ${holder.id}`);
  }
}

/** Records a form-token nonce. @returns false (and writes nothing) when it is already recorded. */
async function recordNonce(trx: Transaction<Tables>, nonce: NonceUse, at: string): Promise<boolean> {
  const inserted = await trx
    .insertInto('form_token_nonces')
    .values({ nonce: nonce.nonce, used_at: at, expires_at: nonce.expiresAt })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Replaces submission `id` with `submission`'s content when it is still `submission.submitter`'s
 * and in a replaceable state. The first statement locks the row (PostgreSQL re-reads it after
 * any concurrent writer commits), so the state read next and the events' sequence are current.
 * @returns false, having written nothing, when the row no longer qualifies.
 */
async function replaceIfStill(trx: Transaction<Tables>, id: string, submission: NewSubmission, actor: string, at: string): Promise<boolean> {
  const locked = await trx
    .updateTable('submissions')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .where('submitter', '=', submission.submitter)
    .where('status', 'in', [...REPLACEABLE_STATUSES])
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) !== 1) return false;
  const before = await trx.selectFrom('submissions').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  await writeReplacement(trx, id, before.status, submission, actor, at);
  return true;
}

/** Writes a resubmission over submission `id` (then in state `from`): content, files and event. */
async function writeReplacement(trx: Transaction<Tables>, id: string, from: string, replacement: SubmissionReplacement, actor: string, at: string): Promise<void> {
  await trx
    .updateTable('submissions')
    .set({
      status: replacement.status,
      contact_email: replacement.contactEmail,
      client_address: replacement.clientAddress,
      request: JSON.stringify(replacement.request),
      manifest: replacement.manifest,
      verification: JSON.stringify(replacement.verification),
      capabilities: replacement.capabilities == null ? null : JSON.stringify(replacement.capabilities),
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
  await trx.deleteFrom('submission_files').where('submission_id', '=', id).execute();
  await insertFiles(trx, id, replacement.files);
  await insertEvent(trx, id, await nextSeq(trx, id), { at, actor, from, to: replacement.status, note: 'resubmitted' });
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
    capabilities: s.capabilities == null ? null : JSON.stringify(s.capabilities),
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
    capabilities: r.capabilities === null ? null : (JSON.parse(r.capabilities) as Record<string, unknown>),
    prUrl: r.pr_url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
