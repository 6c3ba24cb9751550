/**
 * `loadout keys create --name N` / `keys list [--json]` / `keys revoke ID` (DESIGN.md section
 * 2): API keys for agents. The key is printed once; only its sha256 and prefix are stored.
 * Key names are printed through `printableLine` / `printableJson` (src/cli/terminal-text.ts).
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { createStores } from '../../storage/stores.js';
import { createApiKey } from '../../submissions/api-key.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';
import { withDatabase } from './db.js';

/** Options of `keys create`. */
export interface KeysCreateOptions {
  databaseUrl: string;
  name: string;
}

/** Creates a key and prints it, once, with how to use it. */
export async function keysCreateCommand(options: KeysCreateOptions, out: Write): Promise<number> {
  const name = options.name.trim();
  if (name === '' || name.length > 100) throw new LoadoutError('usage', `--name is ${printableLine(JSON.stringify(options.name))} (expected 1 to 100 characters)`);
  return withDatabase(options.databaseUrl, async (database) => {
    const { key, stored } = await createApiKey(createStores(database).keys, name, new Date());
    out(`${key}\n`);
    out(`created key lk_${stored.prefix} "${printableLine(stored.name)}": this is the only time it is shown; send it as "Authorization: Bearer <key>"\n`);
    return EXIT.ok;
  });
}

/** Lists keys: id, name, created, last used, revoked (`--json`: an array of those fields). */
export async function keysListCommand(options: { databaseUrl: string; json: boolean }, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database) => {
    const keys = await createStores(database).keys.list();
    const rows = keys.map((k) => ({ id: `lk_${k.prefix}`, name: k.name, created_at: k.createdAt, last_used_at: k.lastUsedAt, revoked_at: k.revokedAt }));
    if (options.json) {
      out(`${printableJson(rows)}\n`);
    } else if (rows.length === 0) {
      out('no API keys (create one with `loadout keys create --name <name>`)\n');
    } else {
      for (const r of rows) out(`${printableLine(r.id)}  ${printableLine(r.name)}  created ${printableLine(r.created_at)}  last used ${printableLine(r.last_used_at ?? 'never')}${r.revoked_at === null ? '' : `  REVOKED ${printableLine(r.revoked_at)}`}\n`);
    }
    return EXIT.ok;
  });
}

/** Revokes the key `id` (`lk_<prefix>`, the bare prefix, or the whole key). Exit 1 when unknown or already revoked. */
export async function keysRevokeCommand(options: { databaseUrl: string; id: string }, out: Write, err: Write): Promise<number> {
  const prefix = /^(?:lk_)?([0-9a-f]{12})(?:_.*)?$/u.exec(options.id.trim())?.[1];
  if (prefix === undefined) throw new LoadoutError('usage', `key id ${printableLine(JSON.stringify(options.id))} is malformed (expected lk_<12 hex digits>, as \`loadout keys list\` shows)`);
  return withDatabase(options.databaseUrl, async (database) => {
    const keys = createStores(database).keys;
    const done = await keys.revoke(prefix, new Date().toISOString());
    if (!done) {
      const known = await keys.find(prefix);
      err(`loadout: key lk_${prefix} ${known === undefined ? 'does not exist' : 'is already revoked'}\n`);
      return EXIT.failed;
    }
    out(`revoked key lk_${prefix}\n`);
    return EXIT.ok;
  });
}
