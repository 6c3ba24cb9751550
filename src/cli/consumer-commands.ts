/**
 * The consumer commands (`search`, `install`, `outdated`, `update`, `uninstall`, `verify-cli`,
 * `recover`, `status`, `doctor`, `sbom`, `policy check`, `policy sign`),
 * declared once for the two programs that carry them: the repository's full `loadout`
 * (`main.ts`) and the consumer package's (`consumer-main.ts`). Each command's module is
 * imported when it runs, so declaring them loads nothing but commander.
 */
import { type Command } from 'commander';
import { LoadoutError } from '../catalogue/errors.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import type { DoctorCommandOptions } from './commands/doctor.js';
import type { OutdatedCommandOptions } from './commands/outdated.js';
import type { RecoverCommandOptions } from './commands/recover.js';
import type { SbomCommandOptions } from './commands/sbom.js';
import type { SearchCommandOptions } from './commands/search.js';
import type { StatusCommandOptions } from './commands/status.js';
import type { UninstallCommandOptions } from './commands/uninstall.js';
import type { UpdateCommandOptions } from './commands/update.js';
import type { VerifyCliCommandOptions } from './commands/verify-cli.js';
import { flagsOf } from './flags.js';
import type { Write } from './report.js';
import { printable } from './terminal-text.js';
import { POLICY_FILE, POLICY_VARIABLE } from '../policy/policy.js';
import { POLICY_KEY_VARIABLE } from '../policy/signed-policy.js';
import type { PolicyFlags } from './policy-source.js';

/** The exit code the command that ran sets. */
export interface CommandContext {
  code: number;
}

/** Commander's collector of a repeatable option. */
const collect = (value: string, all: string[]): string[] => [...all, value];

/** `--require-signed` and `--trust-key`, as the flags of the commands that read a catalogue give them. */
interface SigningFlags {
  requireSigned: boolean;
  trustKey: string[];
}

/** Declares `--policy` and `--policy-key` on `command` (policy-source.ts; docs/policy.md). */
function withPolicyFlags(command: Command): Command {
  return command
    .option('--policy <path-or-url>', `the policy to hold to (default: ${POLICY_VARIABLE}, else ${POLICY_FILE} in the project; docs/policy.md)`)
    .option('--policy-key <key>', `the public key (base64, as a catalogue publishes it) that must have signed the policy (repeatable; default ${POLICY_KEY_VARIABLE})`, collect, [] as string[]);
}

/** The signing policy of {@link SigningFlags} (docs/signing.md). */
const signingOf = ({ requireSigned, trustKey }: SigningFlags): { requireSigned: boolean; trustKeys: string[] } => ({ requireSigned, trustKeys: trustKey });

/**
 * Declares the consumer commands on `program`; their actions write to `out` and `err` and set
 * `ctx.code`. `version` is the program's own (`sbom` names it as the SBOM's tool). Everything they print may hold text from a catalogue, a lock or a project, so it
 * all goes through `printable` (`terminal-text.ts`; a no-op on text already escaped and on
 * `printableJson` output): no command can let a terminal escape through (issue 35, point 4).
 */
