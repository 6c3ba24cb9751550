/**
 * The bot's configuration (src/bot/config.ts): GITHUB_API_URL over plain http is refused unless
 * the host is this machine, since GITHUB_TOKEN travels in every request.
 */
import { describe, expect, it } from 'vitest';
import { resolveGitHubSettings } from '../../src/bot/config.js';
import { LoadoutError } from '../../src/catalogue/errors.js';

const env = (apiUrl: string): NodeJS.ProcessEnv => ({ GITHUB_TOKEN: 'ghs_secret', GITHUB_REPOSITORY: 'octo-org/loadouts', GITHUB_API_URL: apiUrl });

describe('GITHUB_API_URL', () => {
  it.each(['http://api.example.com', 'http://10.0.0.1:8080/api/v3', 'http://127.0.0.1.nip.io', 'http://localhost.example.com', 'http://[::ffff:8.8.8.8]', 'http://[fe80::1]', 'http://0.0.0.0'])('refuses plain http to %s, naming the variable', (url) => {
    let thrown: unknown;
    try {
      resolveGitHubSettings(env(url));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LoadoutError);
    expect(thrown).toMatchObject({ code: 'config', message: expect.stringMatching(/^GITHUB_API_URL is ".*", plain http to a host that is not this machine, so GITHUB_TOKEN would travel in clear \(expected https/u) as unknown });
  });

  it.each([
    ['https://api.github.com', 'https://api.github.com'],
    ['https://ghe.example/api/v3/', 'https://ghe.example/api/v3'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://localhost:3000/api', 'http://localhost:3000/api'],
    ['http://LOCALHOST', 'http://LOCALHOST'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ])('accepts %s', (url, apiUrl) => {
    expect(resolveGitHubSettings(env(url))).toEqual({ token: 'ghs_secret', owner: 'octo-org', repo: 'loadouts', apiUrl });
  });
});
