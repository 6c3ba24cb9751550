/**
 * `loadout publish [--out dist] --bucket B [--prefix P] [--endpoint URL] [--region R]
 * [--force-path-style] [--delete] [--dry-run] [--concurrency N] [--json]`: syncs the built tree
 * to S3-compatible object storage (DESIGN.md section 2; docs/deploying.md). Turns flags into options, runs the core
 * (src/publish/publish.ts) and prints the outcome; progress only on a TTY outside CI.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { MANIFEST_NAME } from '../../publish/manifest.js';
import type { PublishResult } from '../../publish/publish.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';

/** Options of `loadout publish`, as the flags give them. */
export interface PublishCommandOptions {
  out: string;
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  forcePathStyle: boolean;
  delete: boolean;
  dryRun: boolean;
  /** `--concurrency` as typed (default 8). */
  concurrency?: string;
  json: boolean;
  /** Show progress (on a TTY, not in CI). */
  progress: boolean;
  /** `--plugins-remote`: push `plugins/` to a branch of this remote too (publish/plugins-branch.ts). */
  pluginsRemote?: string;
  /** `--plugins-branch` (default `plugins`). */
  pluginsBranch?: string;
}

/** The author and committer of the plugins branch's commits: fixed, so the same tree makes the same commit on every machine. */
export const PLUGINS_BRANCH_IDENTITY = { name: 'loadout publish', email: 'loadout-publish@users.noreply.github.com' };

/** Requests in flight when `--concurrency` is not given. */
const DEFAULT_CONCURRENCY = 8;
/** Attempts per request (the first and four retries) when `AWS_MAX_ATTEMPTS` is not set; the SDK's own default is 3. */
const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Runs the publish; returns 0 when done (or planned with `--dry-run`).
 * @throws LoadoutError from the core (exit 1), or `usage` for a bad flag (exit 2): a bad
 *   `--plugins-branch` (with `--plugins-remote`) before anything is uploaded or pushed.
 */
export async function publishCommand(options: PublishCommandOptions, out: Write, err: Write): Promise<number> {
  const concurrency = parseConcurrency(options.concurrency);
  // Before anything is uploaded or pushed: git's own rule for a branch name (publish/branch-name.ts).
  if (options.pluginsRemote !== undefined) await (await import('../../publish/branch-name.js')).checkBranchName(options.pluginsBranch ?? 'plugins', '--plugins-branch');
  // The SDK warns on Node 20 that its releases after January 2027 need Node 22; that is for
  // whoever upgrades the dependency, not for a CLI user. The SDK's documented switch
  // (aws/aws-sdk-js-v3#7983), read when the client is created; an explicit value is kept.
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const [{ createS3Store }, { publishTree }] = await Promise.all([import('../../publish/s3-store.js'), import('../../publish/publish.js')]);
  const store = createS3Store({
    bucket: options.bucket,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(process.env['AWS_MAX_ATTEMPTS'] === undefined ? { maxAttempts: DEFAULT_MAX_ATTEMPTS } : {}),
  });
  const started = performance.now();
  let result: PublishResult;
  try {
    result = await publishTree({
      out: options.out,
      store,
      prefix: options.prefix,
      delete: options.delete,
      dryRun: options.dryRun,
      concurrency,
      ...(options.progress ? { onProgress: (done: number, total: number, key: string) => err(`\r[${done}/${total}] ${key}\u001b[K`) } : {}),
    });
  } finally {
    if (options.progress) err('\r\u001b[K');
    store.close();
  }
  const seconds = (performance.now() - started) / 1000;
  for (const warning of result.warnings) err(`loadout: warning: ${warning}\n`);
  if (options.json) {
    out(`${JSON.stringify(result.counts)}\n`);
    return EXIT.ok;
  }
  if (options.dryRun) out(formatPlan(result));
  const { uploaded, unchanged, deleted, bytes_uploaded } = result.counts;
  const where = `${result.location}${result.prefix === '' ? '' : ` under ${result.prefix}`}`;
  const verb = options.dryRun ? 'would upload' : 'uploaded';
  out(`${verb} ${uploaded} object${uploaded === 1 ? '' : 's'} (${formatBytes(bytes_uploaded)}) to ${where}: ${unchanged} unchanged, ${deleted} ${options.dryRun ? 'to delete' : 'deleted'}${options.dryRun ? ' (dry run: nothing written)' : ` in ${seconds.toFixed(2)} s`}\n`);
  if (options.pluginsRemote !== undefined) out(await publishPluginsBranch(options, options.pluginsRemote));
  return EXIT.ok;
}

/**
 * Pushes `plugins/` to `--plugins-branch` of `remote` (publish/plugins-branch.ts), dated by the
 * catalogue's HEAD commit so that a rerun for the same commit makes the same commit; returns
 * the line to print.
 */
async function publishPluginsBranch(options: PublishCommandOptions, remote: string): Promise<string> {
  const [{ pushPluginsBranch }, { simpleGit }] = await Promise.all([import('../../publish/plugins-branch.js'), import('simple-git')]);
  const date = (await simpleGit(process.cwd()).raw(['log', '-1', '--format=%cI'])).trim();
  const branch = options.pluginsBranch ?? 'plugins';
  const result = await pushPluginsBranch({ out: options.out, repo: process.cwd(), remote, branch, date, identity: PLUGINS_BRANCH_IDENTITY, dryRun: options.dryRun });
  if (!result.changed) return `plugins: branch ${branch} of ${remote} already holds this tree (${result.commit.slice(0, 12)}): nothing to push\n`;
  return `plugins: ${result.pushed ? 'pushed' : 'would push'} ${result.commit.slice(0, 12)} to branch ${branch} of ${remote}\n`;
}

/** The plan, one line per object: `upload <key>  <size>  <content type>  <cache control>`, `delete <key>`, `keep <key>  (<why>)`. */
export function formatPlan(result: PublishResult): string {
  const lines: string[] = [];
  const phaseNames = ['content', 'records and pages', 'catalogue documents'];
  result.plan.phases.forEach((phase, i) => {
    if (phase.length === 0) return;
    lines.push(`${phaseNames[i]}:`);
    for (const o of phase) lines.push(`  upload ${result.prefix}${o.path}  ${formatBytes(o.bytes)}  ${o.contentType}  ${o.cacheControl}`);
  });
  for (const path of result.plan.deletes) lines.push(`  delete ${result.prefix}${path}`);
  for (const k of result.plan.kept) lines.push(`  keep ${result.prefix}${k.path}  (${k.reason === 'pinned' ? 'pinned version: never deleted' : 'stale: --delete removes it'})`);
  if (result.plan.manifestChanged) lines.push(`  then write ${result.prefix}${MANIFEST_NAME}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function parseConcurrency(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (!/^[1-9]\d{0,2}$/u.test(value) || Number(value) > 256) throw new LoadoutError('usage', `--concurrency is ${JSON.stringify(value)} (expected a whole number from 1 to 256)`);
  return Number(value);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