export function declareConsumerCommands(program: Command, ctx: CommandContext, rawOut: Write, rawErr: Write, version: string): void {
  const out: Write = (text) => rawOut(printable(text));
  const err: Write = (text) => rawErr(printable(text));
  program
    .command('search')
    .description('ranked search over a catalogue, as GET /api/v1/search')
    .argument('[query...]', 'words to search for (none: list every loadout)')
    .option('--agent <agent>', 'only loadouts that support this agent')
    .option('--tags <tags>', 'comma-separated stacks and categories that a loadout must all have')
    .option('--category <category>', 'only loadouts in this category')
    .option('--verified <bool>', 'true or false')
    .option('--has <kind>', 'skills, mcp, rules, hooks or scripts: at least one')
    .option('--runs <what>', 'nothing (no MCP server, hook, script or tool grant) or something')
    .option('--max-always-tokens <n>', 'only loadouts adding at most n tokens at every session start (for --agent, else for every agent they support)')
    .option('--limit <n>', 'results to show, 1 to 50 (default 20)')
    .option('--offset <n>', 'results to skip (default 0)')
    .option('--from <url-or-dir>', "catalogue base URL (its search API, or else its published index), or a built tree; instead of --out")
    .option('--out <dir>', 'built tree to search', 'dist')
    .option('--json', 'print the GET /api/v1/search response as JSON')
    .action(async (words: string[], _flags: object, command: Command) => {
      const { searchCommand } = await import('./commands/search.js');
      // The flag is --max-always-tokens; the search parameter it checks as is max_always_tokens.
      const { maxAlwaysTokens, ...flags } = flagsOf<Omit<SearchCommandOptions, 'q' | 'max_always_tokens'> & { maxAlwaysTokens?: string }>(command);
      ctx.code = await searchCommand({ ...flags, max_always_tokens: maxAlwaysTokens, q: words.join(' ') }, out);
    });

  withPolicyFlags(program
    .command('install')
    .description('install a loadout into a project (or --global, your home folder) for one or more agents, and record it in the lock')
    .argument('<id>', 'loadout id')
    .option('--agent <agents>', `required: agents separated by commas (${PUBLISHED_AGENTS.join(', ')}), or "detected"`)
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'install into your home folder (~/.claude, ~/.codex, …), locked in ~/.config/loadout/lock.json')
    .option('--version <version>', 'version to install (default: latest)')
    .option('--from <url-or-dir>', 'catalogue base URL, or a built tree', 'dist')
    .option('--frozen', 'install exactly the version recorded in the lock')
    .option('--dry-run', 'show what would be written and its context cost; write nothing')
    .option('--force', 'overwrite files you changed since they were installed (and accept what needs your consent)')
    .option('--accept-capabilities', 'accept what needs your consent (hooks, permission modes, auto-approval, wildcard tool grants), after reading the list the install prints')
    .option('--strict', "refuse the install, before anything is written, when a tool, variable or MCP server the loadout requires is missing (default: warn and go on)")
    .option('--verbose', 'list every file per agent and each shared file whole (default: a line per agent, each shared file once, as a diff)')
    .option('--json', 'print the outcomes (one per agent) as JSON')
    .option('--require-signed', 'refuse a catalogue that is not signed (docs/signing.md)')
    .option('--trust-key <keyid>', 'also trust this signing key id, after checking it with the maintainers (repeatable)', collect, [] as string[]))
    .action(async (id: string, _flags: object, command: Command) => {
      const { agent, requireSigned, trustKey, ...flags } = flagsOf<{ agent?: string; dir: string; global: boolean; version?: string; from: string; frozen: boolean; dryRun: boolean; force: boolean; acceptCapabilities: boolean; strict: boolean; verbose: boolean; json: boolean } & SigningFlags & PolicyFlags>(command);
      if (agent === undefined) throw new LoadoutError('usage', "required option '--agent <agents>' not specified", { hint: `Name the agents: --agent ${PUBLISHED_AGENTS.join(',')}, or --agent detected.` });
      const { installCommand } = await import('./commands/install.js');
      ctx.code = await installCommand({ ...flags, id, agent, signing: signingOf({ requireSigned, trustKey }) }, out, err);
    });

  withPolicyFlags(program
    .command('outdated')
    .description('list installed loadouts with their latest version and local changes; exit 1 when one is outdated')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--json', 'print [{id, agent, installed, latest, wanted, outdated, held, policy, changed, source}] as JSON')
    .option('--require-signed', 'refuse a catalogue that is not signed (docs/signing.md)')
    .option('--trust-key <keyid>', 'also trust this signing key id, after checking it with the maintainers (repeatable)', collect, [] as string[]))
    .action(async (_flags: object, command: Command) => {
      const { requireSigned, trustKey, ...flags } = flagsOf<Omit<OutdatedCommandOptions, 'signing'> & SigningFlags>(command);
      const { outdatedCommand } = await import('./commands/outdated.js');
      ctx.code = await outdatedCommand({ ...flags, signing: signingOf({ requireSigned, trustKey }) }, out, err);
    });

  withPolicyFlags(program
    .command('update')
    .description('move installs to the latest version (or --to), showing the changelog, a diff per file and the context cost first')
    .argument('[id...]', 'loadout ids (default: every install in the lock)')
    .option('--agent <agent>', 'only the installs for this agent')
    .option('--to <version>', 'version to move to (default: latest)')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--dry-run', 'show the changes; write nothing')
    .option('--force', 'overwrite files you changed since they were installed (does not accept new capabilities)')
    .option('--accept-capabilities', 'go on with updates that add to or widen what a loadout can run (new MCP server, package, host, hook, script, grant or secret), after reading the change')
    .option('--verbose', 'list every file per agent and each shared file whole (default: a line per agent, each shared file once, as a diff)')
    .option('--json', 'print {updates, current, held, written, needs_consent} as JSON')
    .option('--require-signed', 'refuse a catalogue that is not signed (docs/signing.md)')
    .option('--trust-key <keyid>', 'also trust this signing key id, after checking it with the maintainers (repeatable)', collect, [] as string[]))
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { requireSigned, trustKey, ...flags } = flagsOf<Omit<UpdateCommandOptions, 'ids' | 'signing'> & SigningFlags>(command);
      const { updateCommand } = await import('./commands/update.js');
      ctx.code = await updateCommand({ ...flags, ids, signing: signingOf({ requireSigned, trustKey }) }, out, err);
    });

  program
    .command('uninstall')
    .description('remove an installed loadout: its unchanged files, its MCP servers, the folders it created when left empty')
    .argument('<id>', 'loadout id')
    .option('--agent <agent>', 'only the install for this agent (default: every agent)')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the install in your home folder')
    .option('--dry-run', 'show what would be removed; remove nothing')
    .option('--force', 'also act on files installed outside the agent\'s own locations (changed files are still kept)')
    .option('--json', 'print {removed, files_removed, reverted, kept, folders_removed, uninstalled} as JSON')
    .action(async (id: string, _flags: object, command: Command) => {
      const { uninstallCommand } = await import('./commands/uninstall.js');
      ctx.code = await uninstallCommand({ ...flagsOf<Omit<UninstallCommandOptions, 'id'>>(command), id }, out, err);
    });

  program
    .command('verify-cli')
    .description("check a signed catalogue's own CLI tarball against its signed snapshot before you run it (docs/signing.md)")
    .requiredOption('--from <url-or-dir>', 'catalogue base URL, or a built tree')
    .option('--version <version>', "the CLI version to check (default: the catalogue's latest)")
    .option('--out <file>', 'write the checked tarball here, to run with npx -y <file>')
    .option('--dir <dir>', 'project folder whose lock may pin the catalogue\'s keys', '.')
    .option('--global', 'use the lock of your home folder')
    .option('--json', 'print {source, path, version, sha256, integrity, bytes, signed, written} as JSON')
    .option('--trust-key <keyid>', 'also trust this signing key id, after checking it with the maintainers (repeatable)', collect, [] as string[])
    .action(async (_flags: object, command: Command) => {
      const { trustKey, ...flags } = flagsOf<Omit<VerifyCliCommandOptions, 'signing'> & { trustKey: string[] }>(command);
      const { verifyCliCommand } = await import('./commands/verify-cli.js');
      ctx.code = await verifyCliCommand({ ...flags, signing: { trustKeys: trustKey } }, out);
    });

  program
    .command('recover')
    .description('deal with the journal an interrupted install, update or uninstall left: roll it back now, or --set-aside')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--set-aside', 'act on nothing: move the journal and its temporary files to .loadout/interrupted/<time>/ (a journal that cannot be used stops every install, update and uninstall)')
    .option('--json', 'print {journal, found, recovered?, set_aside?: {folder, moved, left}} as JSON')
    .action(async (_flags: object, command: Command) => {
      const { recoverCommand } = await import('./commands/recover.js');
      ctx.code = await recoverCommand(flagsOf<RecoverCommandOptions>(command), out);
    });

  const policy = program.command('policy').description("check a project's policy, or sign one to publish at an address (docs/policy.md)");
  policy
    .command('check')
    .description('read a policy as install, update, outdated and status read it, and print its rules; each problem is named by line and column')
    .argument('[path-or-url]', `the policy (default: ${POLICY_VARIABLE}, else ${POLICY_FILE} in --dir)`)
    .option('--dir <dir>', 'project folder', '.')
    .option('--policy-key <key>', `the public key (base64) that must have signed the policy (repeatable; default ${POLICY_KEY_VARIABLE})`, collect, [] as string[])
    .option('--json', 'print {where, signed_by, policy} as JSON')
    .action(async (location: string | undefined, _flags: object, command: Command) => {
      const { policyCheckCommand } = await import('./commands/policy.js');
      ctx.code = await policyCheckCommand(location, flagsOf<{ dir: string; policyKey: string[]; json: boolean }>(command), out, err);
    });
  policy
    .command('sign')
    .description('sign a policy with an Ed25519 key (PKCS#8 PEM) into a DSSE envelope, for --policy <url> --policy-key <public key>')
    .argument('<file>', 'the policy, YAML')
    .requiredOption('--key-file <pem>', 'the private key, as `openssl genpkey -algorithm ed25519` writes it')
    .option('--out <file>', 'write the envelope here (default: standard output)')
    .action(async (file: string, _flags: object, command: Command) => {
      const { policySignCommand } = await import('./commands/policy.js');
      ctx.code = await policySignCommand(file, flagsOf<{ keyFile: string; out?: string }>(command), rawOut, err);
    });

  withPolicyFlags(program
    .command('status')
    .description('the drift check: each installed file ok, changed or missing, untracked files, and what the policy refuses; exit 1 on changed or missing, a policy broken, or when nothing is installed')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--allow-empty', 'exit 0 when nothing is installed (by default that is an error: a CI gate on the wrong folder fails)')
    .option('--json', 'print {scope, lock, files, untracked, policy, ok} as JSON'))
    .action(async (_flags: object, command: Command) => {
      const { statusCommand } = await import('./commands/status.js');
      ctx.code = await statusCommand(flagsOf<StatusCommandOptions>(command), out, err);
    });

  program
    .command('doctor')
    .description("check what every installed loadout requires on this machine (tools on PATH in range, environment variables, MCP servers); exit 1 when something is missing")
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--json', 'print {scope, lock, loadouts: [{id, version, agents, source, requirements, ok, error?}], ok} as JSON')
    .action(async (_flags: object, command: Command) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      ctx.code = await doctorCommand(flagsOf<DoctorCommandOptions>(command), out, err);
    });

  program
    .command('sbom')
    .description('the software bill of materials of the installed loadouts and the packages their MCP servers start, as CycloneDX 1.6 or SPDX 2.3 JSON')
    .option('--format <format>', 'cyclonedx (CycloneDX 1.6 JSON, the default) or spdx (SPDX 2.3 JSON)')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source (for the licences)")
    .option('--offline', 'read no catalogue: every licence is NOASSERTION')
    .option('--allow-empty', 'exit 0 when nothing is installed (by default that is an error)')
    .action(async (_flags: object, command: Command) => {
      const { sbomCommand } = await import('./commands/sbom.js');
      ctx.code = await sbomCommand({ ...flagsOf<Omit<SbomCommandOptions, 'toolVersion' | 'meta'>>(command), toolVersion: version }, out, err);
    });
}
