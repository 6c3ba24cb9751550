/**
 * The tables of the submissions database (DESIGN.md section 6), as Kysely types. One set of
 * types and queries serves SQLite and PostgreSQL, so every column is portable: timestamps are
 * ISO 8601 UTC strings (`2026-11-22T10:00:00.000Z`, which sort as text), JSON is stored as
 * text, integers stay within 32 bits.
 */
import type { Kysely } from 'kysely';

/** A submission (spec "Submission request"; DESIGN.md section 5 states). */
export interface SubmissionsTable {
  /** Random UUIDv4: never sequential. */
  id: string;
  loadout_id: string;
  /**
   * `pending-review`, `checks-failed`, `accepted`, `rejected`, `pr-opened`, `merged`, `closed`.
   * At most one submission per `loadout_id` is open (`pending-review`, `checks-failed`,
   * `accepted` or `pr-opened`): unique partial index `submissions_open_loadout_id`, migration 0002.
   */
  status: string;
  /** `key:<prefix>` for an API key, `form` for the browser form. */
  submitter: string;
  /** Private: never in the status document. */
  contact_email: string | null;
  /** Private: never in the status document. */
  client_address: string;
  /** The submission fields as JSON text, without credentials and contact e-mail. */
  request: string;
  /** The derived `loadout.yaml` text. */
  manifest: string;
  /** The `verification` object as JSON text. */
  verification: string;
  /**
   * What the submitted loadout can run (its capability list, `tree-format/capabilities.ts`) as
   * JSON text; null when the checks made none (a manifest that does not validate) or for a row
   * stored before migration 0003.
   */
  capabilities: string | null;
  pr_url: string | null;
  created_at: string;
  updated_at: string;
}

/** One file of a submission; the content is UTF-8 text. */
export interface SubmissionFilesTable {
  submission_id: string;
  path: string;
  content: string;
}

/** Every status change of a submission, with its time and actor. `seq` counts from 1. */
export interface SubmissionEventsTable {
  submission_id: string;
  seq: number;
  at: string;
  /** `key:<prefix>`, `form`, `maintainer:<name>`, `bot`, or `migration:<number>` for a change a migration made. */
  actor: string;
  from_status: string | null;
  to_status: string;
  note: string | null;
}

/** API keys: only the sha256 of the key and its public prefix are stored. */
export interface ApiKeysTable {
  /** The public part of the key (`lk_<prefix>_…`), also its id. */
  prefix: string;
  name: string;
  /** sha256 of the whole key, lowercase hex. */
  hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Form-token nonces that have been used (unique: a second use fails to insert). */
export interface FormTokenNoncesTable {
  nonce: string;
  used_at: string;
  /** When the token would have expired anyway; the row can be deleted after it. */
  expires_at: string;
}

/** Fixed rate-limit windows: hits per bucket (`address:<ip>`, `key:<prefix>`) per window. */
export interface RateLimitWindowsTable {
  bucket: string;
  window_start: string;
  hits: number;
  expires_at: string;
}

/** The database schema as Kysely sees it. */
export interface Tables {
  submissions: SubmissionsTable;
  submission_files: SubmissionFilesTable;
  submission_events: SubmissionEventsTable;
  api_keys: ApiKeysTable;
  form_token_nonces: FormTokenNoncesTable;
  rate_limit_windows: RateLimitWindowsTable;
}

/** A Kysely instance over {@link Tables}. */
export type Db = Kysely<Tables>;
