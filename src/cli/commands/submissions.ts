/**
 * `loadout submissions list [--status S] [--json]` / `show ID [--json]` / `accept ID` /
 * `reject ID --reason R` (DESIGN.md section 2): maintainers review submissions. Each change is
 * recorded as an event with its time and the maintainer as actor. (`pr` is the bot's job.)
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { createStores } from '../../storage/stores.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';
import { withDatabase } from './db.js';

/** Options shared by the submissions commands. */
export interface SubmissionsCommandOptions {
  databaseUrl: string;
  json?: boolean;
}

/** Lists submissions, newest first. */
export async function submissionsListCommand(options: SubmissionsCommandOptions & { status?: string }, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database) => {
    const list = await createStores(database).submissions.list(options.status);
    const rows = list.map((s) => ({ id: s.id, loadout_id: s.loadoutId, status: s.status, submitter: s.submitter, created_at: s.createdAt, updated_at: s.updatedAt }));
    if (options.json === true) out(`${JSON.stringify(rows, null, 2)}\n`);
    else if (rows.length === 0) out('no submissions\n');
    else for (const r of rows) out(`${r.id}  ${r.status.padEnd(14)}  ${r.loadout_id}  ${r.submitter}  ${r.created_at}\n`);
    return EXIT.ok;
  });
}

/** Shows one submission for reviewers: fields, contact, events, files and check results. */
export async function submissionsShowCommand(options: SubmissionsCommandOptions & { id: string }, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database) => {
    const store = createStores(database).submissions;
    const s = await store.get(options.id);
    if (s === undefined) throw new LoadoutError('not_found', `no submission ${options.id}`, { hint: 'Run `loadout submissions list`.' });
    const events = await store.events(s.id);
    const files = await store.files(s.id);
    if (options.json === true) {
      out(`${JSON.stringify({ ...s, events, files: files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content) })) }, null, 2)}\n`);
      return EXIT.ok;
    }
    const checks = (s.verification['checks'] as { id: string; status: string; summary: string }[] | undefined) ?? [];
    out(`${s.id}  ${s.loadoutId}  ${s.status}\nsubmitter ${s.submitter}  contact ${s.contactEmail ?? '-'}  address ${s.clientAddress}\n`);
    out(`notes: ${typeof s.request['notes'] === 'string' ? s.request['notes'] : '-'}\n\nchecks:\n`);
    for (const c of checks) out(`  ${c.id.padEnd(14)} ${c.status.padEnd(4)} ${c.summary}\n`);
    out('\nfiles:\n');
    for (const f of files) out(`  ${f.path} (${Buffer.byteLength(f.content)} bytes)\n`);
    out('\nevents:\n');
    for (const e of events) out(`  ${e.at}  ${e.from ?? '-'} -> ${e.to}  by ${e.actor}${e.note === null ? '' : `: ${e.note}`}\n`);
    return EXIT.ok;
  });
}

/** Moves a submission: `accept` from pending-review, `reject` from pending-review or checks-failed. */
export async function submissionsDecideCommand(options: { databaseUrl: string; id: string; decision: 'accept' | 'reject'; reason?: string; by: string }, out: Write, err: Write): Promise<number> {
  if (options.decision === 'reject' && (options.reason === undefined || options.reason.trim() === '')) throw new LoadoutError('usage', 'reject needs --reason (expected a sentence the submitter will understand)');
  return withDatabase(options.databaseUrl, async (database) => {
    const store = createStores(database).submissions;
    const from = options.decision === 'accept' ? ['pending-review'] : ['pending-review', 'checks-failed'];
    const to = options.decision === 'accept' ? 'accepted' : 'rejected';
    const change = { from, to, actor: `maintainer:${options.by}`, at: new Date().toISOString(), ...(options.reason === undefined ? {} : { note: options.reason }) };
    const updated = await store.transition(options.id, change);
    if (updated === undefined) {
      const current = await store.get(options.id);
      err(`loadout: submission ${options.id} ${current === undefined ? 'does not exist' : `is ${current.status} (expected ${from.join(' or ')})`}\n`);
      return EXIT.failed;
    }
    out(`${updated.id}: ${to}\n`);
    return EXIT.ok;
  });
}
