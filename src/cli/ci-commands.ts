/**
 * `loadout ci verify` and `loadout ci update-pr`: the scripts of the repository's GitHub Actions
 * (actions/verify/action.yml and actions/update/action.yml; docs/authoring.md "Checking in GitHub
 * Actions"), commands of their own so that they run, and are tested, anywhere. Each command's
 * module is imported when it runs.
 */
import type { Command } from 'commander';
import type { CiUpdatePrOptions } from './commands/ci-update-pr.js';
import type { CommandContext } from './consumer-commands.js';
import { flagsOf } from './flags.js';
import type { ResolvedCliOptions } from './options.js';
import type { Write } from './report.js';

/** Declares the `ci` group on `program`; its actions write to `out` and `err` and set `ctx.code`. `version` is this CLI's. */
export function declareCiCommands(program: Command, ctx: CommandContext, run: () => ResolvedCliOptions, version: string, out: Write, err: Write): void {
  const ci = program.command('ci').description('the scripts of the GitHub Actions: verify a repository, open a pull request with updates');
  ci.command('verify')
    .description('check a repository of loadouts, or of Agent Skills folders (each imported as loadout import would, nothing written); print the checks, and write a job summary and a SARIF log')
    .argument('[path]', 'the repository, or the folder in it that holds loadouts/ or the skills folders', '.')
    .option('--sarif <file>', 'write the SARIF 2.1.0 log here, paths relative to the git repository (for code scanning)')
    .option('--summary <file>', 'append the Markdown report here (in GitHub Actions: $GITHUB_STEP_SUMMARY)')
    .option('--author <name>', 'the author an imported skill is credited to when the git remote names no GitHub owner')
    .option('--policy <path-or-url>', "a maintainer's policy: what it refuses fails the checks as policy/<rule> findings (docs/policy.md)")
    .option('--policy-key <key>', 'the public key (base64) that must have signed the policy (repeatable; default LOADOUT_POLICY_KEY)', (value: string, all: string[]) => [...all, value], [] as string[])
    .action(async (path: string, _flags: object, command: Command) => {
      const { ciVerifyCommand } = await import('./commands/ci-verify.js');
      ctx.code = await ciVerifyCommand({ ...flagsOf<{ sarif?: string; summary?: string; author?: string; policy?: string; policyKey: string[] }>(command), path, today: run().today, version }, out);
    });
  ci.command('update-pr')
    .description('run loadout outdated and loadout update on the base branch (under loadout-policy.yaml when it is there) and open or update one pull request with the changes, changelog and capability change')
    .option('--dir <dir>', 'project folder (holds the lock), inside its git repository', '.')
    .option('--remote <remote>', 'the remote to fetch the base branch from and push to', 'origin')
    .option('--base <branch>', 'the branch to update', 'main')
    .option('--branch <branch>', 'the branch of the pull request', 'loadout/update')
    .option('--policy <file>', 'policy file, relative to the project folder, passed to outdated and update when the base branch has it (default: loadout-policy.yaml)')
    .option('--from <url-or-dir>', "read every catalogue here instead of each install's source")
    .option('--dry-run', 'update and commit in a temporary worktree; push nothing, open nothing, print the pull request')
    .option('--json', 'print {action, branch, pr_url, outdated, errors, policy, reason?, title?, body?}')
    .action(async (_flags: object, command: Command) => {
      const { ciUpdatePrCommand } = await import('./commands/ci-update-pr.js');
      ctx.code = await ciUpdatePrCommand({ ...flagsOf<Omit<CiUpdatePrOptions, 'env'>>(command), env: process.env }, out, err);
    });
}
