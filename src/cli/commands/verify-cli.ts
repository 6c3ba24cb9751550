/** `loadout verify-cli --from URL|DIR [--version V] [--out FILE] [--dir .] [--global] [--trust-key K]… [--json]`: check a signed catalogue's own CLI tarball before running it. */
import { verifyCatalogueCli, type VerifiedCli } from '../../install/verify-cli.js';
import type { SigningPolicy } from '../../install/catalogue/signed-catalogue.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link verifyCliCommand}. */
export interface VerifyCliCommandOptions {
  from: string;
  version?: string;
  out?: string;
  dir: string;
  global: boolean;
  /** `--trust-key` (signing is always required). */
  signing?: SigningPolicy;
  /** Print {@link VerifiedCli} as JSON. */
  json: boolean;
}

/**
 * Checks the tarball against the catalogue's signed snapshot and prints what vouches for it;
 * returns 0 (a refusal throws, and the entry point prints it and exits 1).
 */
export async function verifyCliCommand(options: VerifyCliCommandOptions, out: Write): Promise<number> {
  const verified = await verifyCatalogueCli({ from: options.from, version: options.version, out: options.out, scope: scopeOf(options), signing: options.signing });
  if (options.json) {
    out(`${printableJson(verified)}\n`);
    return EXIT.ok;
  }
  out(formatVerifiedCli(verified));
  return EXIT.ok;
}

/** The report of a checked tarball: what it is, what vouches for it, and how to run the checked bytes. */
export function formatVerifiedCli(v: VerifiedCli): string {
  const lines = [
    `ok: ${printableLine(v.source)} is the CLI the catalogue's signed snapshot lists`,
    `  version ${v.version ?? 'unknown'}, ${v.bytes} bytes, ${v.integrity}`,
    `  signed: key ${v.signed.keyids.join(', ')}, snapshot of ${v.signed.generated_at}`,
  ];
  if (v.written !== null) lines.push(`  written to ${printableLine(v.written)}; run these checked bytes with: npx -y ${printableLine(v.written.startsWith('/') || v.written.startsWith('.') ? v.written : `./${v.written}`)} install <id> --agent <agent> --from <catalogue>`);
  else lines.push('  pass --out <file.tgz> to keep these checked bytes and run them with npx -y <file.tgz>; a later download of the same address is not checked');
  return `${lines.join('\n')}\n`;
}
