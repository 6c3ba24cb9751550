/**
 * The `loadout` CLI: declares commands and flags, lazily imports each command, and turns
 * errors into exit codes in one place (STYLE.md: changesets' cli.ts). Commands return exit
 * codes; the core never prints or exits.
 */
import { Command, Option } from 'commander';
import { declareConsumerCommands, type CommandContext } from './consumer-commands.js';
import type { ResolvedConfig } from './config.js';
import { EXIT } from './exit.js';
import { quietOnClosedPipe, runProgram } from './run-program.js';

quietOnClosedPipe();

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, args…).
 * @returns the exit code: 0 success, 1 failure, 2 usage error (DESIGN.md section 2).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const ctx: CommandContext = { code: EXIT.ok };
  // Read when a command needs it: config.ts loads the submissions' challenge settings.
  const resolveConfig = async (): Promise<ResolvedConfig> => (await import('./config.js')).resolveConfig();
  const program = new Command('loadout')
    .description('Validate, verify, build and serve a catalogue of loadouts for coding agents.')
    .addOption(new Option('--root <dir>', 'catalogue root (holds loadouts/)').default(process.cwd(), 'the current folder'))
    .showHelpAfterError()
    .showSuggestionAfterError()
    .exitOverride();
  const root = (): string => program.opts<{ root: string }>().root;

  program
    .command('new')
    .description('scaffold loadouts/<id>/ with a valid loadout.yaml, AGENTS.md and generated adapters')
    .argument('<id>', 'loadout id (a slug)')
    .action(async (id: string) => {
      const { newCommand } = await import('./commands/new.js');
      ctx.code = await newCommand({ root: root(), id, today: new Date().toISOString().slice(0, 10) }, out);
    });

  program
    .command('import')
    .description('make loadouts/<id>/ from skills, Copilot instructions or agents, Cursor rules, a Claude Code plugin or an AGENTS.md, then verify it')
    .argument('<path>', 'the folder or file to import')
    .option('--id <id>', 'loadout id (default: from the plugin, the single skill or the folder name)')
    .option('--author <name>', 'the author to credit when the source names none (else the placeholder, which the listing check refuses)')
    .option('--dry-run', 'show what would be written and how it checks; write nothing')
    .option('--json', 'print {id, dir, written, files, skipped, todo, checks} as JSON')
    .action(async (source: string, opts: { id?: string; author?: string; dryRun?: boolean; json?: boolean }) => {
      const { importCommand } = await import('./commands/import.js');
      ctx.code = await importCommand({ root: root(), source, dryRun: opts.dryRun === true, json: opts.json === true, today: new Date().toISOString().slice(0, 10), ...(opts.id === undefined ? {} : { id: opts.id }), ...(opts.author === undefined ? {} : { author: opts.author }) }, out);
    });

  program
    .command('validate')
    .description('check loadout.yaml against the schema and the files present (the listing check)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, valid, errors}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js');
      ctx.code = await validateCommand({ root: root(), ids, json: opts.json === true }, out, err);
    });

  program
    .command('adapters')
    .description('write the CLAUDE.md and GEMINI.md adapters from the generator (or --check them)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--check', 'write nothing; exit 1 when an adapter differs from the generator')
    .action(async (ids: string[], opts: { check?: boolean }) => {
      const { adaptersCommand } = await import('./commands/adapters.js');
      ctx.code = await adaptersCommand({ root: root(), ids, check: opts.check === true }, out, err);
    });

  program
    .command('verify')
    .description('run the ten checks on each loadout')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, verification}] as JSON')
    .option('--markdown', 'print a Markdown table per loadout (for a CI job summary)')
    .action(async (ids: string[], opts: { json?: boolean; markdown?: boolean }) => {
      const { verifyCommand } = await import('./commands/verify.js');
      ctx.code = await verifyCommand({ root: root(), ids, json: opts.json === true, markdown: opts.markdown === true }, out);
    });

  program
    .command('build')
    .description('check every loadout and write the static API tree')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--base-url <url>', 'base address of the published URLs (default: LOADOUT_BASE_URL, else http://localhost:<PORT or 8787>)')
    .option('--clean', 'build every loadout again, ignoring what the previous build left')
    .action(async (opts: { out: string; baseUrl?: string; clean?: boolean }) => {
      const config = await resolveConfig();
      const { buildCommand } = await import('./commands/build.js');
      const progress = process.stderr.isTTY && process.env['CI'] === undefined;
      ctx.code = await buildCommand({ root: root(), out: opts.out, baseUrl: opts.baseUrl ?? config.baseUrl, progress, clean: opts.clean === true }, out, err);
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
    .action(async (opts: { bucket: string; out: string; prefix: string; endpoint?: string; region?: string; forcePathStyle?: boolean; delete?: boolean; dryRun?: boolean; concurrency?: string; json?: boolean }) => {
      const { publishCommand } = await import('./commands/publish.js');
      const progress = process.stderr.isTTY && process.env['CI'] === undefined;
      const { forcePathStyle, delete: del, dryRun, json, ...rest } = opts;
      ctx.code = await publishCommand({ ...rest, forcePathStyle: forcePathStyle === true, delete: del === true, dryRun: dryRun === true, json: json === true, progress }, out, err);
    });

  program
    .command('serve')
    .description('serve the built tree and the dynamic API')
    .option('--port <port>', 'port (default: PORT or 8787); without LOADOUT_BASE_URL the published addresses follow it and --host')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--out <dir>', 'built tree to serve', 'dist')
    .action(async (opts: { port?: string; host: string; out: string }) => {
      const { resolveConfig: resolve, parsePort, localBaseUrl } = await import('./config.js');
      const resolved = resolve();
      const { serveCommand } = await import('./commands/serve.js');
      const port = opts.port === undefined ? resolved.port : parsePort(opts.port, '--port');
      // Without LOADOUT_BASE_URL, the published addresses are where this server answers.
      const config = resolved.baseUrlSet ? resolved : { ...resolved, baseUrl: localBaseUrl(opts.host, port) };
      const server = await serveCommand({ out: opts.out, port, host: opts.host, config }, out, err);
      const stop = (): void => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  declareConsumerCommands(program, ctx, out, err);

  const keys = program.command('keys').description('API keys for agents (the key is printed once; only its hash is stored)');
  keys
    .command('create')
    .description('create a key and print it once')
    .requiredOption('--name <name>', 'who the key is for')
    .action(async (opts: { name: string }) => {
      const { keysCreateCommand } = await import('./commands/keys.js');
      ctx.code = await keysCreateCommand({ databaseUrl: (await resolveConfig()).databaseUrl, name: opts.name }, out);
    });
  keys
    .command('list')
    .description('list keys: id, name, created, last used, revoked')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { keysListCommand } = await import('./commands/keys.js');
      ctx.code = await keysListCommand({ databaseUrl: (await resolveConfig()).databaseUrl, json: opts.json === true }, out);
    });
  keys
    .command('revoke')
    .description('revoke a key')
    .argument('<id>', 'the key id (lk_<prefix>) as `keys list` shows')
    .action(async (id: string) => {
      const { keysRevokeCommand } = await import('./commands/keys.js');
      ctx.code = await keysRevokeCommand({ databaseUrl: (await resolveConfig()).databaseUrl, id }, out, err);
    });

  program
    .command('db')
    .description('database tasks')
    .command('migrate')
    .description('bring the database (DATABASE_URL) to the latest migration')
    .action(async () => {
      const { dbMigrateCommand } = await import('./commands/db.js');
      ctx.code = await dbMigrateCommand({ databaseUrl: (await resolveConfig()).databaseUrl }, out);
    });

  const submissions = program.command('submissions').description('review submissions and run the pull-request bot');
  submissions
    .command('list')
    .description('list submissions, newest first')
    .option('--status <status>', 'only submissions in this state')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { status?: string; json?: boolean }) => {
      const { submissionsListCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsListCommand({ databaseUrl: (await resolveConfig()).databaseUrl, json: opts.json === true, ...(opts.status === undefined ? {} : { status: opts.status }) }, out);
    });
  submissions
    .command('show')
    .description('show a submission: fields, contact, checks, files, events')
    .argument('<id>', 'submission id')
    .option('--json', 'print it as JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const { submissionsShowCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsShowCommand({ databaseUrl: (await resolveConfig()).databaseUrl, id, json: opts.json === true }, out);
    });
  for (const decision of ['accept', 'reject'] as const) {
    const command = submissions
      .command(decision)
      .description(decision === 'accept' ? 'accept a submission that passed its checks' : 'reject a submission, with a reason')
      .argument('<id>', 'submission id')
      .option('--by <name>', 'the maintainer recorded as actor', process.env['USER'] ?? 'maintainer');
    if (decision === 'reject') command.requiredOption('--reason <reason>', 'why, for the submitter');
    command.action(async (id: string, opts: { by: string; reason?: string }) => {
      const { submissionsDecideCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsDecideCommand({ databaseUrl: (await resolveConfig()).databaseUrl, id, decision, by: opts.by, ...(opts.reason === undefined ? {} : { reason: opts.reason }) }, out, err);
    });
  }
  submissions
    .command('pr')
    .description('push a branch and open (or update) a pull request for each accepted submission (GITHUB_TOKEN, GITHUB_REPOSITORY)')
    .argument('[id...]', 'submission ids (default: every accepted submission)')
    .option('--remote <remote>', 'git remote to push to', 'origin')
    .option('--base <branch>', 'branch of the remote to start from and merge into', 'main')
    .option('--dry-run', 'check and commit in a temporary worktree; push, open and record nothing')
    .option('--json', 'print [{submission, loadout_id, branch, pr_url, action, reason?}] as JSON')
    .action(async (ids: string[], opts: { remote: string; base: string; dryRun?: boolean; json?: boolean }) => {
      const { submissionsPrCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsPrCommand({ databaseUrl: (await resolveConfig()).databaseUrl, root: root(), ids, remote: opts.remote, base: opts.base, dryRun: opts.dryRun === true, json: opts.json === true, env: process.env }, out, err);
    });
  submissions
    .command('sync')
    .description('move pr-opened submissions to merged or closed when their pull request ended')
    .argument('[id...]', 'submission ids (default: every pr-opened submission)')
    .option('--json', 'print [{submission, loadout_id, pr_url, pull_request, status, changed, refused?}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { submissionsSyncCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsSyncCommand({ databaseUrl: (await resolveConfig()).databaseUrl, ids, json: opts.json === true, env: process.env }, out, err);
    });

  return runProgram(program, argv, () => ctx.code, out, err);
}
