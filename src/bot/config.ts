/**
 * The pull-request bot's configuration, resolved once from the environment (DESIGN.md section
 * 2; STYLE.md: changelogen's `Resolved…` type passed explicitly): `GITHUB_TOKEN`,
 * `GITHUB_REPOSITORY` (`owner/name`), `GITHUB_API_URL` (default `https://api.github.com`; any
 * GitHub-compatible host, over https, or over http only to a loopback host, since the token
 * travels in every request), and the commit identity `LOADOUT_BOT_NAME` / `LOADOUT_BOT_EMAIL`
 * (each defaulting to git's own `user.name` / `user.email`).
 */
import { LoadoutError } from '../catalogue/errors.js';

/** Where and as whom the bot talks to GitHub. */
export interface GitHubSettings {
  token: string;
  owner: string;
  repo: string;
  /** API root without a trailing slash, e.g. `https://api.github.com` or `https://ghe.example/api/v3`. */
  apiUrl: string;
}

/** The commit identity; a missing part comes from git's configuration. */
export interface BotIdentity {
  name?: string;
  email?: string;
}

/** GitHub's rule for repository owners and names (letters, digits, `-`, `_`, `.`; 100 at most). */
const REPOSITORY = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/u;

/**
 * Reads the GitHub settings from `env`.
 * @throws LoadoutError `config` naming the variable when `GITHUB_TOKEN` or `GITHUB_REPOSITORY`
 *   is missing, a value is malformed, or `GITHUB_API_URL` is http to a host other than loopback.
 */
export function resolveGitHubSettings(env: NodeJS.ProcessEnv = process.env): GitHubSettings {
  const token = env['GITHUB_TOKEN'] ?? '';
  if (token.trim() === '') {
    throw new LoadoutError('config', 'GITHUB_TOKEN is not set (expected a token that may push branches and open pull requests)', {
      hint: 'In GitHub Actions pass `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` with `contents: write` and `pull-requests: write`; locally use a fine-grained token.',
    });
  }
  const repository = env['GITHUB_REPOSITORY'] ?? '';
  const match = REPOSITORY.exec(repository);
  if (match?.[1] === undefined || match[2] === undefined || match[2] === '.' || match[2] === '..') {
    throw new LoadoutError('config', `GITHUB_REPOSITORY is ${JSON.stringify(repository)} (expected owner/name, such as octo-org/loadouts)`);
  }
  const apiUrl = (env['GITHUB_API_URL'] ?? 'https://api.github.com').replace(/(?<!\/)\/+$/u, '');
  let parsed: URL;
  try {
    parsed = new URL(apiUrl);
  } catch {
    throw new LoadoutError('config', `GITHUB_API_URL is ${JSON.stringify(apiUrl)} (expected an absolute URL such as https://api.github.com)`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new LoadoutError('config', `GITHUB_API_URL is ${JSON.stringify(apiUrl)} (expected an http or https URL)`);
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new LoadoutError('config', `GITHUB_API_URL is ${JSON.stringify(apiUrl)}, plain http to a host that is not this machine, so GITHUB_TOKEN would travel in clear (expected https, or http only to a loopback host: localhost, 127.0.0.0/8 or [::1])`, {
      hint: 'Use the https address of the GitHub API (https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server).',
    });
  }
  return { token: token.trim(), owner: match[1], repo: match[2], apiUrl };
}

/**
 * True when `hostname` (as `URL.hostname` gives it: lowercase, IPv4 in dotted decimal, IPv6 in
 * brackets and compressed) names this machine: `localhost` (RFC 6761 section 6.3), an address
 * of 127.0.0.0/8 (RFC 1122 section 3.2.1.3) or `[::1]` (RFC 4291 section 2.5.3).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(hostname);
}

/**
 * Reads `LOADOUT_BOT_NAME` and `LOADOUT_BOT_EMAIL` from `env`; unset or empty ones are left out.
 * @throws LoadoutError `config` when a value holds a line break, `<` or `>` (it would break the
 *   commit header), or the e-mail has no `@`.
 */
export function resolveBotIdentity(env: NodeJS.ProcessEnv = process.env): BotIdentity {
  const identity: BotIdentity = {};
  const name = env['LOADOUT_BOT_NAME']?.trim();
  const email = env['LOADOUT_BOT_EMAIL']?.trim();
  if (name !== undefined && name !== '') {
    if (/[\r\n<>]/u.test(name)) throw new LoadoutError('config', `LOADOUT_BOT_NAME is ${JSON.stringify(name)} (expected a name without line breaks, < or >)`);
    identity.name = name;
  }
  if (email !== undefined && email !== '') {
    if (/[\s<>]/u.test(email) || !email.includes('@')) throw new LoadoutError('config', `LOADOUT_BOT_EMAIL is ${JSON.stringify(email)} (expected an e-mail address such as loadout-bot@example.org)`);
    identity.email = email;
  }
  return identity;
}
