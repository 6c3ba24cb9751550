/** `loadout outdated [--dir .] [--global] [--from URL|DIR] [--json] [--require-signed] [--trust-key K]…`: exit 0 when everything is current, 1 when something is outdated (or a catalogue cannot be read). */
import { listOutdated, listOutdatedBundles, type OutdatedBundleRow, type OutdatedRow } from '../../install/outdated.js';
import type { SigningPolicy } from '../../install/catalogue/signed-catalogue.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import { thisInvocation } from '../invocation.js';
import type { Write } from '../report.js';
import { checksSignatures, selfOriginNotice } from '../self-origin.js';
import { printableJson, printableLine } from '../terminal-text.js';
import { formatCapabilityChange } from '../capabilities-report.js';
import { resolvePolicy, type PolicyFlags } from '../policy-source.js';
import { formatHeldStatus, formatViolations } from '../policy-report.js';

/** Options of {@link outdatedCommand}. */
export interface OutdatedCommandOptions extends PolicyFlags {
  dir: string;
  global: boolean;
  from?: string;
  /** `--require-signed`, `--trust-key`. */
  signing?: SigningPolicy;
  /** Print `[{id, agent, installed, latest, wanted, outdated, held, policy, changed, source, bundles?, capabilities, adds_capabilities, error?}]`, then one `{kind: "bundle", id, installed, latest, outdated, agents, source, error?}` per installed bundle. */
  json: boolean;
}

/** Lists the installs of the lock as a table (or JSON); returns 1 when one is outdated, its catalogue could not be read, or the policy refuses it or its update. */
export async function outdatedCommand(options: OutdatedCommandOptions, out: Write, err: Write): Promise<number> {
  const scope = scopeOf(options);
  const policy = await resolvePolicy(options, { project: options.global ? undefined : scope.root, env: process.env });
  const rows = await listOutdated({ scope, from: options.from, signing: options.signing, ...(policy === undefined ? {} : { policy }) });
  const bundles = await listOutdatedBundles({ scope, from: options.from, signing: options.signing });
  const added = options.signing?.trustKeys ?? [];
  if (added.length > 0) {
    err(`loadout: notice: --trust-key ${added.map(printableLine).join(', ')} counted for this listing only: outdated writes nothing, so the lock does not pin it; pass it again to the \`${thisInvocation()} update\` or \`${thisInvocation()} install\` that writes the lock, which pins it\n`);
  }
  const selfServed = (await checksSignatures(scope, options.signing)) ? selfOriginNotice() : undefined;
  if (selfServed !== undefined) err(`loadout: notice: ${printableLine(selfServed)}\n`);
  const failed = rows.some((r) => r.outdated || r.error !== undefined || r.policy.length > 0) || bundles.some((b) => b.outdated || b.error !== undefined);
  if (options.json) {
    out(`${printableJson([...rows, ...bundles.map((b) => ({ kind: 'bundle', ...b }))])}\n`);
    return failed ? EXIT.failed : EXIT.ok;
  }
  if (rows.length === 0) {
    out(`nothing installed (${scope.lockPath} lists no installs)\n`);
    return EXIT.ok;
  }
  out(formatOutdatedTable(rows));
  out(formatOutdatedBundles(bundles));
  for (const r of rows) if (r.error !== undefined) err(`loadout: ${r.id} for ${r.agent}: ${printableLine(r.error)}\n`);
  for (const b of bundles) if (b.error !== undefined) err(`loadout: bundle ${b.id}: ${printableLine(b.error)}\n`);
  const refused = rows.flatMap((r) => r.policy);
  if (policy !== undefined && refused.length > 0) err(formatViolations(policy.where, refused));
  return failed ? EXIT.failed : EXIT.ok;
}

/** Columns id, agent, installed, wanted (when a policy holds an update back), latest, status and local changes; one row per install. */
export function formatOutdatedTable(rows: readonly OutdatedRow[]): string {
  // The column of what update moves to, when a policy makes it other than the latest (min_release_age).
  const wantedColumn = rows.some((r) => r.outdated && r.wanted !== r.latest);
  const header = ['id', 'agent', 'installed', ...(wantedColumn ? ['wanted'] : []), 'latest', 'status', 'local changes'];
  const status = (r: OutdatedRow): string => {
    const base = r.error !== undefined ? 'unknown' : !r.outdated ? 'current' : r.adds_capabilities ? 'outdated, adds capabilities' : 'outdated';
    return [base, ...(r.held === null ? [] : [formatHeldStatus(r.held)]), ...(r.policy.length === 0 ? [] : [`refused by the policy (${[...new Set(r.policy.map((v) => v.rule))].join(', ')})`])].join('; ');
  };
  const cells = rows.map((r) => [r.bundles === undefined ? r.id : `${r.id} (${r.bundles.map((b) => `${b.id} ${b.range}`).join(', ')})`, r.agent, r.installed, ...(wantedColumn ? [r.wanted ?? '?'] : []), r.latest ?? '?', status(r), r.changed.length === 0 ? 'none' : r.changed.map(printableLine).join(', ')]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]): string => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ');
  const outdated = rows.filter((r) => r.outdated).length;
  const widening = rows.filter((r) => r.adds_capabilities);
  const changes = widening.map((r) => formatCapabilityChange(`${r.id} ${r.installed} → ${r.wanted ?? '?'} for ${r.agent}`, r.capabilities)).join('');
  return `${[line(header), ...cells.map(line)].join('\n')}\n${changes}${outdated === 0 ? 'everything is current' : `${outdated} outdated: \`${thisInvocation()} update\` shows what changes${widening.length === 0 ? '' : ' and asks before it adds to what a loadout can run'}`}\n`;
}

/** One line per installed bundle (issue 56): `bundle <id> <installed> → <latest>` when the catalogue has a newer version, else current; '' for none. */
export function formatOutdatedBundles(rows: readonly OutdatedBundleRow[]): string {
  return rows.map((b) => (b.latest === null ? `bundle ${b.id} ${b.installed}: unknown\n` : b.outdated ? `bundle ${b.id} ${b.installed} → ${b.latest}: \`${thisInvocation()} update ${b.id}\` moves it and its members to the new ranges\n` : `bundle ${b.id} ${b.installed}: current\n`)).join('');
}
