/**
 * The `loadout` CLI: declares commands and flags, lazily imports each command, and turns
 * errors into exit codes in one place (STYLE.md: changesets' cli.ts). Commands return exit
 * codes; the core never prints or exits. What a command runs with is resolved in options.ts
 * (defaults, environment, flags); an action only hands it on.
 */
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { BuildCommandOptions } from './commands/build.js';
import type { ImportCommandOptions } from './commands/import.js';
import type { PublishCommandOptions } from './commands/publish.js';
import { declareCiCommands } from './ci-commands.js';
import { declareConsumerCommands, type CommandContext } from './consumer-commands.js';
import { declareMaintainerCommands } from './maintainer-commands.js';
import { EXIT } from './exit.js';
import { flagsOf } from './flags.js';
import type { ResolvedConfig } from './config.js';
import { resolveCliOptions, type ResolvedCliOptions } from './options.js';
import { createProgram, quietOnClosedPipe, runProgram } from './run-program.js';

quietOnClosedPipe();

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, args…).
 * @returns the exit code: 0 success, 1 failure, 2 usage error (DESIGN.md section 2).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const ctx: CommandContext = { code: EXIT.ok };
  const program = createProgram('Validate, verify, build and serve a catalogue of loadouts for coding agents.').addOption(
    new Option('--root <dir>', 'catalogue root (holds loadouts/)').default(process.cwd(), 'the current folder'),
  );
  // Resolved when the command runs, once parsing has read --root; one command runs per call.
  let resolved: ResolvedCliOptions | undefined;
  const run = (): ResolvedCliOptions => (resolved ??= resolveCliOptions({ root: program.opts<{ root: string }>().root, env: process.env, now: new Date(), stderrIsTTY: process.stderr.isTTY === true }));

  declareCatalogueCommands(program, ctx, run);
  declareConsumerCommands(program, ctx, out, err, readOwnVersion());
  declareMaintainerCommands(program, ctx, run, out, err);
  declareCiCommands(program, ctx, run, readOwnVersion(), out, err);
  return runProgram(program, argv, readOwnVersion(), () => ctx.code, out, err);
}

