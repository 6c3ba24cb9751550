/**
 * `loadout ci update-pr [--dir .] [--remote origin] [--base main] [--branch loadout/update]
 * [--policy FILE] [--from URL|DIR] [--dry-run] [--json]`: the script of the update Action
 * (actions/update/action.yml); the core is bot/update-pull-request.ts. GitHub comes from
 * `GITHUB_TOKEN`, `GITHUB_REPOSITORY` and `GITHUB_API_URL` (bot/config.ts), as for
 * `loadout submissions pr`; a dry run needs none of them.
 */
import { execFile } from 'node:child_process';
import { resolveBotIdentity, resolveGitHubSettings } from '../../bot/config.js';
import { createGitHubClient } from '../../bot/github-client.js';
import { openUpdatePullRequest, type CommandResult, type LoadoutRunner } from '../../bot/update-pull-request.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';
import { printable, printableJson, printableLine } from '../terminal-text.js';

/** Options of `loadout ci update-pr`. */
export interface CiUpdatePrOptions {
  dir: string;
  remote: string;
  base: string;
  branch: string;
  policy?: string;
  from?: string;
  dryRun: boolean;
  json: boolean;
  /** The environment to read GITHUB_* and LOADOUT_BOT_* from. */
  env: NodeJS.ProcessEnv;
}

/**
 * Runs the command. @returns 0 when the installs are current or the pull request was opened or
 * updated (or would be, on a dry run), 1 when it was skipped or a catalogue could not be read.
 * `--json`: `{action, branch, pr_url, outdated, errors, policy, reason?, title?, body?}`.
 * @throws LoadoutError `config` for missing or bad GITHUB_* settings (not on a dry run), and as
 *   bot/update-pull-request.ts says
 */
export async function ciUpdatePrCommand(options: CiUpdatePrOptions, out: Write, err: Write): Promise<number> {
  const identity = resolveBotIdentity(options.env);
  const github = options.dryRun ? undefined : createGitHubClient(resolveGitHubSettings(options.env), { warn: (message) => err(`loadout: ${printableLine(message)}\n`) });
  const outcome = await openUpdatePullRequest({
    dir: options.dir,
    remote: options.remote,
    base: options.base,
    branch: options.branch,
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.from === undefined ? {} : { from: options.from }),
    runLoadout: runThisCli,
    github,
    dryRun: options.dryRun,
    identity,
  });
  for (const e of outcome.errors) err(`loadout: ${printableLine(e)}\n`);
  if (options.json) out(`${printableJson(outcome)}\n`);
  else if (outcome.action === 'current') out(`everything installed is current${outcome.policy === null ? '' : ` under ${printableLine(outcome.policy)}`}\n`);
  else {
    const verb = options.dryRun ? { opened: 'would open', updated: 'would update', skipped: 'skipped', current: '' } : { opened: 'opened', updated: 'updated', skipped: 'skipped', current: '' };
    out(`${verb[outcome.action]} the pull request of ${printableLine(outcome.branch)}${outcome.pr_url === null ? '' : `  ${printableLine(outcome.pr_url)}`}${outcome.reason === undefined ? '' : `: ${printableLine(outcome.reason)}`}\n`);
    if (options.dryRun && outcome.body !== undefined) out(`\n${printable(outcome.title ?? '')}\n\n${printable(outcome.body)}`);
  }
  return outcome.action === 'skipped' || outcome.errors.length > 0 ? EXIT.failed : EXIT.ok;
}

/** Most bytes a `loadout` command may print (an update's diffs). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Runs this same `loadout` (the Node, its flags and the script running now) with `args` in
 * `cwd`: the commands the Action runs are the ones of the CLI that runs it.
 */
const runThisCli: LoadoutRunner = (args, cwd) =>
  new Promise<CommandResult>((resolve, reject) => {
    const script = process.argv[1];
    if (script === undefined) {
      reject(new Error('no script path in process.argv (a bug)'));
      return;
    }
    execFile(process.execPath, [...process.execArgv, script, ...args], { cwd, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      if (error !== null && code === null) reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
