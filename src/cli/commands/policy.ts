/**
 * `loadout policy check [path|url] [--dir .] [--policy-key K]… [--json]` and `loadout policy sign
 * <file> --key-file <pem> [--out <file>]` (docs/policy.md): check a policy as the commands that
 * hold to it read it (with every problem's line and column), and sign one for a URL policy that
 * must be signed (policy/signed-policy.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { LoadoutError } from '../../catalogue/errors.js';
import { formatPolicyProblems, parsePolicy } from '../../policy/parse.js';
import type { Policy } from '../../policy/policy.js';
import { signPolicy } from '../../policy/signed-policy.js';
import { readSigningKey, SigningKeyError } from '../../tree-format/signing/keys.js';
import { EXIT } from '../exit.js';
import { resolvePolicy, type PolicyFlags } from '../policy-source.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link policyCheckCommand}. */
export interface PolicyCheckOptions extends PolicyFlags {
  /** The project whose `loadout-policy.yaml` is checked when no policy is named. */
  dir: string;
  json: boolean;
}

/** The rules a policy sets, one line each, for a reader who checks it. */
function describeRules(policy: Policy): string[] {
  const lines: string[] = [];
  if (policy.catalogues !== undefined) lines.push(`catalogues: ${policy.catalogues.join(', ') || 'none'}`);
  if (policy.loadouts?.allow !== undefined) lines.push(`loadouts.allow: ${policy.loadouts.allow.join(', ') || 'none'}`);
  if (policy.loadouts?.deny !== undefined) lines.push(`loadouts.deny: ${policy.loadouts.deny.join(', ') || 'none'}`);
  if (policy.agents !== undefined) lines.push(`agents: ${policy.agents.join(', ') || 'none'}`);
  if (policy.mcp?.packages !== undefined) lines.push(`mcp.packages.allow: ${policy.mcp.packages.allow.map((p) => `${p.registry}:${p.name}${p.version === undefined ? '' : ` ${p.version}`}`).join(', ') || 'none'}`);
  if (policy.mcp?.hosts !== undefined) lines.push(`mcp.hosts.allow: ${policy.mcp.hosts.allow.join(', ') || 'none'}`);
  if (policy.mcp?.require_pinned !== undefined) lines.push(`mcp.require_pinned: ${String(policy.mcp.require_pinned)}`);
  if (policy.deny !== undefined) lines.push(`deny: ${policy.deny.join(', ') || 'nothing'}`);
  if (policy.signing !== undefined) lines.push(`signing.require: ${String(policy.signing.require)}${policy.signing.keys === undefined ? '' : `, keys ${policy.signing.keys.join(', ')}`}`);
  if (policy.min_release_age !== undefined) lines.push(`min_release_age: ${policy.min_release_age}${policy.exceptions === undefined ? '' : ` (${policy.exceptions.length} exception${policy.exceptions.length === 1 ? '' : 's'})`}`);
  return lines;
}

/**
 * Reads the policy (the one named, else `LOADOUT_POLICY`, else the project's) as install would,
 * and prints its rules; returns 0, or 1 when there is no policy to check.
 * @throws ConsumerError `InvalidPolicy` naming each problem by line and column
 */
export async function policyCheckCommand(location: string | undefined, options: PolicyCheckOptions, out: Write, err: Write): Promise<number> {
  const flags: PolicyFlags = { ...(location === undefined ? {} : { policy: location }), ...(options.policyKey === undefined ? {} : { policyKey: options.policyKey }) };
  const policy = await resolvePolicy(flags, { project: options.dir, env: process.env });
  if (policy === undefined) {
    err(`loadout: no policy to check: none named, no LOADOUT_POLICY, and no loadout-policy.yaml in ${printableLine(options.dir)}\n`);
    return EXIT.failed;
  }
  if (options.json) {
    out(`${printableJson({ where: policy.where, signed_by: policy.signedBy, policy: policy.policy })}\n`);
    return EXIT.ok;
  }
  out(`ok: ${printableLine(policy.where)} is a policy${policy.signedBy === null ? '' : `, signed by ${policy.signedBy.join(', ')}`}\n`);
  for (const line of describeRules(policy.policy)) out(`  ${printableLine(line)}\n`);
  return EXIT.ok;
}

/** Options of {@link policySignCommand}. */
export interface PolicySignOptions {
  /** `--key-file`: the Ed25519 private key, PKCS#8 PEM (docs/signing.md, "Make a key"). */
  keyFile: string;
  /** `--out`: where to write the envelope; default standard output. */
  out?: string;
}

/**
 * Signs the policy `file` (which must read as a policy) with the key of `--key-file`: the DSSE
 * envelope, JSON, to publish at the policy's address. Returns 0.
 * @throws LoadoutError `invalid_content` for a policy with problems (each by line and column),
 *   `config` for a key that is not an Ed25519 PEM private key, `not_found` for a file missing
 */
export async function policySignCommand(file: string, options: PolicySignOptions, out: Write, err: Write): Promise<number> {
  const read = async (path: string, what: string): Promise<string> =>
    readFile(path, 'utf8').catch((cause: unknown) => {
      throw new LoadoutError('not_found', `${what} ${path}: ${(cause as Error).message}`, { cause });
    });
  const text = await read(file, 'the policy');
  const parsed = parsePolicy(text);
  if (!parsed.ok) throw new LoadoutError('invalid_content', `${file} is not a policy; nothing was signed:\n${formatPolicyProblems(file, parsed.problems)}`);
  let key;
  try {
    key = readSigningKey(await read(options.keyFile, '--key-file'));
  } catch (error) {
    if (error instanceof SigningKeyError) throw new LoadoutError('config', `--key-file ${options.keyFile}: ${error.message}`);
    throw error;
  }
  const envelope = `${JSON.stringify(signPolicy(text, [key]), null, 2)}\n`;
  if (options.out === undefined) out(envelope);
  else await writeFile(options.out, envelope);
  err(`loadout: signed ${printableLine(file)} with key ${key.published.keyid}; check it with --policy-key ${key.published.public_key}\n`);
  return EXIT.ok;
}