/** The repository's version, from its `package.json` (two folders up from `src/cli/` and from `lib/cli/`). */
function readOwnVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** The commands that make and serve a catalogue: new, import, validate, adapters, verify, build, publish, serve. */
function declareCatalogueCommands(program: Command, ctx: CommandContext, run: () => ResolvedCliOptions): void {
  program
    .command('new')
    .description('scaffold loadouts/<id>/ with a valid loadout.yaml, AGENTS.md and generated adapters')
    .argument('<id>', 'loadout id (a slug)')
    .action(async (id: string) => {
      const { newCommand } = await import('./commands/new.js');
      ctx.code = await newCommand({ root: run().root, id, today: run().today }, out);
    });

  program
    .command('import')
    .description('make loadouts/<id>/ from skills, Copilot instructions or agents, Cursor rules, a Claude Code plugin or an AGENTS.md, then verify it')
    .argument('<path>', 'the folder or file to import')
    .option('--id <id>', 'loadout id (default: from the plugin, the single skill or the folder name)')
    .option('--author <name>', 'the author to credit when the source names none (else the placeholder, which the listing check refuses)')
    .option('--dry-run', 'show what would be written and how it checks; write nothing')
    .option('--json', 'print {id, dir, written, files, skipped, todo, checks} as JSON')
    .action(async (source: string, _flags: object, command: Command) => {
      const { importCommand } = await import('./commands/import.js');
      const flags = flagsOf<Pick<ImportCommandOptions, 'id' | 'author' | 'dryRun' | 'json'>>(command);
      ctx.code = await importCommand({ ...flags, root: run().root, source, today: run().today }, out);
    });

  program
    .command('validate')
    .description('check loadout.yaml against the schema and the files present (the listing check), and each bundles/<id>/bundle.yaml')
    .argument('[id...]', 'loadout or bundle ids (default: all)')
    .option('--json', 'print [{id, valid, errors}] as JSON (a bundle\'s with kind "bundle")')
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { validateCommand } = await import('./commands/validate.js');
      ctx.code = await validateCommand({ ...flagsOf<{ json: boolean }>(command), root: run().root, ids }, out, err);
    });

  program
    .command('adapters')
    .description('write the CLAUDE.md and GEMINI.md adapters from the generator (or --check them)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--check', 'write nothing; exit 1 when an adapter differs from the generator')
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { adaptersCommand } = await import('./commands/adapters.js');
      ctx.code = await adaptersCommand({ ...flagsOf<{ check: boolean }>(command), root: run().root, ids }, out, err);
    });

  program
    .command('verify')
    .description('run the ten checks on each loadout, and check each bundle')
    .argument('[id...]', 'loadout or bundle ids (default: all)')
    .option('--format <format>', 'text, json ([{id, verification}], then {id, kind: "bundle", valid, errors} per bundle), markdown (a table per loadout, for a CI job summary) or sarif (SARIF 2.1.0, for code scanning)')
    .option('--json', 'print JSON (--format json)')
    .option('--markdown', 'print a Markdown table per loadout, for a CI job summary (--format markdown)')
    .option('--allow-consent <kinds>', 'as loadout build: notices instead of failures for these kinds of content needing consent (default: LOADOUT_ALLOW_CONSENT)')
    .option('--policy <path-or-url>', "a maintainer's policy: what it refuses of a loadout fails its checks as policy/<rule> findings (docs/policy.md)")
    .option('--policy-key <key>', 'the public key (base64) that must have signed the policy (repeatable; default LOADOUT_POLICY_KEY)', (value: string, all: string[]) => [...all, value], [] as string[])
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { verifyCommand } = await import('./commands/verify.js');
      ctx.code = await verifyCommand({ ...flagsOf<{ json: boolean; markdown: boolean; format?: string; allowConsent?: string; policy?: string; policyKey: string[] }>(command), root: run().root, ids, version: readOwnVersion(), allDetails: process.stdout.isTTY === true }, out);
    });

  program
    .command('build')
    .description('check every loadout and write the static API tree')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--base-url <url>', 'base address of the published URLs (default: LOADOUT_BASE_URL, else http://localhost:<PORT or 8787>)')
    .option('--clean', 'build every loadout again, ignoring what the previous build left')
    .option('--no-plugins', 'leave out the native plugins (plugins/ and the plugin zips)')
    .option('--cli-published <version>', 'loadout-cli is on the npm registry at this version, the one the build packs: the pages then show npx -y loadout-cli@<version> (default: LOADOUT_CLI_PUBLISHED)')
    .option('--allow-consent <kinds>', 'publish content that needs the user\'s consent (hook, permission-mode, auto-approval, wildcard-grant; comma-separated) with notices instead of refusing it: the installer still asks each user and plugins never carry it (default: LOADOUT_ALLOW_CONSENT)')
    .option('--policy <path-or-url>', "a maintainer's policy: a loadout it refuses fails its checks, and the build is refused (docs/policy.md)")
    .option('--policy-key <key>', 'the public key (base64) that must have signed the policy (repeatable; default LOADOUT_POLICY_KEY)', (value: string, all: string[]) => [...all, value], [] as string[])
    .action(async (_flags: object, command: Command) => {
      const { baseUrl, ...flags } = flagsOf<Pick<BuildCommandOptions, 'out' | 'clean' | 'plugins' | 'cliPublished' | 'allowConsent' | 'policy' | 'policyKey'> & { baseUrl?: string }>(command);
      const config = await run().config();
      const { buildCommand } = await import('./commands/build.js');
      ctx.code = await buildCommand({ ...flags, root: run().root, baseUrl: baseUrl ?? config.baseUrl, progress: run().progress }, out, err);
    });

  program
    .command('publish')
    .description('sync the built tree to S3-compatible object storage (credentials and region from the AWS SDK chain)')
    .requiredOption('--bucket <name>', 'bucket to publish to')
    .option('--out <dir>', 'built tree to publish', 'dist')
    .option('--prefix <prefix>', 'key prefix, ending in "/" (default: none)', '')
    .option('--endpoint <url>', 'S3-compatible endpoint (default: AWS_ENDPOINT_URL_S3 or AWS)')
    .option('--region <region>', 'region (default: AWS_REGION; "auto" for R2)')
    .option('--force-path-style', 'address the bucket as <endpoint>/<bucket> (MinIO and most local stores)')
    .option('--delete', 'delete stale objects (never a pinned version\'s files)')
    .option('--dry-run', 'print the plan; write nothing')
    .option('--concurrency <n>', 'requests in flight (default 8)')
    .option('--json', 'print {uploaded, unchanged, deleted, bytes_uploaded}')
    .option('--plugins-remote <remote>', 'also push the tree\'s plugins/ to a branch of this git remote (a remote of the catalogue\'s repository, or a git URL) for the agents\' marketplace add')
    .option('--plugins-branch <branch>', 'the branch --plugins-remote gets', 'plugins')
    .action(async (_flags: object, command: Command) => {
      const { publishCommand } = await import('./commands/publish.js');
      ctx.code = await publishCommand({ ...flagsOf<Omit<PublishCommandOptions, 'progress'>>(command), progress: run().progress }, out, err);
    });

  const declareServer = (name: string, description: string, portHelp: string, outHelp: string, start: (flags: { host: string; out: string }, port: number, config: ResolvedConfig) => Promise<{ close(): Promise<void> }>): void => {
    program
      .command(name)
      .description(description)
      .option('--port <port>', portHelp)
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--out <dir>', outHelp, 'dist')
      .action(async (_flags: object, command: Command) => {
        const flags = flagsOf<{ port?: string; host: string; out: string }>(command);
        const { resolveServeConfig } = await import('./config.js');
        const { port, config } = resolveServeConfig(await run().config(), flags);
        const running = await start(flags, port, config);
        const stop = (): void => void running.close().then(() => process.exit(0));
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
  };
  declareServer('dev', 'build, serve and watch loadouts/: pages reload on each change and show the checks and context cost', 'port (default: PORT or 8787)', 'output folder', async (flags, port, config) => {
    const { devCommand } = await import('./commands/dev.js');
    return devCommand({ root: run().root, out: flags.out, baseUrl: config.baseUrl, host: flags.host, port }, out, err);
  });
  declareServer('serve', 'serve the built tree and the dynamic API', 'port (default: PORT or 8787); without LOADOUT_BASE_URL the published addresses follow it and --host', 'built tree to serve', async (flags, port, config) => {
    const { serveCommand } = await import('./commands/serve.js');
    return serveCommand({ out: flags.out, port, host: flags.host, config }, out, err);
  });
}
