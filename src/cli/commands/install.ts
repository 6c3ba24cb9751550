/** `loadout install <id> --agent A[,B…]|detected [--dir .] [--global] [--version V] [--from URL|DIR] [--frozen] [--dry-run] [--force] [--json] [--require-signed] [--trust-key K]…`. */
import { LoadoutError } from '../../catalogue/errors.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import { detectAgents, parseAgentList } from '../../install/detect-agents.js';
import { installLoadouts, type InstallOptions } from '../../install/install.js';
import { readLock } from '../../install/project/lock.js';
import { EXIT } from '../exit.js';
import { CONTEXT_NOTE, formatBackup, formatComposed, formatConflict, formatContext, formatManualSteps, formatRefusal, formatSizeWarning, scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { selfOriginNotice } from '../self-origin.js';
import { printableJson, printableLine } from '../terminal-text.js';
import { formatCapabilities, formatConsent, runLists } from '../capabilities-report.js';
import { askYes, canAsk } from '../prompt.js';
import type { InstallPreview } from '../../install/install.js';
import type { ConsentRequest } from '../../capabilities/consent.js';
import { resolvePolicy, type PolicyFlags } from '../policy-source.js';
import { formatHeld } from '../policy-report.js';
import { formatPreflight } from '../requirements-report.js';

/** Each request once (the same request of several agents is one line). */
function uniqueConsent(requests: readonly ConsentRequest[]): ConsentRequest[] {
  const seen = new Set<string>();
  return requests.filter((r) => !seen.has(r.message) && seen.add(r.message) !== undefined);
}

/** Options of {@link installCommand}: the core's, with `--agent` as given and the output flags. */
export interface InstallCommandOptions extends Omit<InstallOptions, 'agents' | 'scope' | 'policy'>, PolicyFlags {
  /** `--agent`: agent ids separated by commas, or `detected`. */
  agent: string;
  global: boolean;
  json: boolean;
  /** `--verbose`: every file per agent and each shared file whole (default: a line per agent and each shared file once, as a diff). */
  verbose?: boolean;
}

/**
 * Runs the install; returns 0 when installed (or planned with --dry-run), 1 on conflicts. A
 * target outside the agent's own locations, written because of --force, is printed as a
 * warning on stderr (also with --json, beside each outcome's `warnings`). `--json` prints
 * an array of outcomes, one per agent (for a bundle, one per member and agent, each with
 * `bundle: {id, version}`).
 * @throws LoadoutError `usage` when `--agent detected` finds no agent
 */
export async function installCommand(options: InstallCommandOptions, out: Write, err: Write): Promise<number> {
  const { agent: agentFlag, global, json, verbose: _verbose, policy: policyFlag, policyKey, ...core } = options;
  const scope = scopeOf({ dir: options.dir, global });
  // The policy the install holds to (docs/policy.md): --policy, LOADOUT_POLICY, or the project's loadout-policy.yaml.
  const policy = await resolvePolicy({ policy: policyFlag, policyKey }, { project: global ? undefined : scope.root, env: process.env });
  const parsed = parseAgentList(agentFlag);
  let agents: Agent[];
  if (parsed === 'detected') {
    const found = await detectAgents(scope);
    if (found.length === 0) throw new LoadoutError('usage', `--agent detected: no agent's folders or files found in ${scope.root}`, { hint: 'Name the agents: --agent claude-code,cursor.' });
    agents = found.map((d) => d.agent);
    err(`loadout: detected ${found.map((d) => `${d.agent} (${d.found.join(', ')})`).join(', ')}\n`);
  } else agents = parsed;
  // What the lock trusted before, to say when this install pins a catalogue's key for the first time.
  const trustedBefore = (await readLock(scope.root, scope.lockPath)).trust ?? {};
  const agentsText = agents.join(', ');
  // Shown before anything is written; what needs consent is asked for here, on a terminal (issue 54, point 2).
  const confirm = async (preview: InstallPreview): Promise<boolean> => {
    if (!json) out(formatCapabilities(`What ${preview.bundle === true ? 'bundle ' : ''}${preview.id} ${preview.version} can run for ${agentsText}`, runLists(preview.agents.map((a) => ({ id: a.loadout ?? preview.id, capabilities: a.capabilities }))), agents));
    if (!preview.needsConsent) return true;
    if (json || !canAsk()) return false;
    err(formatConsent(`${preview.id} ${preview.version}`, uniqueConsent(preview.agents.flatMap((a) => a.consent))));
    return askYes(`Install ${preview.id} with what needs your consent?`);
  };
  const outcomes = await installLoadouts({ ...core, agents, scope, confirm, ...(policy === undefined ? {} : { policy }) });
  const held = outcomes.find((o) => o.held !== undefined);
  if (held?.held !== undefined && policy !== undefined) err(`loadout: notice: ${formatHeld(held.id, held.held, policy.where)}; ${options.dryRun === true ? 'would install' : 'installed'} ${held.version}, the newest old enough\n`);
  for (const notice of new Set(outcomes.map((o) => o.notice).filter((n) => n !== undefined))) err(`loadout: notice: ${printableLine(notice)}\n`);
  const selfServed = outcomes.some((o) => o.signed !== null) || options.signing?.requireSigned === true ? selfOriginNotice() : undefined;
  if (selfServed !== undefined) err(`loadout: notice: ${printableLine(selfServed)}\n`);
  // The preflight (issue 56, point 4): what the loadout requires of this machine; --strict refused before this when something is missing.
  if (!json) err(formatPreflight(outcomes));
  const conflicted = outcomes.some((o) => o.conflicts.length > 0);
  const refusedConsent = outcomes.some((o) => o.needs_consent) && options.dryRun !== true;
  for (const o of outcomes) for (const w of o.warnings) err(`loadout: warning: ${printableLine(w.message)}; ${options.dryRun === true || conflicted ? 'it would be written' : 'written'} because of --force\n`);
  if (json) {
    out(`${printableJson(outcomes)}\n`);
    return conflicted || refusedConsent ? EXIT.failed : EXIT.ok;
  }
  if (options.dryRun === true) {
    const first = outcomes[0];
    const what = first?.bundle === undefined ? `${first?.id ?? ''} ${first?.version ?? ''}` : `bundle ${first.bundle.id} ${first.bundle.version}`;
    out(formatCapabilities(`What ${what} can run for ${agentsText}`, runLists(outcomes), agents));
    if (outcomes.some((o) => o.needs_consent)) out('(what is marked needs your consent: without --dry-run the install asks for your yes, or --accept-capabilities)\n');
  }
  if (refusedConsent) {
    const first = outcomes[0];
    err(formatConsent(`${first?.id ?? ''} ${first?.version ?? ''}`, uniqueConsent(outcomes.flatMap((o) => o.consent))));
    err('loadout: nothing was installed and nothing was written: what needs your consent was not accepted; read the list above, then pass --accept-capabilities (or answer yes in a terminal)\n');
    return EXIT.failed;
  }
  for (const o of outcomes) for (const c of o.conflicts) err(formatConflict(c, `${o.id} ${o.version}`));
  if (conflicted) {
    err(formatRefusal('installed', outcomes.flatMap((o) => o.conflicts)));
    return EXIT.failed;
  }
  const first = outcomes[0];
  if (first?.backup !== undefined) err(formatBackup(first.backup, first.backed_up ?? [], 'install'));
  for (const o of outcomes) for (const w of o.composed.size_warnings) err(formatSizeWarning(w));
  const verb = options.dryRun === true ? 'would install' : 'installed';
  if (first?.bundle !== undefined) out(`${verb} bundle ${first.bundle.id} ${first.bundle.version}: ${[...new Set(outcomes.map((o) => `${o.id} ${o.version}`))].join(', ')}\n`);
  if (options.verbose === true) {
    for (const o of outcomes) {
      out(`${verb} ${o.id} ${o.version} for ${o.agent} from ${printableLine(o.source)}${o.scope === 'user' ? ' into your home folder' : ''}:\n`);
      for (const f of o.files) out(`  ${printableLine(f.target)}  ← ${printableLine(f.path)}${o.unchanged.includes(f.target) ? ' (unchanged)' : ''}\n`);
      out(`  context: ${formatContext(o.context)}\n`);
      if (o.signed !== null) out(`  signed: key ${o.signed.keyids.join(', ')}, snapshot of ${o.signed.generated_at}\n`);
      if (o.composed.context !== undefined) out(`  context of everything installed for ${o.agent}, composed: ${formatContext(o.composed.context)}\n`);
      if (options.dryRun === true) out(formatComposed(o.composed.files));
      out('\n');
    }
  } else if (first !== undefined) {
    // One summary line per agent, and each shared file once (issue 57, point 8); --verbose lists every file per agent.
    for (const o of outcomes) {
      const unchanged = o.unchanged.length === 0 ? '' : ` (${o.unchanged.length} unchanged)`;
      const composed = o.composed.context === undefined ? '' : `; everything installed for it: always ~${o.composed.context.always.tokens.toLocaleString('en-US')} tokens`;
      out(`${verb} ${o.id} ${o.version} for ${o.agent} from ${printableLine(o.source)}${o.scope === 'user' ? ' into your home folder' : ''}: ${o.files.length} file${o.files.length === 1 ? '' : 's'}${unchanged}; context: ${formatContext(o.context)}${composed}\n`);
    }
    if (first.signed !== null) out(`  signed: key ${first.signed.keyids.join(', ')}, snapshot of ${first.signed.generated_at}\n`);
    if (options.dryRun === true) out(formatComposed(outcomes.flatMap((o) => o.composed.files), false));
    out(`(every file per agent: --verbose)\n\n`);
  }
  out(formatManualSteps(outcomes));
  out(`(${CONTEXT_NOTE})\n`);
  if (outcomes.some((o) => o.installed)) out(`recorded in ${scope.kind === 'user' ? '~/' : ''}${scope.lockPath}\n`);
  const pinned = outcomes.find((o) => o.installed && o.signed !== null && trustedBefore[o.source] === undefined);
  if (pinned?.signed) {
    out(`pinned ${printableLine(pinned.source)}'s signing key ${pinned.signed.keyids.map(printableLine).join(', ')} in the lock (first use): later commands refuse it signed by another key, unless it publishes a rotation signed by this one or you pass --trust-key\n`);
  }
  return EXIT.ok;
}
