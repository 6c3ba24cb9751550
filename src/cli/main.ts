/**
 * The `loadout` CLI: declares commands and flags, lazily imports each command, and turns
 * errors into exit codes in one place (STYLE.md: changesets' cli.ts). Commands return exit
 * codes; the core never prints or exits.
 */
import { Command, CommanderError, Option } from 'commander';
import { LoadoutError } from '../catalogue/errors.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { resolveConfig, parsePort } from './config.js';
import { EXIT, ExitError } from './exit.js';

// A reader that stops early (`loadout verify | head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

/**
 * Runs the CLI with `argv` (as `process.argv`: node, script, args…).
 * @returns the exit code: 0 success, 1 failure, 2 usage error (DESIGN.md section 2).
 */
export async function main(argv: readonly string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('loadout')
    .description('Validate, verify, build and serve a catalogue of loadouts for coding agents.')
    .addOption(new Option('--root <dir>', 'catalogue root (holds loadouts/)').default(process.cwd(), 'the current folder'))
    .showHelpAfterError()
    .exitOverride();
  const root = (): string => program.opts<{ root: string }>().root;

  program
    .command('new')
    .description('scaffold loadouts/<id>/ with a valid loadout.yaml, AGENTS.md and generated adapters')
    .argument('<id>', 'loadout id (a slug)')
    .action(async (id: string) => {
      const { newCommand } = await import('./commands/new.js');
      code = await newCommand({ root: root(), id, today: new Date().toISOString().slice(0, 10) }, out);
    });

  program
    .command('import')
    .description('make loadouts/<id>/ from skills, Copilot instructions or agents, Cursor rules, a Claude Code plugin or an AGENTS.md, then verify it')
    .argument('<path>', 'the folder or file to import')
    .option('--id <id>', 'loadout id (default: from the plugin, the single skill or the folder name)')
    .option('--dry-run', 'show what would be written and how it checks; write nothing')
    .option('--json', 'print {id, dir, written, files, skipped, todo, checks} as JSON')
    .action(async (source: string, opts: { id?: string; dryRun?: boolean; json?: boolean }) => {
      const { importCommand } = await import('./commands/import.js');
      code = await importCommand({ root: root(), source, dryRun: opts.dryRun === true, json: opts.json === true, today: new Date().toISOString().slice(0, 10), ...(opts.id === undefined ? {} : { id: opts.id }) }, out);
    });

  program
    .command('validate')
    .description('check loadout.yaml against the schema and the files present (the listing check)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, valid, errors}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js');
      code = await validateCommand({ root: root(), ids, json: opts.json === true }, out, err);
    });

  program
    .command('adapters')
    .description('write the CLAUDE.md and GEMINI.md adapters from the generator (or --check them)')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--check', 'write nothing; exit 1 when an adapter differs from the generator')
    .action(async (ids: string[], opts: { check?: boolean }) => {
      const { adaptersCommand } = await import('./commands/adapters.js');
      code = await adaptersCommand({ root: root(), ids, check: opts.check === true }, out, err);
    });

  program
    .command('verify')
    .description('run the ten checks on each loadout')
    .argument('[id...]', 'loadout ids (default: all)')
    .option('--json', 'print [{id, verification}] as JSON')
    .option('--markdown', 'print a Markdown table per loadout (for a CI job summary)')
    .action(async (ids: string[], opts: { json?: boolean; markdown?: boolean }) => {
      const { verifyCommand } = await import('./commands/verify.js');
      code = await verifyCommand({ root: root(), ids, json: opts.json === true, markdown: opts.markdown === true }, out);
    });

  program
    .command('build')
    .description('check every loadout and write the static API tree')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--base-url <url>', 'base address of the published URLs (default: LOADOUT_BASE_URL or http://localhost:8787)')
    .option('--clean', 'build every loadout again, ignoring what the previous build left')
    .action(async (opts: { out: string; baseUrl?: string; clean?: boolean }) => {
      const config = resolveConfig();
      const { buildCommand } = await import('./commands/build.js');
      const progress = process.stderr.isTTY && process.env['CI'] === undefined;
      code = await buildCommand({ root: root(), out: opts.out, baseUrl: opts.baseUrl ?? config.baseUrl, progress, clean: opts.clean === true }, out, err);
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
      code = await publishCommand({ ...rest, forcePathStyle: forcePathStyle === true, delete: del === true, dryRun: dryRun === true, json: json === true, progress }, out, err);
    });

  program
    .command('serve')
    .description('serve the built tree and the dynamic API')
    .option('--port <port>', 'port (default: PORT or 8787)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--out <dir>', 'built tree to serve', 'dist')
    .action(async (opts: { port?: string; host: string; out: string }) => {
      const config = resolveConfig();
      const { serveCommand } = await import('./commands/serve.js');
      const port = opts.port === undefined ? config.port : parsePort(opts.port, '--port');
      const server = await serveCommand({ out: opts.out, port, host: opts.host, config }, out);
      const stop = (): void => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  program
    .command('search')
    .description('ranked search over the built catalogue, as GET /api/v1/search')
    .argument('[query...]', 'words to search for (none: list every loadout)')
    .option('--agent <agent>', 'only loadouts that support this agent')
    .option('--tags <tags>', 'comma-separated stacks and categories that a loadout must all have')
    .option('--category <category>', 'only loadouts in this category')
    .option('--verified <bool>', 'true or false')
    .option('--has <kind>', 'skills, mcp or rules')
    .option('--max-always-tokens <n>', 'only loadouts adding at most n tokens at every session start (for --agent, else for every agent they support)')
    .option('--limit <n>', 'results to show, 1 to 50 (default 20)')
    .option('--offset <n>', 'results to skip (default 0)')
    .option('--out <dir>', 'built tree to search', 'dist')
    .option('--json', 'print the GET /api/v1/search response as JSON')
    .action(async (words: string[], opts: { agent?: string; tags?: string; category?: string; verified?: string; has?: string; maxAlwaysTokens?: string; limit?: string; offset?: string; out: string; json?: boolean }) => {
      const { searchCommand } = await import('./commands/search.js');
      const { json, maxAlwaysTokens, ...flags } = opts;
      code = await searchCommand({ ...flags, ...(maxAlwaysTokens === undefined ? {} : { max_always_tokens: maxAlwaysTokens }), q: words.join(' '), json: json === true }, out);
    });

  program
    .command('install')
    .description('install a loadout into a project (or --global, your home folder) for one or more agents, and record it in the lock')
    .argument('<id>', 'loadout id')
    .requiredOption('--agent <agents>', `agents separated by commas (${PUBLISHED_AGENTS.join(', ')}), or "detected"`)
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'install into your home folder (~/.claude, ~/.codex, …), locked in ~/.config/loadout/lock.json')
    .option('--version <version>', 'version to install (default: latest)')
    .option('--from <url-or-dir>', 'catalogue base URL, or a built tree', 'dist')
    .option('--frozen', 'install exactly the version recorded in the lock')
    .option('--dry-run', 'show what would be written and its context cost; write nothing')
    .option('--force', 'overwrite files you changed since they were installed')
    .option('--json', 'print the outcomes (one per agent) as JSON')
    .action(async (id: string, opts: { agent: string; dir: string; global?: boolean; version?: string; from: string; frozen?: boolean; dryRun?: boolean; force?: boolean; json?: boolean }) => {
      const { installCommand } = await import('./commands/install.js');
      code = await installCommand(
        { id, agent: opts.agent, dir: opts.dir, global: opts.global === true, from: opts.from, frozen: opts.frozen === true, dryRun: opts.dryRun === true, force: opts.force === true, json: opts.json === true, ...(opts.version === undefined ? {} : { version: opts.version }) },
        out,
        err,
      );
    });

  program
    .command('outdated')
    .description('list installed loadouts with their latest version and local changes; exit 1 when one is outdated')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--json', 'print [{id, agent, installed, latest, outdated, changed, source}] as JSON')
    .action(async (opts: { dir: string; global?: boolean; from?: string; json?: boolean }) => {
      const { outdatedCommand } = await import('./commands/outdated.js');
      code = await outdatedCommand({ dir: opts.dir, global: opts.global === true, json: opts.json === true, ...(opts.from === undefined ? {} : { from: opts.from }) }, out, err);
    });

  program
    .command('update')
    .description('move installs to the latest version (or --to), showing the changelog, a diff per file and the context cost first')
    .argument('[id...]', 'loadout ids (default: every install in the lock)')
    .option('--agent <agent>', 'only the installs for this agent')
    .option('--to <version>', 'version to move to (default: latest)')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--dry-run', 'show the changes; write nothing')
    .option('--force', 'overwrite files you changed since they were installed')
    .option('--json', 'print {updates, current, written} as JSON')
    .action(async (ids: string[], opts: { agent?: string; to?: string; from?: string; dir: string; global?: boolean; dryRun?: boolean; force?: boolean; json?: boolean }) => {
      const { updateCommand } = await import('./commands/update.js');
      const { agent, to, from } = opts;
      code = await updateCommand({ ids, dir: opts.dir, global: opts.global === true, dryRun: opts.dryRun === true, force: opts.force === true, json: opts.json === true, ...(agent === undefined ? {} : { agent }), ...(to === undefined ? {} : { to }), ...(from === undefined ? {} : { from }) }, out, err);
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
    .action(async (id: string, opts: { agent?: string; dir: string; global?: boolean; dryRun?: boolean; force?: boolean; json?: boolean }) => {
      const { uninstallCommand } = await import('./commands/uninstall.js');
      code = await uninstallCommand({ id, dir: opts.dir, global: opts.global === true, dryRun: opts.dryRun === true, force: opts.force === true, json: opts.json === true, ...(opts.agent === undefined ? {} : { agent: opts.agent }) }, out, err);
    });

  program
    .command('status')
    .description('the drift check: each installed file ok, changed or missing, and untracked files; exit 1 on changed or missing')
    .option('--dir <dir>', 'project folder', '.')
    .option('--global', 'the installs in your home folder')
    .option('--json', 'print {scope, lock, files, untracked, ok} as JSON')
    .action(async (opts: { dir: string; global?: boolean; json?: boolean }) => {
      const { statusCommand } = await import('./commands/status.js');
      code = await statusCommand({ dir: opts.dir, global: opts.global === true, json: opts.json === true }, out);
    });

  const keys = program.command('keys').description('API keys for agents (the key is printed once; only its hash is stored)');
  keys
    .command('create')
    .description('create a key and print it once')
    .requiredOption('--name <name>', 'who the key is for')
    .action(async (opts: { name: string }) => {
      const { keysCreateCommand } = await import('./commands/keys.js');
      code = await keysCreateCommand({ databaseUrl: resolveConfig().databaseUrl, name: opts.name }, out);
    });
  keys
    .command('list')
    .description('list keys: id, name, created, last used, revoked')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { keysListCommand } = await import('./commands/keys.js');
      code = await keysListCommand({ databaseUrl: resolveConfig().databaseUrl, json: opts.json === true }, out);
    });
  keys
    .command('revoke')
    .description('revoke a key')
    .argument('<id>', 'the key id (lk_<prefix>) as `keys list` shows')
    .action(async (id: string) => {
      const { keysRevokeCommand } = await import('./commands/keys.js');
      code = await keysRevokeCommand({ databaseUrl: resolveConfig().databaseUrl, id }, out, err);
    });

  program
    .command('db')
    .description('database tasks')
    .command('migrate')
    .description('bring the database (DATABASE_URL) to the latest migration')
    .action(async () => {
      const { dbMigrateCommand } = await import('./commands/db.js');
      code = await dbMigrateCommand({ databaseUrl: resolveConfig().databaseUrl }, out);
    });

  const submissions = program.command('submissions').description('review submissions and run the pull-request bot');
  submissions
    .command('list')
    .description('list submissions, newest first')
    .option('--status <status>', 'only submissions in this state')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { status?: string; json?: boolean }) => {
      const { submissionsListCommand } = await import('./commands/submissions.js');
      code = await submissionsListCommand({ databaseUrl: resolveConfig().databaseUrl, json: opts.json === true, ...(opts.status === undefined ? {} : { status: opts.status }) }, out);
    });
  submissions
    .command('show')
    .description('show a submission: fields, contact, checks, files, events')
    .argument('<id>', 'submission id')
    .option('--json', 'print it as JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const { submissionsShowCommand } = await import('./commands/submissions.js');
      code = await submissionsShowCommand({ databaseUrl: resolveConfig().databaseUrl, id, json: opts.json === true }, out);
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
      code = await submissionsDecideCommand({ databaseUrl: resolveConfig().databaseUrl, id, decision, by: opts.by, ...(opts.reason === undefined ? {} : { reason: opts.reason }) }, out, err);
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
      code = await submissionsPrCommand({ databaseUrl: resolveConfig().databaseUrl, root: root(), ids, remote: opts.remote, base: opts.base, dryRun: opts.dryRun === true, json: opts.json === true, env: process.env }, out, err);
    });
  submissions
    .command('sync')
    .description('move pr-opened submissions to merged or closed when their pull request ended')
    .argument('[id...]', 'submission ids (default: every pr-opened submission)')
    .option('--json', 'print [{submission, loadout_id, pr_url, pull_request, status, changed, refused?}] as JSON')
    .action(async (ids: string[], opts: { json?: boolean }) => {
      const { submissionsSyncCommand } = await import('./commands/submissions.js');
      code = await submissionsSyncCommand({ databaseUrl: resolveConfig().databaseUrl, ids, json: opts.json === true, env: process.env }, out, err);
    });

  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    return exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ExitError) {
    if (error.message !== '') err(`loadout: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // Commander has printed its message; help and version are not errors.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof LoadoutError) {
    err(`loadout: ${error.message}\n`);
    if (error.hint !== undefined) err(`loadout: hint: ${error.hint}\n`);
    return error.code === 'usage' ? EXIT.usage : EXIT.failed;
  }
  err(`loadout: internal error (a bug, please report it): ${(error as Error).stack ?? String(error)}\n`);
  return EXIT.failed;
}
