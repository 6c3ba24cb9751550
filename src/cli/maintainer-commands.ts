/**
 * The maintainers' commands of the full `loadout` (main.ts): API keys, database migrations and
 * the submissions' review and pull-request bot (DESIGN.md section 2). Each command's module is
 * imported when it runs; what it runs with comes from options.ts and its flags (flags.ts).
 */
import type { Command } from 'commander';
import type { CommandContext } from './consumer-commands.js';
import { flagsOf } from './flags.js';
import type { ResolvedCliOptions } from './options.js';
import type { Write } from './report.js';

/** Declares `keys`, `db` and `submissions` on `program`; their actions write to `out` and `err` and set `ctx.code`. */
export function declareMaintainerCommands(program: Command, ctx: CommandContext, run: () => ResolvedCliOptions, out: Write, err: Write): void {
  const databaseUrl = async (): Promise<string> => (await run().config()).databaseUrl;
  const keys = program.command('keys').description('API keys for agents (the key is printed once; only its hash is stored)');
  keys
    .command('create')
    .description('create a key and print it once')
    .requiredOption('--name <name>', 'who the key is for')
    .action(async (opts: { name: string }) => {
      const { keysCreateCommand } = await import('./commands/keys.js');
      ctx.code = await keysCreateCommand({ databaseUrl: await databaseUrl(), name: opts.name }, out);
    });
  keys
    .command('list')
    .description('list keys: id, name, created, last used, revoked')
    .option('--json', 'print the list as JSON')
    .action(async (_flags: object, command: Command) => {
      const { keysListCommand } = await import('./commands/keys.js');
      ctx.code = await keysListCommand({ ...flagsOf<{ json: boolean }>(command), databaseUrl: await databaseUrl() }, out);
    });
  keys
    .command('revoke')
    .description('revoke a key')
    .argument('<id>', 'the key id (lk_<prefix>) as `keys list` shows')
    .action(async (id: string) => {
      const { keysRevokeCommand } = await import('./commands/keys.js');
      ctx.code = await keysRevokeCommand({ databaseUrl: await databaseUrl(), id }, out, err);
    });

  program
    .command('db')
    .description('database tasks')
    .command('migrate')
    .description('bring the database (DATABASE_URL) to the latest migration')
    .action(async () => {
      const { dbMigrateCommand } = await import('./commands/db.js');
      ctx.code = await dbMigrateCommand({ databaseUrl: await databaseUrl() }, out);
    });

  const submissions = program.command('submissions').description('review submissions and run the pull-request bot');
  submissions
    .command('list')
    .description('list submissions, newest first')
    .option('--status <status>', 'only submissions in this state')
    .option('--json', 'print the list as JSON')
    .action(async (_flags: object, command: Command) => {
      const { submissionsListCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsListCommand({ ...flagsOf<{ status?: string; json: boolean }>(command), databaseUrl: await databaseUrl() }, out);
    });
  submissions
    .command('show')
    .description('show a submission: fields, contact, checks, files, events')
    .argument('<id>', 'submission id')
    .option('--json', 'print it as JSON')
    .action(async (id: string, _flags: object, command: Command) => {
      const { submissionsShowCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsShowCommand({ ...flagsOf<{ json: boolean }>(command), databaseUrl: await databaseUrl(), id }, out);
    });
  for (const decision of ['accept', 'reject'] as const) {
    const command = submissions
      .command(decision)
      .description(decision === 'accept' ? 'accept a submission that passed its checks' : 'reject a submission, with a reason')
      .argument('<id>', 'submission id')
      .option('--by <name>', 'the maintainer recorded as actor (default: USER, else "maintainer")');
    if (decision === 'reject') command.requiredOption('--reason <reason>', 'why, for the submitter');
    command.action(async (id: string) => {
      const { submissionsDecideCommand } = await import('./commands/submissions.js');
      const { by, reason } = flagsOf<{ by?: string; reason?: string }>(command);
      ctx.code = await submissionsDecideCommand({ databaseUrl: await databaseUrl(), id, decision, by: by ?? run().maintainer, reason }, out, err);
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
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { submissionsPrCommand } = await import('./commands/submissions.js');
      const flags = flagsOf<{ remote: string; base: string; dryRun: boolean; json: boolean }>(command);
      const { policyLocation } = await run().config();
      ctx.code = await submissionsPrCommand({ ...flags, databaseUrl: await databaseUrl(), root: run().root, ids, env: run().env, ...(policyLocation === undefined ? {} : { policy: policyLocation }) }, out, err);
    });
  submissions
    .command('sync')
    .description('move pr-opened submissions to merged or closed when their pull request ended')
    .argument('[id...]', 'submission ids (default: every pr-opened submission)')
    .option('--json', 'print [{submission, loadout_id, pr_url, pull_request, status, changed, refused?}] as JSON')
    .action(async (ids: string[], _flags: object, command: Command) => {
      const { submissionsSyncCommand } = await import('./commands/submissions.js');
      ctx.code = await submissionsSyncCommand({ ...flagsOf<{ json: boolean }>(command), databaseUrl: await databaseUrl(), ids, env: run().env }, out, err);
    });
}
