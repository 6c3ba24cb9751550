/**
 * The one GitHub client of the bot (STYLE.md: changelogen and changesets/action send every
 * GitHub call through one small client). It uses octokit with its throttling plugin (writes
 * spaced out as GitHub's best practices ask, rate limits waited out) and its retry plugin
 * (server errors retried with backoff), and only five REST endpoints, so that any
 * GitHub-compatible host works (`GITHUB_API_URL`, DESIGN.md section 2):
 *
 * - `GET /repos/{owner}/{repo}/pulls` (find the open pull request of a branch)
 * - `POST /repos/{owner}/{repo}/pulls` (open one)
 * - `GET /repos/{owner}/{repo}/pulls/{pull_number}` (read its state for sync)
 * - `PATCH /repos/{owner}/{repo}/pulls/{pull_number}` (update its body)
 * - `POST /repos/{owner}/{repo}/issues/{issue_number}/labels` (label it)
 *
 * Failures become a `LoadoutError` (`io`) that names the request and GitHub's answer.
 */
import { Octokit, RequestError } from 'octokit';
import { LoadoutError } from '../catalogue/errors.js';
import type { GitHubSettings } from './config.js';

/** What the bot needs to know about a pull request. */
export interface PullRequest {
  number: number;
  /** The pull request's page (`html_url`), kept as the submission's `pr_url`. */
  url: string;
  state: 'open' | 'closed';
  /** True once merged (`merged_at` is set); a merged pull request is also `closed`. */
  merged: boolean;
  /** The head branch's name, without the owner. */
  head: string;
  labels: string[];
}

/** The bot's view of one repository on GitHub. Every method makes one request. */
export interface GitHubClient {
  /** `owner/name`. */
  readonly repository: string;
  /** The open pull request whose head is `branch` of this repository, if any. */
  findOpenPullRequest(branch: string): Promise<PullRequest | undefined>;
  createPullRequest(input: { title: string; body: string; head: string; base: string }): Promise<PullRequest>;
  updatePullRequestBody(number: number, body: string): Promise<PullRequest>;
  getPullRequest(number: number): Promise<PullRequest>;
  /**
   * Adds `labels` to the pull request's labels. GitHub's description does not promise to create a
   * label that does not exist yet: create it once in the repository.
   */
  addLabels(number: number, labels: string[]): Promise<void>;
}

/** Options of {@link createGitHubClient}. */
export interface GitHubClientOptions {
  /** Where octokit's warnings go (rate limits, retries); default: nowhere (the core never prints). */
  warn?: (message: string) => void;
  /** Retries after a server error or a rate limit; default 3. */
  retries?: number;
}

/** Builds the client for the repository in `settings`. Makes no request. */
export function createGitHubClient(settings: GitHubSettings, options: GitHubClientOptions = {}): GitHubClient {
  const warn = options.warn ?? ((): void => undefined);
  const retries = options.retries ?? 3;
  const octokit = new Octokit({
    auth: settings.token,
    baseUrl: settings.apiUrl,
    userAgent: 'loadout-catalogue-bot',
    log: { debug: () => undefined, info: () => undefined, warn: (message: string) => warn(message), error: (message: string) => warn(message) },
    retry: { retries },
    throttle: {
      // Waiting is right for a scheduled bot: GitHub says when to come back (Retry-After or the reset time).
      onRateLimit: (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
        warn(`GitHub rate limit reached on ${request.method} ${request.url}; ${retryCount < retries ? `retrying in ${retryAfter} s` : 'giving up'}`);
        return retryCount < retries;
      },
      onSecondaryRateLimit: (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
        warn(`GitHub secondary rate limit on ${request.method} ${request.url}; ${retryCount < retries ? `retrying in ${retryAfter} s` : 'giving up'}`);
        return retryCount < retries;
      },
    },
  });
  const { owner, repo } = settings;
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw githubError(what, settings, error);
    }
  };
  return {
    repository: `${owner}/${repo}`,

    async findOpenPullRequest(branch) {
      const response = await call(`GET /repos/${owner}/${repo}/pulls?head=${owner}:${branch}`, () =>
        octokit.request('GET /repos/{owner}/{repo}/pulls', { owner, repo, state: 'open', head: `${owner}:${branch}`, per_page: 100 }),
      );
      const found = response.data.find((pull) => pull.head.ref === branch && pull.state === 'open');
      return found === undefined ? undefined : toPullRequest(found);
    },

    async createPullRequest(input) {
      const response = await call(`POST /repos/${owner}/${repo}/pulls`, () =>
        octokit.request('POST /repos/{owner}/{repo}/pulls', { owner, repo, title: input.title, body: input.body, head: input.head, base: input.base, maintainer_can_modify: true }),
      );
      return toPullRequest(response.data);
    },

    async updatePullRequestBody(number, body) {
      const response = await call(`PATCH /repos/${owner}/${repo}/pulls/${number}`, () => octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: number, body }));
      return toPullRequest(response.data);
    },

    async getPullRequest(number) {
      const response = await call(`GET /repos/${owner}/${repo}/pulls/${number}`, () => octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner, repo, pull_number: number }));
      return toPullRequest(response.data);
    },

    async addLabels(number, labels) {
      await call(`POST /repos/${owner}/${repo}/issues/${number}/labels`, () => octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { owner, repo, issue_number: number, labels }));
    },
  };
}

/** The fields of GitHub's `pull-request` and `pull-request-simple` schemas that the bot reads. */
interface PullRequestFields {
  number: number;
  html_url: string;
  state: string;
  merged_at: string | null;
  head: { ref: string };
  labels: { name?: string }[];
}

function toPullRequest(pull: PullRequestFields): PullRequest {
  return {
    number: pull.number,
    url: pull.html_url,
    state: pull.state === 'open' ? 'open' : 'closed',
    merged: pull.merged_at !== null,
    head: pull.head.ref,
    labels: pull.labels.flatMap((label) => (label.name === undefined ? [] : [label.name])),
  };
}

/** Wraps a failed request: what was asked, what GitHub answered, and what to do. */
function githubError(what: string, settings: GitHubSettings, error: unknown): LoadoutError {
  if (error instanceof RequestError) {
    const data = error.response?.data as { message?: unknown; errors?: unknown } | undefined;
    const detail = typeof data?.message === 'string' ? data.message : error.message;
    const errors = Array.isArray(data?.errors) ? ` ${JSON.stringify(data.errors)}` : '';
    const hint =
      error.status === 401
        ? 'Check GITHUB_TOKEN: it is missing, expired or revoked.'
        : error.status === 403
          ? 'The token may lack the permissions contents: write and pull-requests: write, or a rate limit held.'
          : error.status === 404
            ? `Check GITHUB_REPOSITORY (${settings.owner}/${settings.repo}) and that the token can see it.`
            : undefined;
    return new LoadoutError('io', `GitHub answered ${error.status} to ${what}: ${detail}${errors}`, { cause: error, ...(hint === undefined ? {} : { hint }) });
  }
  return new LoadoutError('io', `cannot reach GitHub at ${settings.apiUrl} for ${what}: ${(error as Error).message}`, { cause: error, hint: 'Check GITHUB_API_URL and the network.' });
}
